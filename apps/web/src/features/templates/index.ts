/**
 * The template library (docs/architecture.md#document-catalogue): templates, their versions, and the
 * placeholders they may use.
 */
export { PlaceholdersPage } from './placeholders-page';
export { TemplatePage } from './template-page';
export { TemplatesPage } from './templates-page';
