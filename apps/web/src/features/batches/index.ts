/** Serien: one document for many deals at once (`/serien`) and one batch with its check and run (`/serien/:batchId`). */
export { BatchPage } from './batch-page';
export { BatchesPage } from './batches-page';
