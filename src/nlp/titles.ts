/**
 * Titles written abbreviated before a name ("Rep. Martin Heinrich", "Gen. Steven Doohen", "Dr. Jones"), lower case,
 * without the full stop. Not "St.", "Mt.", "Ft.": they begin names of places ("St. Louis").
 */
export const ABBREVIATED_TITLES: ReadonlySet<string> = new Set([
  'cmdr', 'col', 'lt', 'gen', 'sgt', 'capt', 'maj', 'adm', 'gov', 'sen', 'sens', 'rep', 'reps', 'supt', 'insp', 'det', 'cpl', 'brig',
  'dr', 'mr', 'mrs', 'ms', 'messrs', 'prof', 'rev', 'fr',
])
