export { DocumentViewer, type DocumentViewerProps } from './document-viewer';
