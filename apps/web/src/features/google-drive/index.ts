/** Google Docs as the document editor (`editor: google`). */
export type { DriveFile } from './drive-api';
export { type GoogleDocsHandOver, type GoogleDocsHandOverDeps, handOverToGoogleDocs } from './hand-over';
export { useDriveTokenMonitor } from './token-monitor';
export { useGoogleDocsHandOver } from './use-google-docs-hand-over';
