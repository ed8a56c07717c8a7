import { describe, expect, it } from 'vitest'
import { createAnnotator } from '../../src/nlp/annotate.ts'
import { createEntityExtractor } from '../../src/entities/extract.ts'

// Products the lexicon does not list, found by their model code or after a brand's possessive (issue 16), and
// product names that go on in running text. Texts outside the development sets.
const annotator = createAnnotator()
const extractor = createEntityExtractor()
const NAMED = ['Person', 'Company', 'Place', 'Product']
const typed = (text: string): string[] =>
  extractor.extract(annotator.annotate(text)).filter((e) => NAMED.includes(e.entity_type)).map((e) => `${e.entity_type}:${e.title}`)

describe('products by their model code', () => {
  it('finds a code that a brand, a determiner or a kind of product marks', () => {
    expect(typed('Lucid Recalls 3,000 G2X SUVs Over Brake Fault')).toContain('Product:G2X')
    expect(typed("Panasonic's HZ2000 is the brightest set we tested.")).toEqual(['Company:Panasonic', 'Product:HZ2000'])
    expect(typed('We drove the EX90 for a week.')).toContain('Product:EX90')
    expect(typed('Qualcomm Ships X85 Modems To Handset Makers')).toContain('Product:X85')
  })

  it('leaves the codes of news that are no product alone', () => {
    for (const text of ['COVID-19 cases rose after the G20 summit.', 'Traffic on the M25 was slow.', 'COP28 opened in Dubai.', 'The FY2024 results beat Q3 forecasts.', 'H5N1 spread to dairy herds.']) {
      expect(typed(text).filter((e) => e.startsWith('Product:'))).toEqual([])
    }
    // A code with nothing marking it as a product is not one either.
    expect(typed('Flight BA286 landed at noon.').filter((e) => e.startsWith('Product:'))).toEqual([])
  })

  it('takes a model word after a brand possessive, and the brand as a company', () => {
    expect(typed("Bose's QuietComfort Ultra is still the quietest.")).toEqual(['Company:Bose', 'Product:QuietComfort Ultra'])
  })
})

describe('product names in running text', () => {
  it('go on over the capitalised words after them, but not in a headline', () => {
    expect(typed('The Kindle Scribe is the best e-reader for notes.')).toContain('Product:Kindle Scribe')
    expect(typed('Amazon Cuts Price Of Kindle As Sales Slow')).toContain('Product:Kindle')
    expect(typed('Sales of the iPhone in Europe fell.')).toContain('Product:iPhone')
  })
})

describe('product names in text written all in lower case', () => {
  it('are found with a model number after them, or when written with an inner capital', () => {
    expect(typed('just got the new galaxy s24 ultra and the battery is great')).toContain('Product:Galaxy s24 ultra')
    expect(typed('my ipad keeps freezing since the update')).toContain('Product:iPad')
    // Without a model number, a product word that is also an everyday word is not a product.
    expect(typed('the picture is 12 pixel wide and the echo was loud').filter((e) => e.startsWith('Product:'))).toEqual([])
  })
})
