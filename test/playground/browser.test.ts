/**
 * The playground in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core): a document with known
 * entities, the collection view with facets, raw JSON, and signing in the browser against a server that wants
 * signed requests. Skipped only where Chromium is absent outside CI; in CI (`CI` set) it must run.
 *
 * The screenshot of the README (docs/playground.png) is rewritten with `UPDATE_SCREENSHOTS=1`; otherwise it goes to
 * a temporary folder, so a test run leaves the tree as it found it.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildBrowserClient } from '../../scripts/build-browser.mjs'
import { createEngine } from '../../src/engine/create-engine.ts'
import type { Engine } from '../../src/engine/types.ts'
import { composeHandler, listen } from './helpers.ts'

const CHROMIUM = '/usr/bin/chromium'
const available = existsSync(CHROMIUM)
if (!available && process.env['CI'] !== undefined) {
  throw new Error(`${CHROMIUM} is missing; CI must install it (.ci/run does: apt-get install -y chromium)`)
}

const SCREENSHOT = fileURLToPath(new URL('../../docs/playground.png', import.meta.url))
const TEXT = 'Tim Cook visited Paris, where Apple opened a store. The staff were friendly. The queue was painfully slow.'
const REVIEWS = [
  'The staff were friendly and the pool was great.',
  'The staff were rude and the room was dirty.',
  'Great pool, friendly staff, lovely breakfast.',
  'The room was small but the breakfast was good.',
  'Friendly staff. The pool was cold.',
  'The breakfast was cold and the staff were slow.',
].join('\n')

describe.skipIf(!available)('playground in headless Chromium', () => {
  let dir: string
  let bundle: string
  let engine: Engine
  let browser: Browser
  let page: Page
  const servers: { url: string; close: () => Promise<void> }[] = []
  const consoleErrors: string[] = []

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'playground-browser-'))
    bundle = (await buildBrowserClient({ outfile: join(dir, 'client.js') })).outfile
    engine = createEngine({ accounts: [{ key: 'page-key', secret: 'page-secret' }] })
    servers.push(await listen(composeHandler(engine, { clientBundle: bundle }, { devAccount: 'page-key' })))
    servers.push(await listen(composeHandler(engine, { clientBundle: bundle }, {})))
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    })
    page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 })
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text())
    })
    page.on('pageerror', (e) => consoleErrors.push(e.message))
    page.on('response', (r) => {
      if (r.status() >= 400) consoleErrors.push(`${r.status()} ${new URL(r.url()).pathname}`)
    })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    for (const s of servers) await s.close()
    await engine?.close()
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  })

  it('marks the entities of a document with their types and draws sentence and document sentiment', async () => {
    await page.goto(servers[0]!.url + '/')
    await expect.poll(() => page.textContent('#conn-state')).toContain('development mode')
    await expect.poll(() => page.locator('#config option').count()).toBeGreaterThan(0)
    expect(await page.locator('#config option').first().textContent()).toContain('(primary)')
    await page.fill('#text', TEXT)
    await page.click('#analyse')
    await page.locator('mark.entity').first().waitFor()
    const marks = await page.locator('mark.entity').evaluateAll((nodes) =>
      nodes.map((n) => [n.firstChild?.textContent ?? '', n.getAttribute('data-type'), n.querySelector('.label')?.textContent ?? '']),
    )
    expect(marks).toEqual([
      ['Tim Cook', 'Person', 'Person'],
      ['Paris', 'Place', 'Place'],
      ['Apple', 'Company', 'Company'],
    ])
    // Distinct colours per type.
    const colours = await page.locator('mark.entity').evaluateAll((nodes) => nodes.map((n) => getComputedStyle(n).backgroundColor))
    expect(new Set(colours).size).toBe(3)
    // The whole text stays readable around the marks.
    expect((await page.textContent('.marked'))?.replace(/Person|Place|Company/g, '')).toBe(TEXT)

    const sentences = page.locator('[data-section="sentences"] .sentence')
    expect(await sentences.allTextContents()).toEqual([
      expect.stringMatching(/ Tim Cook visited Paris, where Apple opened a store\.$/),
      expect.stringMatching(/ The staff were friendly\.$/),
      expect.stringMatching(/ The queue was painfully slow\.$/),
    ])
    expect(Number(await sentences.nth(1).locator('.score').textContent())).toBeGreaterThan(0)
    expect(Number(await sentences.nth(2).locator('.score').textContent())).toBeLessThan(0)
    expect(await page.locator('.overview .scale .marker').count()).toBe(1)
    expect(await page.locator('[data-section="themes"] li').count()).toBeGreaterThan(0)
    expect(await page.locator('[data-section="phrases"] .chip').allTextContents()).toContainEqual(expect.stringContaining('friendly'))
    expect(await page.textContent('[data-section="summary"]')).toContain('Tim Cook')

    // Raw JSON one click away.
    expect(await page.isVisible('#raw')).toBe(false)
    await page.click('#raw-toggle')
    const raw = JSON.parse((await page.textContent('#raw')) ?? '') as { status: string; entities: { title: string }[] }
    expect(raw.status).toBe('PROCESSED')
    expect(raw.entities.map((e) => e.title)).toContain('Tim Cook')
    await page.click('#raw-toggle')

    // The scratch configuration the page analysed with is gone again.
    expect((await engine.account('page-key').listConfigurations()).map((c) => c.name)).toEqual([expect.not.stringContaining('scratch')])

    // Without the scratch copy the primary configuration is used as it is: entities, but no locations to mark.
    await page.uncheck('#everything')
    await page.click('#analyse')
    await page.locator('[data-hint="mentions"]').waitFor()
    expect(await page.locator('mark.entity').count()).toBe(0)
    expect(await page.locator('[data-section="entities"] li').allTextContents()).toContainEqual(expect.stringContaining('Tim Cook'))
    await page.check('#everything')
    await page.click('#analyse')
    await page.locator('mark.entity').first().waitFor()

    const png = await page.screenshot({ fullPage: true })
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    await writeFile(process.env['UPDATE_SCREENSHOTS'] === '1' ? SCREENSHOT : join(dir, 'playground.png'), png)
  })

  it('analyses a dropped .txt file as a collection and draws facets with attributes and themes', async () => {
    // Dropped on the page: a file of several lines switches to the collection view.
    await page.evaluate((text) => {
      const data = new DataTransfer()
      data.items.add(new File([text], 'dropped.txt', { type: 'text/plain' }))
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
    }, 'first line\r\nsecond line\n')
    await expect.poll(() => page.inputValue('#text')).toBe('first line\nsecond line\n')
    expect(await page.getAttribute('#mode-collection', 'aria-selected')).toBe('true')
    expect(await page.textContent('#message')).toBe('dropped.txt: 2 line(s)')
    await page.click('#mode-document')
    // Opened with the file input.
    await page.setInputFiles('#file', { name: 'reviews.txt', mimeType: 'text/plain', buffer: Buffer.from(REVIEWS) })
    await expect.poll(() => page.getAttribute('#mode-collection', 'aria-selected')).toBe('true')
    expect(await page.inputValue('#text')).toBe(REVIEWS)
    await page.click('#analyse')
    await page.locator('[data-section="facets"] li').first().waitFor()
    expect(await page.textContent('#results-title')).toMatch(/^Collection /)
    expect(await page.textContent('.overview')).toContain('6 documents analysed together')
    const facets = await page.locator('[data-section="facets"] li .name').allTextContents()
    expect(facets).toEqual(expect.arrayContaining(['staff', 'pool', 'breakfast']))
    const staff = page.locator('[data-section="facets"] li', { has: page.locator('.name', { hasText: /^staff$/ }) })
    expect(await staff.locator('.attributes .chip').allTextContents()).toContainEqual(expect.stringMatching(/^friendly ×\d+$/))
    expect(await staff.locator('.stack .pos').count()).toBe(1)
    expect(await page.locator('[data-section="themes"] li').count()).toBeGreaterThan(0)
    expect(await page.locator('[data-section="documents"] li').count()).toBe(6)
  })

  it('signs in the browser with a key and secret typed into the page', async () => {
    const signed = await browser.newPage()
    await signed.goto(servers[1]!.url + '/')
    await expect.poll(() => signed.textContent('#conn-state')).toContain('signed requests')
    await signed.fill('#key', 'page-key')
    await signed.fill('#secret', 'wrong')
    await signed.click('#credentials button')
    await expect.poll(() => signed.textContent('#message')).toContain('401')
    await signed.fill('#secret', 'page-secret')
    await signed.click('#credentials button')
    await expect.poll(() => signed.textContent('#conn-state')).toContain('signed as page-key')
    await signed.fill('#text', 'Angela Merkel met Emmanuel Macron in Berlin.')
    await signed.click('#analyse')
    await signed.locator('mark.entity').first().waitFor()
    expect(await signed.locator('mark.entity').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-type')))).toContain('Person')
    await signed.close()
  })

  it('ran without errors in the browser console', () => {
    expect(consoleErrors).toEqual([])
  })
})
