import {
  type ApprovalReason,
  type ApprovalRules,
  addWorkingDays,
  approvalReasons,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { findMatch } from '../matches/match-lookup.js';
import type { MatchSource } from '../matches/match-source.js';
import { HttpError, notFound } from '../shared/http-error.js';
import type { Executor } from '../signature/envelopes-repository.js';
import { bodyParagraphs } from '../templates/paragraph-diff.js';
import type { TemplateMarksStore } from '../templates/template-marks.js';

/** Asking for an approval of a deal the CRM no longer knows: its margin cannot be checked. */
export const matchUnknown = (matchId: string) =>
  new HttpError(
    422,
    'match_unknown',
    `Das Match ${matchId} gibt es im CRM nicht mehr. Ohne das Match lässt sich die Marge nicht prüfen; bitte kläre den Deal im CRM.`,
  );

/**
 * The columns every new request shares, an envelope's or a document's: what it is for, who asks, by which
 * rules. `escalated`: everyone the rules name was mailed at once, as the first group in turn has nobody
 * but the requester (addresseesOfNewRequest); then every group may decide from the start, and the
 * escalation mail is not sent again.
 */
export function newRequestColumns(
  evaluated: Pick<
    EvaluatedDocument,
    'documentVersion' | 'documentSha256' | 'matchId' | 'docKey' | 'fileName' | 'customer' | 'reasons'
  >,
  rules: ApprovalRules,
  user: { email: string; name: string },
  now: Date,
  escalated = false,
) {
  const escalates = rules.approvers.order.length > 1;
  return {
    document_version: evaluated.documentVersion,
    document_sha256: evaluated.documentSha256,
    match_id: evaluated.matchId,
    doc_key: evaluated.docKey,
    file_name: evaluated.fileName,
    customer: evaluated.customer,
    requested_by: user.email,
    requested_by_name: user.name,
    requested_at: now,
    reasons: JSON.stringify(evaluated.reasons),
    rules: JSON.stringify(rules),
    escalates_at: !escalates
      ? null
      : escalated
        ? now
        : addWorkingDays(now, rules.approvers.escalationWorkingDays),
    escalation_mailed_at: escalates && escalated ? now : null,
  };
}

/** What the rules are applied to: an envelope's document as it is now. */
export interface EvaluatedDocument {
  envelopeId: string;
  envelopeStatus: string;
  documentId: string;
  /** The document's latest version: what the draft envelope carries once it is sent. */
  documentVersion: number;
  documentSha256: string;
  matchId: string;
  docKey: string;
  fileName: string;
  customer: string;
  createdBy: string;
  provider: 'builtin' | 'docusign';
  /** DocuSign's id once the envelope exists there; null for built-in signing and a held DocuSign draft. */
  externalId: string | null;
  /** The CRM (or the match store) still knows the match. */
  matchFound: boolean;
  editedText: boolean;
  reasons: ApprovalReason[];
}

/** What the rules are applied to for a document downloaded rather than signed: one of its versions. */
export interface EvaluatedStoredDocument {
  documentId: string;
  documentVersion: number;
  documentSha256: string;
  matchId: string;
  docKey: string;
  fileName: string;
  customer: string;
  createdBy: string;
  /** Not of a family sent for signature: only such a document is approved for its download. */
  final: boolean;
  matchFound: boolean;
  editedText: boolean;
  reasons: ApprovalReason[];
}

const silentLog = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  fatal() {},
  child() {
    return silentLog;
  },
  level: 'silent',
  silent() {},
} as unknown as FastifyBaseLogger;

/**
 * Applies the rules to an envelope's document, on the server: the deal's margin from the match as the
 * CRM has it now, edited text (the latest version's body text differs from the generated version 1's —
 * a template change makes no version, so it is no edit), and the document type.
 */
export class ApprovalEvaluation {
  constructor(
    private readonly db: Db,
    private readonly matches: MatchSource,
    /** Which marked paragraphs an edit changed (the rule `markedParagraphs`); absent: none are read. */
    private readonly marks?: Pick<TemplateMarksStore, 'changedMarks'>,
  ) {}

