import { describe, expect, it } from 'vitest'
import { RecentCache } from '../../src/nlp/recent-cache.ts'

describe('RecentCache', () => {
  it('should give back what was set for the same object, and nothing for an equal but other object', () => {
    const c = new RecentCache<{ n: number }, string>(2)
    const a = { n: 1 }
    c.set(a, 'a')
    expect(c.get(a)).toBe('a')
    expect(c.get({ n: 1 })).toBeUndefined()
  })

  it('should forget the oldest object once more than its size were set, and replace the value of one it holds', () => {
    const c = new RecentCache<object, number>(2)
    const [a, b, d] = [{}, {}, {}]
    c.set(a, 1)
    c.set(b, 2)
    c.set(a, 3)
    expect(c.get(a)).toBe(3)
    c.set(d, 4)
    expect(c.get(a)).toBeUndefined()
    expect(c.get(b)).toBe(2)
    expect(c.get(d)).toBe(4)
  })

  it('should hold one object when made without a size', () => {
    const c = new RecentCache<object, number>()
    const [a, b] = [{}, {}]
    c.set(a, 1)
    c.set(b, 2)
    expect(c.get(a)).toBeUndefined()
    expect(c.get(b)).toBe(2)
  })
})
