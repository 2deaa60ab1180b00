/** /pruefen: whether a PDF is an unchanged sealed document of ours. */
export { SealCheckPage } from './seal-check-page';
