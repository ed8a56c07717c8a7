// textengine playground: analyse a text (Detailed mode) or a collection (Discovery mode) through the HTTP API with
// textengine/client, and draw the output: entities marked in the text, sentiment per sentence and per document,
// themes, topics, phrases, summary, relations, opinions, intentions, facets. No framework: DOM calls only.
import { createClient, isApiError } from './client.js'

const $ = (id) => document.getElementById(id)

/** Build an element: el('div', {class: 'x'}, child, 'text', ...). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue
    if (name === 'style') Object.assign(node.style, value)
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value)
    else node.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue
    node.append(child instanceof Node ? child : String(child))
  }
  return node
}

// ---------------------------------------------------------------------------------------------------------------
// Connection: development mode (unsigned) when the server answers so, else a key and secret typed into the page.

const metaBase = document.querySelector('meta[name="textengine-api-base"]')?.getAttribute('content') ?? ''
const apiBase = new URL(metaBase === '' || metaBase === '%API_BASE%' ? '.' : metaBase, location.href).href.replace(/\/+$/, '')
$('api-base').textContent = apiBase
document.querySelector('footer a').setAttribute('href', apiBase + '/openapi.json')

let client
let mode = 'document'
const APP = 'textengine-playground/browser/1.0/json'

function setState(text, kind) {
  const pill = $('conn-state')
  pill.textContent = text
  pill.className = 'pill ' + (kind ?? '')
}

function say(text, kind) {
  const m = $('message')
  m.textContent = text
  m.className = 'message ' + (kind ?? '')
}

async function connect(key, secret) {
  const candidate = createClient({ baseUrl: apiBase, appName: APP, ...(key === undefined ? {} : { key, secret }) })
  const status = await candidate.status()
  client = candidate
  setState(`${key === undefined ? 'development mode' : 'signed as ' + key} · API ${status.api_version} · ${status.service_version}`, 'ok')
  $('credentials').hidden = key === undefined ? true : $('credentials').hidden
  await loadConfigurations()
}

async function start() {
  try {
    await connect()
  } catch (e) {
    if (isApiError(e) && e.status === 401) {
      setState('this server wants signed requests', 'warn')
      $('credentials').hidden = false
      const saved = sessionStorage.getItem('textengine-key')
      if (saved !== null) $('key').value = saved
    } else {
      setState('API not reachable', 'bad')
      say(errorText(e), 'bad')
    }
  }
}

$('credentials').addEventListener('submit', async (event) => {
  event.preventDefault()
  const key = $('key').value.trim()
  try {
    await connect(key, $('secret').value)
    sessionStorage.setItem('textengine-key', key)
    $('credentials').hidden = true
    say('')
  } catch (e) {
    setState('not connected', 'bad')
    say(errorText(e), 'bad')
  }
})

async function loadConfigurations() {
  const configs = (await client.configurations.list()).filter((c) => !c.name.startsWith(SCRATCH))
  configs.sort((a, b) => Number(b.is_primary) - Number(a.is_primary) || a.name.localeCompare(b.name))
  const select = $('config')
  select.replaceChildren(...configs.map((c) => el('option', { value: c.config_id }, `${c.name}${c.is_primary ? ' (primary)' : ''} · ${c.language}`)))
}

function errorText(e) {
  if (isApiError(e)) return `The API answered ${e.status}: ${e.serverMessage}`
  return e instanceof Error ? e.message : String(e)
}

// ---------------------------------------------------------------------------------------------------------------
// Input: mode tabs, a .txt file dropped on the page or opened.

const HINTS = {
  document: 'One text, analysed in Detailed mode. Paste it or drop a .txt file.',
  collection: 'One document per line, analysed together in Discovery mode (facets, themes, entities). Drop a .txt file with one text per line.',
}

function setMode(next) {
  mode = next
  $('mode-document').setAttribute('aria-selected', String(next === 'document'))
  $('mode-collection').setAttribute('aria-selected', String(next === 'collection'))
  $('mode-hint').textContent = HINTS[next]
}
$('mode-document').addEventListener('click', () => setMode('document'))
$('mode-collection').addEventListener('click', () => setMode('collection'))

async function takeFile(file) {
  if (file === undefined) return
  $('text').value = (await file.text()).replace(/\r\n?/g, '\n')
  if (file.name.endsWith('.txt') && $('text').value.trim().includes('\n')) setMode('collection')
  say(`${file.name}: ${$('text').value.split('\n').filter((l) => l.trim() !== '').length} line(s)`)
}
$('file').addEventListener('change', () => takeFile($('file').files?.[0]))
document.addEventListener('dragover', (event) => {
  event.preventDefault()
  document.body.classList.add('dropping')
})
document.addEventListener('dragleave', () => document.body.classList.remove('dropping'))
document.addEventListener('drop', (event) => {
  event.preventDefault()
  document.body.classList.remove('dropping')
  takeFile(event.dataTransfer?.files?.[0])
})

// ---------------------------------------------------------------------------------------------------------------
// Analysis. With "show every output" the chosen configuration is cloned into a scratch copy, the outputs the page
// draws are turned on in the copy (mentions give the entity locations, details the sentences), the text is
// analysed with it, and the copy is deleted: the chosen configuration and its tuning are used, nothing is changed.

const SCRATCH = 'playground scratch'
const EVERYTHING = {
  document: {
    mentions: true, named_entities: true, user_entities: true, themes: true, sentiment_phrases: true, relations: true,
    opinions: true, intentions: true, model_sentiment: true, query_topics: true, concept_topics: true, auto_categories: true,
    named_entities_limit: 20, user_entities_limit: 20, named_mentions_limit: 20, user_mentions_limit: 20, themes_limit: 10,
    theme_mentions_limit: 20, phrases_limit: 20, named_relations_limit: 10, user_relations_limit: 10, named_opinions_limit: 10,
    user_opinions_limit: 10, query_topics_limit: 10, concept_topics_limit: 10, auto_categories_limit: 5, summary_limit: 3,
  },
  collection: {
    facets: true, attributes: true, themes: true, named_entities: true, user_entities: true, query_topics: true, concept_topics: true,
    facets_limit: 15, facet_atts_limit: 5, themes_limit: 10, named_entities_limit: 10, user_entities_limit: 10, query_topics_limit: 10,
    concept_topics_limit: 10,
  },
}

let counter = 0
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function poll(read) {
  const until = Date.now() + 60_000
  for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
    const item = await read()
    if (item.status !== 'QUEUED') return item
    if (Date.now() > until) throw new Error('still queued after 60 s')
    await sleep(wait)
  }
}

async function analyse() {
  if (client === undefined) return say('Not connected to the API.', 'bad')
  const text = $('text').value
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '')
  if (lines.length === 0) return say('Type or drop some text first.', 'warn')
  const chosen = $('config').value
  const button = $('analyse')
  button.disabled = true
  say(mode === 'document' ? 'Analysing…' : `Analysing ${lines.length} documents together…`)
  let scratch
  try {
    let configId = chosen
    if ($('everything').checked) {
      scratch = await client.configurations.clone(chosen, `${SCRATCH} ${Date.now().toString(36)}`)
      await client.configurations.update([{ config_id: scratch.config_id, ...EVERYTHING }])
      configId = scratch.config_id
    }
    const id = `playground-${Date.now().toString(36)}-${++counter}`
    const started = performance.now()
    let output
    if (mode === 'document') {
      const auto = await client.documents.queue({ id, text }, { configId })
      output = auto.find((d) => d.id === id) ?? (await poll(() => client.documents.get(id, configId)))
    } else {
      const auto = await client.collections.queue({ id, documents: lines }, { configId })
      output = auto.find((c) => c.id === id) ?? (await poll(() => client.collections.get(id, configId)))
    }
    const ms = Math.round(performance.now() - started)
    show(output, mode === 'document' ? text : lines)
    say(output.status === 'FAILED' ? `FAILED: ${output.failure_reason ?? 'no reason given'}` : `Done in ${ms} ms.`, output.status === 'FAILED' ? 'bad' : 'ok')
  } catch (e) {
    say(errorText(e), 'bad')
  } finally {
    if (scratch !== undefined) await client.configurations.remove([scratch.config_id]).catch(() => undefined)
    button.disabled = false
  }
}
$('analyse').addEventListener('click', analyse)
$('text').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) analyse()
})

// ---------------------------------------------------------------------------------------------------------------
// Drawing.

$('raw-toggle').addEventListener('click', () => {
  const raw = $('raw')
  raw.hidden = !raw.hidden
  $('raw-toggle').setAttribute('aria-expanded', String(!raw.hidden))
})

/** Red (-1) to grey (0) to green (+1); scores beyond ±0.6 take the full colour. */
function scoreColor(score, alpha = 1) {
  const t = Math.min(1, Math.abs(score ?? 0) / 0.6)
  const grey = [154, 160, 166]
  const end = (score ?? 0) < 0 ? [217, 48, 37] : [24, 128, 56]
  const [r, g, b] = grey.map((c, i) => Math.round(c + (end[i] - c) * t))
  return `rgba(${r}, ${g}, ${b}, ${alpha})`
}

