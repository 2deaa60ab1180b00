import { type ComponentType, createContext, useContext } from 'react';

type MatchDocumentsComponent = ComponentType<{ matchId: string }>;

const MatchDocumentsContext = createContext<MatchDocumentsComponent | null>(null);

/**
 * The app names what lists a match's documents (the history feature), so that the start page and the
 * forms can show it without importing another feature.
 */
export const MatchDocumentsProvider = MatchDocumentsContext.Provider;

/** The document history of a match, where the app provides one; nothing otherwise. */
export function MatchDocuments({ matchId }: { matchId: string }) {
  const Component = useContext(MatchDocumentsContext);
  return Component ? <Component matchId={matchId} /> : null;
}
