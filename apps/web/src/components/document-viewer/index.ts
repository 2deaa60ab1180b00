export { DocumentReader, type DocumentReaderProps } from './document-reader';
export { DocumentViewer, type DocumentViewerProps } from './document-viewer';
