/**
 * Lower-case particles inside personal and place names ("Mohammed bin Salman", "Erik ten Hag", "Ursula von der
 * Leyen", "the Casa do Rio hotel", "Rio de Janeiro"), read where a name may run on across them: the entity
 * extractor, the opinions' speaker spans and the intentions' objects.
 */
export const NAME_PARTICLES: ReadonlySet<string> = new Set([
  'bin', 'ibn', 'bint', 'al', 'el', 'van', 'von', 'der', 'den', 'de', 'du', 'da', 'do', 'di', 'del', 'della', 'la', 'le', 'ten', 'ter', 'dos', 'das',
])
