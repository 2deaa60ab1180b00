import {
  CATALOGUE,
  type CatalogueEntry,
  type ClauseTrial,
  keysOfTemplate,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { requireMatch } from '../matches/match-lookup.js';
import type { MatchSource } from '../matches/match-source.js';
import { notFound } from '../shared/http-error.js';
import type { CompanyData } from '../templates/companies.js';
import { sampleTemplateData } from '../templates/samples.js';
import { chooseVariant, variantRules } from './clause-choice.js';
import type { ClauseLibrary } from './clause-library.js';
import { clauseParagraphs } from './clause-preview.js';
import { dealFacts } from './deal-facts.js';

/** A clause version tried on a deal (the named one, else the example deal) in every document placing it. */
export type ClauseTrialRun = (
  key: string,
  version: number,
  matchId: string | undefined,
) => Promise<ClauseTrial>;

export interface ClauseTrialDeps {
  library: ClauseLibrary;
  matches: MatchSource;
  /** The deal a version is tried on unless the user names another. */
  exampleMatch: () => Promise<ResolvedMatch>;
  companyData: CompanyData;
  log: FastifyBaseLogger;
}

/**
 * A clause version tried on a deal before it is published: for every document of the templates placing it
 * — or, while no template does yet, every document of the catalogue — the variant the rules choose, why,
 * and its paragraphs filled with the deal's data as that document's form would fill them.
 */
export function clauseTrialRun(deps: ClauseTrialDeps): ClauseTrialRun {
  return async (key, version, matchId) => {
    const detail = await deps.library.detail(key);
    const tried = detail.versions.find((candidate) => candidate.version === version);
    if (!tried) throw notFound(`Die Klausel „${key}“ hat keine Version ${version}.`);
    const match = matchId ? await requireMatch(deps.matches, matchId, deps.log) : await deps.exampleMatch();
    const clause = { key, name: detail.name, version, content: tried.content };
    const rules = variantRules(tried.content);
    const placing = detail.usedInTemplates.map((use) => use.name);
    const entries: CatalogueEntry[] =
      placing.length > 0 ? placing.flatMap((name) => keysOfTemplate(name)) : [...CATALOGUE.values()];
    const today = new Date();
    return {
      matchId: match.matchId,
      documents: entries.map((entry) => {
        const { choice, variant } = chooseVariant(clause, dealFacts(entry, match), undefined, rules);
        const language = entry.params.language;
        const text = variant === null ? null : (tried.content.variants[variant]?.[language] ?? null);
        return {
          key: entry.key,
          template: entry.template,
          language,
          choice,
          paragraphs: text
            ? clauseParagraphs(text, sampleTemplateData(entry, match, deps.companyData, today))
            : [],
        };
      }),
    };
  };
}