/** A sentiment chip: the score on its colour. */
function scoreChip(score, polarity) {
  if (score === undefined && polarity === undefined) return ''
  const text = score === undefined ? polarity : `${score > 0 ? '+' : ''}${score.toFixed(2)}`
  return el('span', { class: 'score', title: polarity ?? '', style: { background: scoreColor(score ?? (polarity === 'positive' ? 1 : polarity === 'negative' ? -1 : 0)) } }, text)
}

/** The document-level scale: a red-grey-green gradient with a marker at the score. */
function scale(score) {
  const pos = ((Math.max(-1, Math.min(1, score ?? 0)) + 1) / 2) * 100
  return el('div', { class: 'scale', title: `sentiment ${score}` }, el('span', { class: 'marker', style: { left: `${pos}%` } }))
}

function bar(value, max = 1, color) {
  const width = Math.max(2, Math.min(100, (value / (max || 1)) * 100))
  return el('span', { class: 'bar' }, el('span', { style: { width: `${width}%`, ...(color === undefined ? {} : { background: color }) } }))
}

const PALETTE = ['#7aecec', '#bfeeb7', '#feca74', '#ff9561', '#aa9cfc', '#c887fb', '#9cc9cc', '#ffeb80', '#ff8197', '#f0d0ff', '#e4e7d2', '#c3e6cb']
const KNOWN = { Person: '#aa9cfc', Company: '#7aecec', Place: '#feca74', Product: '#bfeeb7', 'Job Title': '#ff9561', Organization: '#7aecec', Date: '#bfe1d9', Money: '#e4e7d2', Email: '#ffeb80', URL: '#c887fb', Phone: '#f0d0ff' }
const assigned = new Map()
function typeColor(type) {
  if (KNOWN[type] !== undefined) return KNOWN[type]
  if (!assigned.has(type)) assigned.set(type, PALETTE[assigned.size % PALETTE.length])
  return assigned.get(type)
}

