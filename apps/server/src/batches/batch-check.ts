import {
  type ApprovalReason,
  type ApprovalRules,
  approvalReasons,
  approvalReasonText,
  type CatalogueEntry,
  checkDataList,
  type DataList,
  dealIssues,
  documentTermsOf,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { matchIdProblem } from '../matches/match-id.js';
import {
  type MatchSource,
  MatchSourceUnavailableError,
  MatchUnreadableError,
} from '../matches/match-source.js';
import { HttpError } from '../shared/http-error.js';
import { type CompanyData, templateDataFor, UnknownSignatoryError } from '../templates/companies.js';
import { type BatchRow, valueColumns } from './batch-input.js';

/** What the check says of one deal. */
export interface CheckedDeal {
  row: BatchRow;
  counterparty: string | null;
  /** The deal's whole dataList as checked: the common values and its own. */
  values: Record<string, unknown>;
  verdict: 'ready' | 'approval' | 'cannot';
  reason: string | null;
}

export interface BatchCheckDeps {
  matches: MatchSource;
  companyData: CompanyData;
  approvalRules: () => Promise<ApprovalRules>;
}

/** The German name of a dataList field in a reason: the file's column where it has one. */
function fieldLabel(entry: CatalogueEntry, field: string): string {
  const labels: Record<string, string> = {
    selectedPerson: 'Unterzeichner',
    position: 'Position',
    projectHours: 'Projektstunden',
    projectDays: 'Projekttage',
    vertragspartner_type: 'Vertragspartner',
    Absender_UserName: 'Absender',
    Absender_Email: 'Absender E-Mail',
  };
  return valueColumns(entry).find((column) => column.field === field)?.label ?? labels[field] ?? field;
}

const counterpartyOf = (entry: CatalogueEntry, match: ResolvedMatch): string | null => {
  if (entry.params.partner === 'k') return match.kunde ?? null;
  const person = [match.candidateFirstName, match.candidateLastName].filter(Boolean).join(' ');
  return match.ppGesellschaft || person || null;
};

/**
 * A deal's dataList and what it says together with the deal, as the single form's generation checks it:
 * the form's schema, the deal (an extension's end after its start), the signatory. Either the dataList
 * or the German reason it cannot be made.
 */
export function checkDeal(
  entry: CatalogueEntry,
  match: ResolvedMatch,
  values: Record<string, unknown>,
  companyData: CompanyData,
): { dataList: DataList } | { reason: string } {
  const checked = checkDataList(entry, { ...values, vertragspartner_type: entry.params.partner });
  const fields = checked.ok ? dealIssues(entry, match, checked.dataList) : checked.fields;
  const problems = Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((message) => `${fieldLabel(entry, field)}: ${message}`),
  );
  if (!checked.ok || problems.length > 0) return { reason: problems.join(' ') };
  try {
    templateDataFor(entry, match, checked.dataList, companyData, new Date());
  } catch (error) {
    if (error instanceof UnknownSignatoryError) return { reason: error.message };
    throw error;
  }
  return { dataList: checked.dataList };
}

/** The reasons the approval rules give for this deal's document, as its values would make it. */
export function approvalReasonsOf(
  entry: CatalogueEntry,
  match: ResolvedMatch,
  dataList: DataList,
  rules: ApprovalRules,
): ApprovalReason[] {
  // An extension with new rates is judged by them.
  const terms = documentTermsOf(entry, match, dataList);
  const subject = { ...match, ek: terms.ek, vk: terms.vk, ek2: terms.ek2, vk2: terms.vk2 };
  return approvalReasons(rules, { match: subject, docKey: entry.key, editedText: false });
}

/**
 * Checks every deal of a batch before anything is made: all deals loaded from the CRM in as few
 * requests as it allows, each one's values validated as its form would, and the approval rules asked.
 * A CRM that cannot answer at all fails the check as a whole (503): nothing is known of any deal.
 */
export async function checkDeals(
  entry: CatalogueEntry,
  common: Record<string, unknown>,
  rows: BatchRow[],
  deps: BatchCheckDeps,
  log: FastifyBaseLogger,
): Promise<CheckedDeal[]> {
  const valid = rows.filter((row) => !matchIdProblem(row.matchId));
  let found: Map<string, ResolvedMatch | undefined | MatchUnreadableError>;
  try {
    found = await deps.matches.findMany(
      valid.map((row) => row.matchId),
      log,
    );
  } catch (error) {
    if (!(error instanceof MatchSourceUnavailableError)) throw error;
    log.error({ err: error }, 'match source unavailable during a batch check');
    throw new HttpError(
      503,
      'unavailable',
      error.userMessage ??
        'Die Matches sind gerade nicht abrufbar. Bitte prüfe die Serie in einem Moment erneut.',
    );
  }
  const rules = await deps.approvalRules();
  return rows.map((row): CheckedDeal => {
    const values = { ...common, ...row.values };
    const cannot = (reason: string, counterparty: string | null = null): CheckedDeal => ({
      row,
      counterparty,
      values,
      verdict: 'cannot',
      reason,
    });
    const idProblem = matchIdProblem(row.matchId);
    if (idProblem) return cannot(`„${row.matchId}“: ${idProblem}`);
    const match = found.get(row.matchId);
    if (match instanceof MatchUnreadableError) return cannot(match.userMessage);
    if (!match) return cannot('Diesen Match gibt es im CRM nicht.');
    const counterparty = counterpartyOf(entry, match);
    const deal = checkDeal(entry, match, values, deps.companyData);
    if ('reason' in deal) return cannot(deal.reason, counterparty);
    const reasons = approvalReasonsOf(entry, match, deal.dataList, rules).map(approvalReasonText);
    return {
      row,
      counterparty,
      values: deal.dataList as Record<string, unknown>,
      verdict: reasons.length > 0 ? 'approval' : 'ready',
      reason: reasons.length > 0 ? reasons.join(' ') : null,
    };
  });
}
