/**
 * The HuffPost News Category Dataset's sections (Misra 2022, CC BY 4.0) mapped to IAB Content Taxonomy 3.1 nodes:
 * one table for `bench/build-taxonomy.ts` (corpus words of a node) and `bench/train-categories.ts` (the learned
 * head's tier-1 labels, each node lifted to its tier-1 ancestor).
 */
/**
 * HuffPost news sections -> the IAB 3.1 node (by id) whose name says the same thing. Sections about a readership
 * or a format rather than a subject (U.S. NEWS, WORLD NEWS, WEIRD NEWS, COMEDY, MEDIA, IMPACT, BLACK VOICES,
 * WOMEN, QUEER VOICES, LATINO VOICES, GOOD NEWS, FIFTY) are left out.
 */
export const SECTION_TO_IAB: Readonly<Record<string, string>> = {
  POLITICS: '386', // Politics
  ENTERTAINMENT: 'JLBCU7', // Entertainment
  SPORTS: '483', // Sports
  CRIME: '380', // Crime
  'STYLE & BEAUTY': '552', // Style & Fashion
  STYLE: '552',
  'HOME & LIVING': '274', // Home & Garden
  WELLNESS: '232', // Healthy Living > Wellness
  'HEALTHY LIVING': '223', // Healthy Living
  PARENTING: '192', // Family and Relationships > Parenting
  PARENTS: '192',
  'FOOD & DRINK': '210', // Food & Drink
  TASTE: '210',
  BUSINESS: '52', // Business and Finance
  MONEY: '391', // Personal Finance
  'CULTURE & ARTS': '201', // Fine Art
  'ARTS & CULTURE': '201',
  ARTS: '201',
  TECH: '596', // Technology & Computing
  SCIENCE: '464', // Science
  ENVIRONMENT: '467', // Science > Environment
  GREEN: '467',
  RELIGION: '453', // Religion & Spirituality
  TRAVEL: '653', // Travel
  EDUCATION: '132', // Education
  COLLEGE: '137', // Education > College Education
  WEDDINGS: '165', // Personal Celebrations & Life Events > Wedding
  DIVORCE: '186', // Family and Relationships
}
