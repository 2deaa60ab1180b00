/**
 * Owns why a document needs approval: the deal's margin per channel from the match's rates, and the
 * reasons the rules give for a document, as data and in German.
 */
import { z } from 'zod';
import { APPROVAL_COMPANY_LABELS, type ApprovalRules, approvalDocumentTypeLabel } from './approval-rules.js';
import { CATALOGUE, COMPANIES } from './documents/catalogue.js';
import { formatGermanNumber, parseGermanNumber } from './format.js';
import { type FieldValue, isMissing, MATCH_FALLBACKS, type MatchNumericField } from './match.js';

// ---------------------------------------------------------------------------------------------------
// The deal's margin
// ---------------------------------------------------------------------------------------------------

export const MARGIN_CHANNELS = ['remote', 'onsite'] as const;
export type MarginChannel = (typeof MARGIN_CHANNELS)[number];

/** Which match fields give a channel's selling (VK) and buying (EK) rate. */
export const MARGIN_FIELDS = {
  remote: { vk: 'vk', ek: 'ek' },
  onsite: { vk: 'vk2', ek: 'ek2' },
} as const satisfies Record<MarginChannel, { vk: MatchNumericField; ek: MatchNumericField }>;

/** A match record or a resolved match: the rates and, for a record, their fallback fields. */
export type MarginSource = Partial<Record<MatchNumericField, FieldValue>>;

export type Margin =
  /** `percent`: (VK − EK) ÷ VK × 100. */
  | { status: 'ok'; percent: number; vk: number; ek: number }
  /** VK or EK absent or not a number. */
  | { status: 'missing' }
  /** Neither VK nor EK given: the deal has no such part (a remote-only deal has no onsite rates). */
  | { status: 'none' }
  /** VK is 0 or negative: no margin can be computed. */
  | { status: 'invalid' };

function rate(
  match: MarginSource,
  field: keyof typeof MATCH_FALLBACKS & MatchNumericField,
): number | undefined {
  const primary = match[field];
  const value = isMissing(primary) ? match[MATCH_FALLBACKS[field]] : primary;
  return isMissing(value) ? undefined : parseGermanNumber(value);
}

/** The deal's margin of one channel, with the fallbacks of match.ts applied (vk ← tagessatzRemote, …). */
export function dealMargin(match: MarginSource, channel: MarginChannel): Margin {
  const fields = MARGIN_FIELDS[channel];
  const vk = rate(match, fields.vk);
  const ek = rate(match, fields.ek);
  if (vk === undefined && ek === undefined) return { status: 'none' };
  if (vk === undefined || ek === undefined) return { status: 'missing' };
  if (vk <= 0) return { status: 'invalid' };
  return { status: 'ok', percent: ((vk - ek) / vk) * 100, vk, ek };
}

// ---------------------------------------------------------------------------------------------------
// Reasons
// ---------------------------------------------------------------------------------------------------

/** Why a document needs approval, as data; `approvalReasonText` words it. */
export const approvalReasonSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('margin'),
    channel: z.enum(MARGIN_CHANNELS),
    company: z.enum(COMPANIES),
    /** The company's threshold in percent at the time of the check. */
    threshold: z.number(),
    /** The margin in percent; null when it could not be computed (see `problem`). */
    percent: z.number().nullable(),
    /** `missing`: VK or EK not given; `invalid`: VK is 0 or negative. */
    problem: z.enum(['missing', 'invalid']).nullable(),
  }),
  z.object({ kind: z.literal('edited_text') }),
  z.object({
    kind: z.literal('marked_paragraph'),
    /** The mark's name as the template names it, e.g. „Haftung“. */
    label: z.string(),
  }),
  z.object({
    kind: z.literal('document_type'),
    /** The rule's entry that matched: a family or a catalogue key. */
    documentType: z.string(),
  }),
]);
export type ApprovalReason = z.infer<typeof approvalReasonSchema>;

/** A margin shown in a sentence: cut (not rounded) to two decimals, so that 14,999 % never reads as 15 %. */
function percentText(percent: number): string {
  return `${formatGermanNumber(Math.floor(percent * 100 + 1e-9) / 100)} %`;
}

/**
 * The reason in German, e.g. „Marge remote 12,4 % liegt unter 15 % (WM)“, „Marge onsite fehlt (VK oder
 * EK nicht angegeben)“, „Text nach der Erstellung geändert“, „Dokumenttyp Kündigung braucht immer eine
 * Freigabe“.
 */
export function approvalReasonText(reason: ApprovalReason): string {
  switch (reason.kind) {
    case 'margin':
      if (reason.problem === 'missing' || reason.percent === null)
        return `Marge ${reason.channel} fehlt (VK oder EK nicht angegeben)`;
      if (reason.problem === 'invalid') return `Marge ${reason.channel} nicht berechenbar (VK ist 0)`;
      return `Marge ${reason.channel} ${percentText(reason.percent)} liegt unter ${formatGermanNumber(
        reason.threshold,
      )} % (${APPROVAL_COMPANY_LABELS[reason.company]})`;
    case 'edited_text':
      return 'Text nach der Erstellung geändert';
    case 'marked_paragraph':
      return `Absatz „${reason.label}“ geändert (braucht bei Änderung eine Freigabe)`;
    case 'document_type':
      return `Dokumenttyp ${approvalDocumentTypeLabel(reason.documentType)} braucht immer eine Freigabe`;
  }
}

/** What a document is checked by: its match's rates, its catalogue key, and whether its text was edited. */
export interface ApprovalSubject {
  match: MarginSource;
  docKey: string;
  editedText: boolean;
  /** The marks of the template whose paragraphs differ from what was generated (their labels). */
  changedMarks?: readonly string[];
}

/** The reasons the rules give for a document; empty when it may be sent without approval. */
export function approvalReasons(rules: ApprovalRules, subject: ApprovalSubject): ApprovalReason[] {
  const reasons: ApprovalReason[] = [];
  const entry = CATALOGUE.get(subject.docKey);
  // A termination ends the deal: its margin is no reason to hold the letter back (the document-type
  // rule is there for terminations that should be looked at).
  if (rules.margin.enabled && entry && entry.params.family !== 'termination') {
    const company = entry.params.company;
    const threshold = rules.margin.thresholds[company];
    const margins = MARGIN_CHANNELS.map((channel) => ({
      channel,
      margin: dealMargin(subject.match, channel),
    }));
    // A channel without any rate is not part of the deal; a deal without any rate at all is a reason.
    const withoutRates = margins.every(({ margin }) => margin.status === 'none');
    for (const { channel, margin } of margins) {
      if (margin.status === 'none') {
        if (withoutRates && channel === 'remote')
          reasons.push({ kind: 'margin', channel, company, threshold, percent: null, problem: 'missing' });
      } else if (margin.status === 'ok') {
        if (margin.percent < threshold)
          reasons.push({
            kind: 'margin',
            channel,
            company,
            threshold,
            percent: margin.percent,
            problem: null,
          });
      } else {
        reasons.push({ kind: 'margin', channel, company, threshold, percent: null, problem: margin.status });
      }
    }
  }
  if (rules.editedText && subject.editedText) reasons.push({ kind: 'edited_text' });
  if (rules.markedParagraphs)
    for (const label of new Set(subject.changedMarks ?? []))
      reasons.push({ kind: 'marked_paragraph', label });
  const family = entry?.params.family;
  const matched = rules.documentTypes.find((type) => type === subject.docKey || type === family);
  if (matched !== undefined) reasons.push({ kind: 'document_type', documentType: matched });
  return reasons;
}
