/** What other features may use of the match feature: the loaded match, cached by its ID. */
export { matchQueryOptions, useMatch } from './api';