/** UTF-8 byte offset → index in the JS string, for every byte offset that starts a character. */
function byteToIndex(text) {
  const map = new Map()
  const encoder = new TextEncoder()
  let bytes = 0
  let index = 0
  for (const ch of text) {
    map.set(bytes, index)
    bytes += encoder.encode(ch).length
    index += ch.length
  }
  map.set(bytes, index)
  return map
}

/** Entity spans of a document: [start, end, entity], sorted, overlaps dropped (the longer first wins). */
function entitySpans(doc, text) {
  const map = byteToIndex(text)
  const spans = []
  for (const entity of doc.entities ?? []) {
    for (const mention of entity.mentions ?? []) {
      for (const loc of mention.locations ?? []) {
        const start = map.get(loc.offset)
        const end = map.get(loc.offset + loc.length)
        if (start !== undefined && end !== undefined && end > start) spans.push([start, end, entity])
      }
    }
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1])
  const kept = []
  for (const span of spans) if (kept.length === 0 || span[0] >= kept[kept.length - 1][1]) kept.push(span)
  return kept
}

/** The text with entity marks, as displaCy draws them: the words on the type's colour, a label chip after them. */
function markedText(text, spans) {
  const out = []
  let at = 0
  for (const [start, end, entity] of spans) {
    if (start > at) out.push(text.slice(at, start))
    out.push(
      el('mark', { class: 'entity', style: { background: typeColor(entity.entity_type) }, title: `${entity.entity_type} · ${entity.type} · sentiment ${entity.sentiment_score}`, 'data-type': entity.entity_type },
        text.slice(start, end), el('span', { class: 'label' }, entity.entity_type)),
    )
    at = end
  }
  out.push(text.slice(at))
  return el('div', { class: 'marked' }, out)
}

/**
 * Sentences from `details`: each word's title is found in the text from where the previous one ended, so a sentence
 * spans from its first to its last word. Its score is the sum of its words' sentiment scores.
 */
