export { DocxFirstView } from './docx-first-view';
export { preloadFirstViewRenderer } from './load-first-view';
