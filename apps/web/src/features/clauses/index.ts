/**
 * The clause library: paragraphs legal keeps once in German and English, versioned, placed into templates
 * by a tag and chosen per document by rules on the deal.
 */
export { ClausePage } from './clause-page';
export { ClausesPage } from './clauses-page';
