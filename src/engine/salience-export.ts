import { gzipSync, zipSync } from 'fflate'
import { createTar } from 'nanotar'
import { fail, isEngineError, show } from '../errors.ts'
import type { Configuration } from '../model/configuration.ts'
import type { BlacklistItem, Category, Query, SentimentPhrase, UserEntity } from '../model/tuning.ts'
import type { AccountApi } from './types.ts'

/**
 * The Salience user directory export (`GET /salience/user-directory.{zip|tar|tar.gz}`): a configuration's tuning
 * written as the data files of a Lexalytics Salience user directory, packed as an archive.
 *
 * Layout: `manifest.txt` at the root, the tuning under `imports/`. Every file is UTF-8 without a BOM, one entry
 * per line, LF line ends, columns separated by one TAB, in the order the tuning lists hold (the order of the list
 * endpoints). Salience's line-based files have no escape mechanism, so a TAB, CR or LF inside a value is written
 * as one space; for queries this keeps their meaning (the query language treats every blank alike). Everything
 * else, double quotes, parentheses, backslashes, `*`, `+` and non-ASCII text included, is written verbatim.
 *
 * | file | line | Salience documentation |
 * | --- | --- | --- |
 * | `imports/query-topics.dat` | `name<TAB>query` | query-defined topics: `Topic<tab>queries` |
 * | `imports/concept-topics.dat` | `name<TAB>sample, sample, …<TAB>weight` | concept grammar: topic name, comma-separated concept query, optional weight |
 * | `imports/sentiment-phrases.hsd` | `phrase<TAB>weight` | hand-scored dictionary (HSD): `phrase<tab>value` |
 * | `imports/user-entities.dat` | `name<TAB>label=…, type=…, normalized=…` | user entity lists: entity (or `+query`), then the specification column |
 * | `imports/blacklist.dat` | `term` | single-column `.dat` (as `themes/stopwords.dat`); `*` patterns as stored |
 *
 * The archive bytes depend on nothing but the tuning: fixed entry times, owners and modes, no clock.
 */

/** Archive formats of the export, as the path suffix or the `format` parameter names them. */
export type ArchiveFormat = 'zip' | 'tar' | 'tar.gz'

/** The archive formats, in the order error messages list them. */
export const ARCHIVE_FORMATS: readonly ArchiveFormat[] = ['zip', 'tar', 'tar.gz']

const CONTENT_TYPES: Readonly<Record<ArchiveFormat, string>> = {
  zip: 'application/zip',
  tar: 'application/x-tar',
  'tar.gz': 'application/gzip',
}

/** One file of the user directory: its path inside the archive and its text. */
export interface UserDirectoryFile {
  readonly path: string
  readonly text: string
}

/** The tuning written into a user directory. */
export interface UserDirectoryTuning {
  readonly queries: readonly Query[]
  readonly categories: readonly Category[]
  readonly phrases: readonly SentimentPhrase[]
  readonly entities: readonly UserEntity[]
  readonly blacklist: readonly BlacklistItem[]
}

/** An exported archive, ready to send. */
export interface UserDirectoryArchive {
  /** `user-directory-<config id>.<format>`, the id reduced to `[A-Za-z0-9._-]`. */
  readonly filename: string
  readonly contentType: string
  readonly format: ArchiveFormat
  readonly bytes: Uint8Array
  /** The files inside, in archive order. */
  readonly files: readonly UserDirectoryFile[]
}

/**
 * An archive format from a path suffix or a `format` parameter (`zip`, `tar`, `tar.gz`, a leading dot and any
 * case accepted). ERR_INVALID_FIELD (400) names anything else.
 */
export function parseArchiveFormat(value: string, field = 'format'): ArchiveFormat {
  const v = value.trim().toLowerCase().replace(/^\./, '')
  const found = ARCHIVE_FORMATS.find((f) => f === v)
  if (found === undefined) fail('ERR_INVALID_FIELD', `${field}: unknown archive format ${show(value)}; expected one of ${ARCHIVE_FORMATS.join(', ')}`, field)
  return found
}

/** A value on one line of a tab-separated file: TAB, CR and LF become spaces. */
function cell(value: string): string {
  return value.replace(/[\t\r\n]/g, ' ')
}

function lines(rows: readonly string[]): string {
  return rows.map((r) => r + '\n').join('')
}

/** A number as the files write it: JavaScript's shortest round-trip form (`1`, `0.5`, `-1.25`). */
function num(n: number): string {
  return String(n)
}

/** The specification column of a user entity: `label=…, type=…, normalized=…` with the fields it has. */
function entitySpec(e: UserEntity): string {
  const parts: string[] = []
  if (e.label !== undefined && e.label !== '') parts.push(`label=${e.label}`)
  parts.push(`type=${e.type}`)
  if (e.normalized !== undefined && e.normalized !== '') parts.push(`normalized=${e.normalized}`)
  return parts.join(', ')
}

const FILE_NOTES: readonly { path: string; count: (t: UserDirectoryTuning) => number; what: string; line: string }[] = [
  { path: 'imports/query-topics.dat', count: (t) => t.queries.length, what: 'query topics', line: 'name<TAB>query' },
  { path: 'imports/concept-topics.dat', count: (t) => t.categories.length, what: 'concept topics', line: 'name<TAB>samples, comma-separated<TAB>weight' },
  { path: 'imports/sentiment-phrases.hsd', count: (t) => t.phrases.length, what: 'sentiment phrases', line: 'phrase<TAB>weight' },
  { path: 'imports/user-entities.dat', count: (t) => t.entities.length, what: 'user entities', line: 'name (+query)<TAB>label=, type=, normalized=' },
  { path: 'imports/blacklist.dat', count: (t) => t.blacklist.length, what: 'blacklist items', line: 'term or * pattern' },
]

