/** The template library: for now, the placeholders a template may use. */
export { PlaceholdersPage } from './placeholders-page';
