/**
 * The 28 languages the identifier knows: ISO 639-1 code, English name as the service writes it, and the
 * writing system used to narrow the candidates before any n-gram is scored.
 */

/** Script groups used by the prefilter (Han and kana are told apart: kana means Japanese). */
export type ScriptGroup =
  | 'latin' | 'cyrillic' | 'greek' | 'arabic' | 'hebrew' | 'devanagari' | 'thai' | 'hangul' | 'cjk'

/** One identifiable language. */
export interface LanguageEntry {
  /** ISO 639-1 code, lower case ("en"). */
  readonly code: string
  /** English name as the service reports it ("English"). */
  readonly name: string
  /** The script group its text is written in. */
  readonly script: ScriptGroup
}

const entry = (code: string, name: string, script: ScriptGroup): LanguageEntry => Object.freeze({ code, name, script })

/** ISO 639-1 code <-> English name for every language the identifier knows, ordered by code. */
export const LANGUAGES: readonly LanguageEntry[] = Object.freeze([
  entry('ar', 'Arabic', 'arabic'),
  entry('cs', 'Czech', 'latin'),
  entry('da', 'Danish', 'latin'),
  entry('de', 'German', 'latin'),
  entry('el', 'Greek', 'greek'),
  entry('en', 'English', 'latin'),
  entry('es', 'Spanish', 'latin'),
  entry('fa', 'Persian', 'arabic'),
  entry('fi', 'Finnish', 'latin'),
  entry('fr', 'French', 'latin'),
  entry('he', 'Hebrew', 'hebrew'),
  entry('hi', 'Hindi', 'devanagari'),
  entry('hu', 'Hungarian', 'latin'),
  entry('id', 'Indonesian', 'latin'),
  entry('it', 'Italian', 'latin'),
  entry('ja', 'Japanese', 'cjk'),
  entry('ko', 'Korean', 'hangul'),
  entry('nl', 'Dutch', 'latin'),
  entry('pl', 'Polish', 'latin'),
  entry('pt', 'Portuguese', 'latin'),
  entry('ro', 'Romanian', 'latin'),
  entry('ru', 'Russian', 'cyrillic'),
  entry('sv', 'Swedish', 'latin'),
  entry('th', 'Thai', 'thai'),
  entry('tr', 'Turkish', 'latin'),
  entry('uk', 'Ukrainian', 'cyrillic'),
  entry('vi', 'Vietnamese', 'latin'),
  entry('zh', 'Chinese', 'cjk'),
])

/** The language with this ISO 639-1 code or English name (case-insensitive), or undefined. */
export function findLanguageEntry(codeOrName: string): LanguageEntry | undefined {
  const key = codeOrName.trim().toLowerCase()
  return LANGUAGES.find((l) => l.code === key || l.name.toLowerCase() === key)
}