function sentences(doc, text) {
  const out = []
  let cursor = 0
  for (const sentence of doc.details ?? []) {
    let start
    let end
    let score = 0
    for (const word of sentence.words ?? []) {
      score += word.sentiment_score ?? 0
      const at = text.indexOf(word.title, cursor)
      if (at < 0 || at - cursor > 200) continue
      start ??= at
      end = at + word.title.length
      cursor = end
    }
    if (start === undefined) continue
    out.push({ text: text.slice(start, end), score: Math.max(-1, Math.min(1, Math.round(score * 1000) / 1000)), polar: sentence.is_polar, imperative: sentence.is_imperative })
  }
  return out
}

function section(title, ...body) {
  const content = body.flat().filter((b) => b !== undefined && b !== null && b !== '')
  if (content.length === 0) return ''
  return el('section', { class: 'card', 'data-section': title.toLowerCase() }, el('h3', {}, title), content)
}

function list(items, render) {
  return items === undefined || items.length === 0 ? undefined : el('ul', { class: 'items' }, items.map((item) => el('li', {}, render(item))))
}

function showDocument(doc, text) {
  const spans = entitySpans(doc, text)
  const sents = sentences(doc, text)
  const maxStrength = Math.max(0, ...(doc.themes ?? []).map((t) => t.strength_score), ...(doc.topics ?? []).map((t) => t.strength_score))
  return [
    el('section', { class: 'card overview' },
      el('div', { class: 'big' }, scoreChip(doc.sentiment_score, doc.sentiment_polarity), el('strong', {}, doc.sentiment_polarity ?? 'no sentiment'), ' document sentiment'),
      scale(doc.sentiment_score),
      el('p', { class: 'facts' },
        doc.language === undefined ? '' : `Language: ${doc.language} (${Math.round((doc.language_score ?? 0) * 100)}%)`,
        doc.model_sentiment === undefined ? '' : ` · Model: ${doc.model_sentiment.sentiment_polarity} (positive ${doc.model_sentiment.positive_score}, negative ${doc.model_sentiment.negative_score}, neutral ${doc.model_sentiment.neutral_score})`,
        ` · Status: ${doc.status}`),
    ),
    section('Entities', markedText(text, spans),
      spans.length === 0 && (doc.entities ?? []).length > 0 ? el('p', { class: 'hint', 'data-hint': 'mentions' }, 'This configuration returns no entity locations (mentions are off): tick “show every output” to see the entities marked in the text.') : '',
      list(doc.entities, (e) => [
      el('span', { class: 'chip', style: { background: typeColor(e.entity_type) } }, e.entity_type), ' ', el('strong', {}, e.title),
      e.label !== e.entity_type ? ` (${e.label})` : '', ` · ${e.type} · evidence ${e.evidence}${e.is_about ? ' · about' : ''} `, scoreChip(e.sentiment_score, e.sentiment_polarity),
    ])),
    section('Sentences', sents.map((s) =>
      el('div', { class: 'sentence', style: { borderLeftColor: scoreColor(s.score), background: scoreColor(s.score, 0.08) } }, scoreChip(s.score), ' ', s.text, s.imperative ? el('em', {}, ' (action item)') : ''))),
    section('Summary', doc.summary === undefined ? undefined : el('blockquote', {}, doc.summary)),
    section('Themes', list(doc.themes, (t) => [el('span', { class: 'name' }, t.title), bar(t.strength_score, maxStrength), scoreChip(t.sentiment_score, t.sentiment_polarity), t.is_about ? el('em', {}, ' about') : ''])),
    section('Topics', list([...(doc.topics ?? []), ...(doc.taxonomy ?? [])], (t) => [el('span', { class: 'name' }, `${t.title} (${t.type})`), bar(t.strength_score, maxStrength), scoreChip(t.sentiment_score, t.sentiment_polarity)])),
    section('Categories', list(doc.auto_categories, (c) => [el('span', { class: 'name' }, c.title), bar(c.strength_score), (c.categories ?? []).map((s) => el('span', { class: 'chip plain' }, s.title))])),
    section('Phrases', doc.phrases === undefined ? undefined : el('p', { class: 'chips' }, doc.phrases.map((p) =>
      el('span', { class: 'chip', style: { background: scoreColor(p.sentiment_score ?? (p.sentiment_polarity === 'positive' ? 0.6 : p.sentiment_polarity === 'negative' ? -0.6 : 0), 0.35) }, title: `${p.type} ${p.sentiment_polarity}` },
        p.title, p.sentiment_score === undefined ? '' : ` ${p.sentiment_score > 0 ? '+' : ''}${p.sentiment_score}`, p.is_negated ? ` (negated by “${p.negating_phrase ?? ''}”)` : '', p.is_intensified ? ` (intensified by “${p.intensifying_phrase ?? ''}”)` : '')))),
    section('Relations', list(doc.relations, (r) => [el('strong', {}, r.relation_type), ': ', r.entities.map((e) => `${e.title} (${e.entity_type})`).join(' — '), ` · “${r.extra}” · confidence ${r.confidence_score}`])),
    section('Opinions', list(doc.opinions, (o) => [el('strong', {}, o.speaker), ` on ${o.topic}: “${o.quotation}” `, scoreChip(o.sentiment_score, o.sentiment_polarity)])),
    section('Intentions', list(doc.intentions, (i) => [el('strong', {}, i.type), `: ${i.who === '' ? '' : i.who + ' → '}${i.what} (“${i.evidence_phrase}”)`])),
  ]
}

