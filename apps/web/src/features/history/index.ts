/** What the app composes of the history feature: the documents of a match. */
export { MatchHistory } from './match-history';
