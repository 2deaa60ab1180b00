import {
  type ContractRecord,
  catalogueEntry,
  describeNoticeRule,
  isLegal,
  type NoticeRuleChange,
  type SignedElsewhere,
} from '@vertragsgenerator/domain';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { looksLikePdf } from '../documents/pdf-file.js';
import { HttpError, notFound } from '../shared/http-error.js';
import { sha256Hex } from '../shared/sha256.js';
import { chainOf } from './contract-chain.js';
import {
  type ContractReader,
  contractRow,
  ROW_COLUMNS,
  readsEveryContract,
  statusSql,
  todayIso,
} from './contract-queries.js';
import { insertContractRecord, type Recording } from './contract-recorder.js';
import { contractKindOf, noticeDeadline } from './contract-terms.js';

const CONTRACT_NOT_FOUND = 'Diesen Vertrag gibt es nicht, oder du darfst ihn nicht sehen.';

/** A reader of records who may also change them: legal staff set notice rules and record uploads. */
export interface ContractEditor extends ContractReader {
  email: string;
}

/**
 * One record as its page shows it (chain, source, history), legal's notice rule set by hand, and a final
 * document marked as signed elsewhere.
 */
export class ContractRecords {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly recording: Recording,
  ) {}

  /** The record with its chain; 404 for an unknown id and for a record the reader may not see. */
  async get(reader: ContractReader, id: string, now: Date): Promise<ContractRecord> {
    const today = todayIso(now);
    const record = await this.db
      .selectFrom('contract_records as c')
      .leftJoin('documents as d', 'd.id', 'c.document_id')
      .select([
        ...ROW_COLUMNS,
        statusSql(today).as('status'),
        'c.parties',
        'c.notice_problem',
        'c.date_problem',
        'c.rate_remote',
        'c.rate_onsite',
        'c.hours_per_week',
        'c.source_kind',
        'c.document_id',
        'c.document_version',
        'c.envelope_id',
        'c.signed_by',
        'd.file_name',
        'd.clauses',
      ])
      .where('c.id', '=', id)
      .executeTakeFirst();
    if (!record || !mayRead(reader, record.consultant)) throw notFound(CONTRACT_NOT_FOUND);
    const links = await chainOf(this.db, id);
    const linked = await this.db
      .selectFrom('contract_records as c')
      .select([...ROW_COLUMNS, statusSql(today).as('status'), 'c.relation'])
      .where(
        'c.id',
        'in',
        links.map((link) => link.id),
      )
      .execute();
    const byId = new Map(linked.map((row) => [row.id, row]));
    const history = await this.db
      .selectFrom('contract_events')
      .select(['at', 'type', 'actor', 'detail'])
      .where('contract_id', '=', id)
      .orderBy('at')
      .orderBy('id')
      .execute();
    const negotiation = await this.db
      .selectFrom('reviews as r')
      .leftJoin('review_rounds as o', (join) =>
        join.onRef('o.review_id', '=', 'r.id').on('o.state', '!=', 'withdrawn'),
      )
      .select((eb) => ['r.agreed_at', eb.fn.count<string>('o.id').as('rounds')])
      .where('r.document_id', '=', record.document_id)
      .groupBy('r.agreed_at')
      .executeTakeFirst();
    const held = record.clauses ?? [];
    const library = new Map(
      held.length === 0
        ? []
        : (
            await this.db
              .selectFrom('clauses')
              .select(['key', 'name', 'published_version'])
              .where(
                'key',
                'in',
                held.map((clause) => clause.key),
              )
              .execute()
          ).map((row) => [row.key, row]),
    );
    return {
      ...contractRow(record),
      parties: record.parties,
      // A clause deleted from the library since is still named by its key.
      clauses: held.map((clause) => {
        const current = library.get(clause.key);
        return {
          key: clause.key,
          name: current?.name ?? clause.key,
          version: clause.version,
          variant: clause.variant,
          outdated: (current?.published_version ?? 0) > clause.version,
        };
      }),
      negotiation: negotiation
        ? { rounds: Number(negotiation.rounds), agreedAt: negotiation.agreed_at?.toISOString() ?? null }
        : null,
      noticeProblem: record.notice_problem,
      dateProblem: record.date_problem,
      rates: {
        remote: record.rate_remote,
        onsite: record.rate_onsite,
        hoursPerWeek: record.hours_per_week,
      },
      source: {
        kind: record.source_kind,
        documentId: record.document_id,
        documentVersion: record.document_version,
        fileName: record.file_name ?? null,
        envelopeId: record.envelope_id,
        signedBy: record.signed_by,
      },
      // A consultant sees the chain's records of their own deals; the others' are left out.
      chain: links.flatMap((link) => {
        const row = byId.get(link.id);
        if (!row || !mayRead(reader, row.consultant)) return [];
        return [{ ...contractRow(row), relation: link.parentId ? row.relation : null, depth: link.depth }];
      }),
      history: history.map((entry) => ({
        at: entry.at.toISOString(),
        type: entry.type,
        actor: entry.actor,
        detail: entry.detail,
      })),
      maySetNoticeRule: isLegal(reader.permission),
    };
  }

  /** Legal sets the notice rule by hand (a text the rules could not read, or a correction), audited. */
  async setNoticeRule(editor: ContractEditor, id: string, change: NoticeRuleChange): Promise<void> {
    const { rule } = change;
    await this.db.transaction().execute(async (trx) => {
      const record = await trx
        .selectFrom('contract_records')
        .select(['id', 'end_date', 'notice_rule', 'match_id'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!record) throw notFound(CONTRACT_NOT_FOUND);
      await trx
        .updateTable('contract_records')
        .set({
          notice_rule: JSON.stringify(rule),
          notice_rule_source: 'manual',
          last_notice_day: noticeDeadline(rule, record.end_date),
        })
        .where('id', '=', id)
        .execute();
      const described = describeNoticeRule(rule);
      await trx
        .insertInto('contract_events')
        .values({
          contract_id: id,
          type: 'notice_rule_set',
          actor: editor.email,
          detail: `${described} — ${change.reason}`,
        })
        .execute();
      await this.audit.record(
        {
          actor: editor.email,
          action: 'contract.notice-rule',
          subject: `${record.match_id} (${id})`,
          oldValue: record.notice_rule ? describeNoticeRule(record.notice_rule) : null,
          newValue: `${described} — ${change.reason}`,
        },
        trx,
      );
    });
  }

  /**
   * A final document legal marks as signed elsewhere, with the signed PDF: becomes a contract record
   * like a completed envelope. The PDF is checked before anything is stored; a second upload for the
   * same document version is a 409, as is a document that makes no contract (an offer).
   */
  async recordSignedElsewhere(
    editor: ContractEditor,
    documentId: string,
    signed: SignedElsewhere,
    pdf: Uint8Array,
  ): Promise<string> {
    if (pdf.byteLength === 0) throw new HttpError(400, 'empty_file', 'Die Datei ist leer.');
    if (!looksLikePdf(pdf))
      throw new HttpError(
        422,
        'not_pdf',
        'Diese Datei ist kein PDF. Lade das unterschriebene Dokument als PDF hoch.',
      );
    const signedAt = new Date(`${signed.signedOn}T12:00:00Z`);
    if (signedAt.getTime() > Date.now() + 24 * 60 * 60 * 1000)
      throw new HttpError(400, 'invalid_input', 'Das Datum der Unterschrift liegt in der Zukunft.', {
        signedOn: ['Das Datum der Unterschrift liegt in der Zukunft.'],
      });
    return this.db.transaction().execute(async (trx) => {
      const document = await trx
        .selectFrom('documents')
        .leftJoin(
          (qb) =>
            qb
              .selectFrom('document_versions')
              .select(['document_id', (eb) => eb.fn.max('version').as('latest')])
              .groupBy('document_id')
              .as('v'),
          (join) => join.onRef('v.document_id', '=', 'documents.id'),
        )
        .select(['documents.id', 'documents.match_id', 'documents.doc_key', 'documents.status', 'v.latest'])
        .where('documents.id', '=', documentId)
        .executeTakeFirst();
      if (!document) throw notFound('Dieses Dokument gibt es nicht.');
      const entry = catalogueEntry(document.doc_key);
      if (!entry || !contractKindOf(entry))
        throw new HttpError(
          409,
          'not_a_contract',
          'Dieses Dokument ist kein Vertrag (ein Angebot wird nicht erfasst).',
        );
      if (document.status !== 'ready' || document.latest == null)
        throw new HttpError(409, 'document_not_ready', 'Dieses Dokument wurde nicht fertig erzeugt.');
      const id = await insertContractRecord(
        trx,
        {
          sourceKind: 'signed_elsewhere',
          envelopeId: null,
          documentId: document.id,
          documentVersion: Number(document.latest),
          matchId: document.match_id,
          docKey: document.doc_key,
          signedAt,
          signedBy: signed.signedBy,
          signedPdf: { content: pdf, sha256: sha256Hex(pdf) },
          actor: editor.email,
        },
        this.recording,
      );
      if (!id)
        throw new HttpError(
          409,
          'already_recorded',
          'Diese Fassung des Dokuments ist schon als unterschrieben erfasst. Öffne den Vertrag unter Verträge.',
        );
      await this.audit.record(
        {
          actor: editor.email,
          action: 'contract.signed-elsewhere',
          subject: `${document.match_id} (${document.id})`,
          newValue: `${signed.signedOn}, ${signed.signedBy}`,
        },
        trx,
      );
      return id;
    });
  }
}

function mayRead(reader: ContractReader, consultant: string): boolean {
  return readsEveryContract(reader) || consultant.trim().toLowerCase() === reader.name.trim().toLowerCase();
}
