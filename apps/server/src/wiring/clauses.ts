import type { ResolvedMatch } from '@vertragsgenerator/domain';
import { ClauseLibrary } from '../clauses/clause-library.js';
import { lintClauseContent } from '../clauses/clause-lint.js';
import { clauseKeysOfTemplate } from '../clauses/clause-placement.js';
import { clauseTrialRun } from '../clauses/clause-trial.js';
import type { MatchSource } from '../matches/match-source.js';
import { clauseRoutes } from '../routes/clauses.js';
import type { AppContext } from './app-context.js';

export interface ClauseTrialSources {
  matches: MatchSource;
  /** The deal a version is tried on unless the user names another. */
  exampleMatch: () => Promise<ResolvedMatch>;
}

/**
 * The clause library: its routes for legal staff and administrators, its changes audited and its
 * publications told to the webhooks; a version is tried on a deal in every document placing it.
 */
export async function registerClauses(
  context: AppContext,
  trialSources: ClauseTrialSources,
): Promise<{ clauses: ClauseLibrary }> {
  const clauses = new ClauseLibrary({
    db: context.deps.db,
    audit: context.audit,
    events: context.events,
    lint: lintClauseContent,
    clauseKeysOf: clauseKeysOfTemplate,
  });
  const trial = clauseTrialRun({
    library: clauses,
    ...trialSources,
    companyData: context.deps.companyData,
    log: context.app.log,
  });
  await context.app.register(clauseRoutes, { guards: context.guards, clauses, trial });
  return { clauses };
}