  /** The document's latest version; never older than what the envelope carries. */
  async latestVersion(documentId: string, executor: Executor = this.db) {
    return executor
      .selectFrom('document_versions')
      .select(['version', 'sha256'])
      .where('document_id', '=', documentId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
  }

  async evaluate(envelopeId: string, rules: ApprovalRules, log: FastifyBaseLogger = silentLog) {
    const envelope = await this.db
      .selectFrom('envelopes')
      .innerJoin('documents', 'documents.id', 'envelopes.document_id')
      .select([
        'envelopes.id',
        'envelopes.status',
        'envelopes.document_id',
        'envelopes.match_id',
        'envelopes.doc_key',
        'envelopes.customer',
        'envelopes.created_by',
        'envelopes.provider',
        'envelopes.external_id',
        'documents.file_name',
      ])
      .where('envelopes.id', '=', envelopeId)
      .executeTakeFirst();
    if (!envelope) throw notFound('Diesen Umschlag gibt es nicht.');
    const latest = await this.latestVersion(envelope.document_id);
    const { editedText, matchFound, reasons } = await this.reasonsFor(
      { documentId: envelope.document_id, version: latest.version, matchId: envelope.match_id },
      envelope.doc_key,
      rules,
      log,
    );
    return {
      envelopeId: envelope.id,
      envelopeStatus: envelope.status,
      documentId: envelope.document_id,
      documentVersion: latest.version,
      documentSha256: latest.sha256,
      matchId: envelope.match_id,
      docKey: envelope.doc_key,
      fileName: envelope.file_name,
      customer: envelope.customer,
      createdBy: envelope.created_by,
      provider: envelope.provider,
      externalId: envelope.external_id,
      matchFound,
      editedText,
      reasons,
    } satisfies EvaluatedDocument;
  }

  /**
   * The rules applied to one version of a stored document that is downloaded rather than signed (the
   * latest without `version`); undefined for an unknown document or version.
   */
  async evaluateDocument(
    documentId: string,
    rules: ApprovalRules,
    log: FastifyBaseLogger = silentLog,
    version?: number,
  ): Promise<EvaluatedStoredDocument | undefined> {
    const document = await this.db
      .selectFrom('documents')
      .select(['id', 'match_id', 'doc_key', 'form', 'file_name', 'created_by', 'data'])
      .where('id', '=', documentId)
      .executeTakeFirst();
    if (!document) return undefined;
    const chosen = await this.db
      .selectFrom('document_versions')
      .select(['version', 'sha256'])
      .where('document_id', '=', documentId)
      .$if(version !== undefined, (q) => q.where('version', '=', version ?? 0))
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!chosen) return undefined;
    const evaluated = await this.reasonsFor(
      { documentId, version: chosen.version, matchId: document.match_id },
      document.doc_key,
      rules,
      log,
    );
    const customer = (document.data as Record<string, unknown> | null)?.kunde;
    return {
      documentId,
      documentVersion: chosen.version,
      documentSha256: chosen.sha256,
      matchId: document.match_id,
      docKey: document.doc_key,
      fileName: document.file_name,
      customer: typeof customer === 'string' ? customer : '',
      createdBy: document.created_by,
      // Its envelope is what gets approved for a family sent for signature.
      final: document.form !== 'docusign',
      ...evaluated,
    };
  }

  private async reasonsFor(
    subject: { documentId: string; version: number; matchId: string },
    docKey: string,
    rules: ApprovalRules,
    log: FastifyBaseLogger,
  ) {
    const { editedText, changedMarks } = await this.textChanges(subject.documentId, subject.version, rules);
    const match = rules.margin.enabled ? await findMatch(this.matches, subject.matchId, log) : undefined;
    const matchFound = !rules.margin.enabled || match !== undefined;
    const reasons = approvalReasons(rules, { match: match ?? {}, docKey, editedText, changedMarks });
    return { editedText, matchFound, reasons };
  }

  /**
   * Whether `version`'s body text differs from the generated version 1's (`editedText`), and the labels
   * of its marked paragraphs (its template's and its clauses') that the edit changed or removed.
   */
  private async textChanges(
    documentId: string,
    version: number,
    rules: ApprovalRules,
  ): Promise<{ editedText: boolean; changedMarks: string[] }> {
    const none = { editedText: false, changedMarks: [] };
    if (version <= 1 || (!rules.editedText && !rules.markedParagraphs)) return none;
    const rows = await this.db
      .selectFrom('document_versions')
      .select(['version', 'content'])
      .where('document_id', '=', documentId)
      .where('version', 'in', [1, version])
      .execute();
    const generated = rows.find((r) => r.version === 1);
    const current = rows.find((r) => r.version === version);
    if (!generated || !current) return none;
    const before = paragraphsOf(generated.content);
    const after = paragraphsOf(current.content);
    const edited = before.join('\n') !== after.join('\n');
    if (!edited || !rules.markedParagraphs || !this.marks)
      return { editedText: rules.editedText && edited, changedMarks: [] };
    const changedMarks = await this.marks.changedMarks(documentId, before, after);
    return { editedText: rules.editedText && edited, changedMarks };
  }
}

/** A DOCX that cannot be read has no paragraphs: then any readable version differs from it. */
export function paragraphsOf(content: Uint8Array): string[] {
  try {
    return bodyParagraphs(content);
  } catch {
    return [];
  }
}
