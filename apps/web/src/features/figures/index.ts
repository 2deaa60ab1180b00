/** Auswertung (`/auswertung`): the figures of the contract work as charts, each with its numbers as a table. */
export { FiguresPage } from './figures-page';