function counts(item) {
  const total = Math.max(1, item.positive_count + item.neutral_count + item.negative_count)
  return el('span', { class: 'stack', title: `${item.positive_count} positive, ${item.neutral_count} neutral, ${item.negative_count} negative` },
    el('span', { class: 'pos', style: { width: `${(item.positive_count / total) * 100}%` } }),
    el('span', { class: 'neu', style: { width: `${(item.neutral_count / total) * 100}%` } }),
    el('span', { class: 'neg', style: { width: `${(item.negative_count / total) * 100}%` } }))
}

function split(item) {
  return [counts(item), el('span', { class: 'split', title: 'positive / neutral / negative' }, `+${item.positive_count} ·${item.neutral_count} −${item.negative_count}`)]
}

function showCollection(col, lines) {
  const maxFacet = Math.max(1, ...(col.facets ?? []).map((f) => f.count))
  const maxTheme = Math.max(1, ...(col.themes ?? []).map((t) => t.themes_count))
  return [
    el('section', { class: 'card overview' }, el('div', { class: 'big' }, el('strong', {}, String(col.docs_count ?? lines.length)), ' documents analysed together'),
      el('p', { class: 'facts' }, `Status: ${col.status} · ${(col.facets ?? []).length} facets · ${(col.themes ?? []).length} themes · ${(col.entities ?? []).length} entities`)),
    section('Facets', list(col.facets, (f) => [
      el('span', { class: 'name' }, f.label), bar(f.count, maxFacet), el('span', { class: 'count' }, String(f.count)), split(f),
      f.attributes === undefined || f.attributes.length === 0 ? '' : el('div', { class: 'chips attributes' }, f.attributes.map((a) => el('span', { class: 'chip plain' }, `${a.label} ×${a.count}`))),
    ])),
    section('Themes', list(col.themes, (t) => [el('span', { class: 'name' }, t.title), bar(t.themes_count, maxTheme, scoreColor(t.sentiment_score)), el('span', { class: 'count' }, String(t.themes_count)), scoreChip(t.sentiment_score, t.sentiment_polarity)])),
    section('Entities', list(col.entities, (e) => [el('span', { class: 'chip', style: { background: typeColor(e.entity_type) } }, e.entity_type), ' ', el('span', { class: 'name' }, e.title), el('span', { class: 'count' }, `×${e.count}`), split(e)])),
    section('Topics', list([...(col.topics ?? []), ...(col.taxonomy ?? [])], (t) => [el('span', { class: 'name' }, `${t.title} (${t.type})`), el('span', { class: 'count' }, `${t.hitcount} hits`), scoreChip(t.sentiment_score, t.sentiment_polarity)])),
    section('Documents', el('ol', { class: 'docs' }, lines.map((l) => el('li', {}, l)))),
  ]
}

function show(output, input) {
  $('results').hidden = false
  $('results').dataset.kind = mode
  $('results-title').textContent = mode === 'document' ? `Document ${output.id}` : `Collection ${output.id}`
  $('raw').textContent = JSON.stringify(output, null, 2)
  $('view').replaceChildren(...(mode === 'document' ? showDocument(output, input) : showCollection(output, input)).filter((n) => n !== ''))
}

start()
