import { ClauseLibrary } from '../clauses/clause-library.js';
import { lintClauseContent } from '../clauses/clause-lint.js';
import { clauseKeysOfTemplate } from '../clauses/clause-placement.js';
import { type ClauseTrialRun, clauseRoutes } from '../routes/clauses.js';
import { notFound } from '../shared/http-error.js';
import type { AppContext } from './app-context.js';

/** Until trying a version on a deal can render, the route answers that there is nothing to try. */
const noClauseTrial: ClauseTrialRun = async () => {
  throw notFound('Das Ausprobieren von Klauseln ist noch nicht verfügbar.');
};

/**
 * The clause library: its routes for legal staff and administrators, its changes audited and its
 * publications told to the webhooks. `trialRun` renders a version on a deal in every document placing it.
 */
export async function registerClauses(
  context: AppContext,
  { trialRun = noClauseTrial }: { trialRun?: ClauseTrialRun } = {},
): Promise<{ clauses: ClauseLibrary }> {
  const clauses = new ClauseLibrary({
    db: context.deps.db,
    audit: context.audit,
    events: context.events,
    lint: lintClauseContent,
    clauseKeysOf: clauseKeysOfTemplate,
  });
  await context.app.register(clauseRoutes, { guards: context.guards, clauses, trial: trialRun });
  return { clauses };
}
