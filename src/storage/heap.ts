/**
 * A binary min-heap of nodes ordered by (`a`, `b`, `c`) ascending (`c` compared as strings, by UTF-16 code units), with lazy deletion left to the caller: nodes
 * stay in the heap after their entry changed, and the caller skips them (`isLive`) when they surface, and
 * calls {@link Heap.compact} when dead nodes pile up. Push and pop cost O(log n).
 */
export interface HeapNode<E> {
  a: number
  b: number
  c: string
  entry: E
  gen: number
}

export class Heap<E> {
  private nodes: Array<HeapNode<E>> = []

  get size(): number {
    return this.nodes.length
  }

  peek(): HeapNode<E> | undefined {
    return this.nodes[0]
  }

  push(node: HeapNode<E>): void {
    const h = this.nodes
    h.push(node)
    let i = h.length - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!less(h[i]!, h[p]!)) break
      ;[h[i], h[p]] = [h[p]!, h[i]!]
      i = p
    }
  }

  pop(): HeapNode<E> | undefined {
    const h = this.nodes
    const top = h[0]
    const last = h.pop()
    if (top === undefined || last === undefined || h.length === 0) return top
    h[0] = last
    this.down(0)
    return top
  }

  /** Keep only the nodes `isLive` accepts (O(n)): call when dead nodes outnumber live ones. */
  compact(isLive: (node: HeapNode<E>) => boolean): void {
    this.nodes = this.nodes.filter(isLive)
    for (let i = (this.nodes.length >> 1) - 1; i >= 0; i--) this.down(i)
  }

  private down(i: number): void {
    const h = this.nodes
    const n = h.length
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < n && less(h[l]!, h[m]!)) m = l
      if (r < n && less(h[r]!, h[m]!)) m = r
      if (m === i) return
      ;[h[i], h[m]] = [h[m]!, h[i]!]
      i = m
    }
  }
}

function less<E>(x: HeapNode<E>, y: HeapNode<E>): boolean {
  return x.a < y.a || (x.a === y.a && (x.b < y.b || (x.b === y.b && x.c < y.c)))
}
