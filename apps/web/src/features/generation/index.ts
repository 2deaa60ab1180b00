/** What the app composes of the generation flow: it goes above each form page. */
export type { GeneratedFile } from './api';
export { DocumentGeneration } from './document-generation';
export type { HandOverDocument } from './use-generation';
