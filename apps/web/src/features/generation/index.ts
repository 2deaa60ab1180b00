/** What the forms use of the generation flow. */
export type { GenerationTarget } from './api';
export { GenerationStatus } from './generation-status';
export { type Generation, useGeneration } from './use-generation';