/**
 * The files of a configuration's user directory (pure): `manifest.txt` first, then the five tuning files, each
 * present even when empty.
 */
export function userDirectoryFiles(configuration: Pick<Configuration, 'config_id' | 'name' | 'language'>, tuning: UserDirectoryTuning): UserDirectoryFile[] {
  const manifest = lines([
    '# Salience user directory exported by textengine',
    `config_id\t${cell(configuration.config_id)}`,
    `config_name\t${cell(configuration.name)}`,
    `language\t${cell(configuration.language)}`,
    'encoding\tUTF-8; one entry per line; columns separated by TAB; TAB, CR and LF inside a value written as a space',
    ...FILE_NOTES.map((f) => `file\t${f.path}\t${f.count(tuning)} ${f.what}\t${f.line}`),
  ])
  return [
    { path: 'manifest.txt', text: manifest },
    { path: 'imports/query-topics.dat', text: lines(tuning.queries.map((q) => `${cell(q.name)}\t${cell(q.query)}`)) },
    {
      path: 'imports/concept-topics.dat',
      text: lines(tuning.categories.map((c) => `${cell(c.name)}\t${c.samples.map(cell).join(', ')}\t${num(c.weight)}`)),
    },
    { path: 'imports/sentiment-phrases.hsd', text: lines(tuning.phrases.map((p) => `${cell(p.name)}\t${num(p.weight)}`)) },
    { path: 'imports/user-entities.dat', text: lines(tuning.entities.map((e) => `${cell(e.name)}\t${cell(entitySpec(e))}`)) },
    { path: 'imports/blacklist.dat', text: lines(tuning.blacklist.map((b) => cell(b.name))) },
  ]
}

/**
 * Entry time of every file: 1980-01-01 00:00, the earliest a zip entry can carry. fflate writes zip times from
 * the local calendar fields, so the date is built from local fields to give the same bytes in every time zone.
 */
const ZIP_MTIME = new Date(1980, 0, 1, 0, 0, 0)
/** The same instant written into tar headers (seconds since the epoch, UTC). */
const TAR_MTIME_MS = Date.UTC(1980, 0, 1, 0, 0, 0)
const TAR_RECORD = 10240

/**
 * nanotar pads the archive to whole 10 KiB records but adds no end-of-archive marker (two zero blocks) when the
 * entries fill the last record exactly; add one more record of zeros then, as tar readers expect.
 */
function withEndOfArchive(tar: Uint8Array): Uint8Array {
  const tail = tar.subarray(tar.length - 1024)
  if (tar.length >= 1024 && tail.every((b) => b === 0)) return tar
  const out = new Uint8Array(tar.length + TAR_RECORD)
  out.set(tar)
  return out
}

/**
 * Pack files as an archive, deterministically. Zip entries are stored uncompressed (the texts stay readable in
 * the archive bytes, as tar's do; HTTP compression covers the transfer); tar entries are ustar, mode 0644, owner
 * 0:0; tar.gz is that tar gzipped by fflate (no name, time 0, so the gzip header is constant too).
 */
export function packUserDirectory(files: readonly UserDirectoryFile[], format: ArchiveFormat): Uint8Array {
  const encoder = new TextEncoder()
  if (format === 'zip') {
    const entries: Record<string, [Uint8Array, { level: 0; mtime: Date }]> = {}
    for (const f of files) entries[f.path] = [encoder.encode(f.text), { level: 0, mtime: ZIP_MTIME }]
    return zipSync(entries)
  }
  const tar = withEndOfArchive(
    createTar(
      files.map((f) => ({ name: f.path, data: encoder.encode(f.text) })),
      { attrs: { mode: '644', uid: 0, gid: 0, user: '', group: '', mtime: TAR_MTIME_MS } },
    ),
  )
  return format === 'tar' ? tar : gzipSync(tar, { level: 9, mtime: 0 })
}

/**
 * Export the tuning of one configuration (the primary when `configId` is absent or empty) as a Salience user
 * directory archive. An unknown configuration id is ERR_NOT_FOUND (404, as the export's contract says).
 */
export async function exportUserDirectory(account: AccountApi, configId: string | undefined, format: ArchiveFormat): Promise<UserDirectoryArchive> {
  const configurations = await account.listConfigurations()
  const configuration =
    configId === undefined || configId === ''
      ? configurations.find((c) => c.is_primary)
      : configurations.find((c) => c.config_id === configId)
  if (configuration === undefined) fail('ERR_NOT_FOUND', `config_id: no configuration with id ${show(configId)}`, 'config_id')
  const id = configuration.config_id
  let tuning: UserDirectoryTuning
  try {
    const [queries, categories, phrases, entities, blacklist] = await Promise.all([
      account.listTuning('queries', id),
      account.listTuning('categories', id),
      account.listTuning('phrases', id),
      account.listTuning('entities', id),
      account.listTuning('blacklist', id),
    ])
    tuning = {
      queries: queries as Query[],
      categories: categories as Category[],
      phrases: phrases as SentimentPhrase[],
      entities: entities as UserEntity[],
      blacklist: blacklist as BlacklistItem[],
    }
  } catch (e) {
    // Deleted between the two reads.
    if (isEngineError(e) && e.code === 'ERR_UNKNOWN_CONFIGURATION') fail('ERR_NOT_FOUND', `config_id: no configuration with id ${show(id)}`, 'config_id')
    throw e
  }
  const files = userDirectoryFiles(configuration, tuning)
  return {
    filename: `user-directory-${id.replace(/[^A-Za-z0-9._-]/g, '_')}.${format}`,
    contentType: CONTENT_TYPES[format],
    format,
    bytes: packUserDirectory(files, format),
    files,
  }
}
