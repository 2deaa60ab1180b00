export { DocxFirstView } from './docx-first-view';
export { loadFirstViewRenderer } from './load-first-view';
