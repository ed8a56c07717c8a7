/** Possessive determiners ("her passion", "our room"): they open a noun phrase, as an article does. */
export const POSSESSIVE_DETERMINERS: ReadonlySet<string> = new Set(['my', 'your', 'his', 'her', 'its', 'our', 'their'])
