import {
  type CatalogueEntry,
  type EsignatureDataList,
  recipientsFromDataList,
  type SendEnvelopeRequest,
  type TemplateData,
} from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { GeneratedDocument } from '../documents/document-generator.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import { sha256Hex } from '../shared/sha256.js';
import type { ApprovedSender } from '../signature/approval-gate.js';
import type { Actor, EnvelopesRepository } from '../signature/envelopes-repository.js';

type Executor = Kysely<Database>;

/** DocuSign's limit for an e-mail subject, kept for both providers: the batch's envelopes look alike. */
const SUBJECT_MAX = 100;

export interface BatchEnvelopesDeps {
  db: Db;
  envelopes: EnvelopesRepository;
  /** Sends a draft in the starter's name: built-in signing, or DocuSign's send of a held draft. */
  sender: ApprovedSender;
  provider: 'builtin' | 'docusign';
  outbox: Pick<MailOutbox, 'spread' | 'deliverSoon'>;
  /** BATCH_INVITATIONS_PER_MINUTE: the pace a batch's invitations are mailed at. */
  invitationsPerMinute: number;
}

/** How a batch sends: who countersigns, and the message every signer reads. */
export interface BatchSending {
  countersignatory: string | null;
  message: string;
}

/** The deal's envelope as the batch made it, and the send its starter asked for. */
export interface DealEnvelope {
  envelopeId: string;
  sendRequest: SendEnvelopeRequest;
  document: { id: string; sha256: string; fileName: string };
  customer: string;
}

/**
 * A batch's envelopes: one per deal, a draft recorded first under the deal's own request key (so a
 * deal tried again finds its envelope instead of making a second), then sent in the starter's name with
 * the batch's countersignatory — or held for Freigabe. Signing's own send does the rest: the gate, the
 * countersigner's check, the invitations (built-in) or DocuSign's envelope. Built-in invitations are
 * spread at the batch's pace, so that a mail server does not throttle a thousand at once.
 */
export class BatchEnvelopes {
  constructor(private readonly deps: BatchEnvelopesDeps) {}

  /** The deal's draft, made once whatever is retried. */
  async draft(
    item: { id: string; match_id: string },
    batch: { doc_key: string; created_by: string; created_by_name: string },
    entry: CatalogueEntry,
    sending: BatchSending,
    generated: GeneratedDocument,
    dataList: EsignatureDataList,
    data: TemplateData,
  ): Promise<DealEnvelope> {
    const sender = {
      name: dataList.Absender_UserName ?? batch.created_by_name,
      email: dataList.Absender_Email ?? batch.created_by,
    };
    const sendRequest: SendEnvelopeRequest = {
      subject: `Bitte unterschreiben: ${generated.fileName.replace(/\.docx$/i, '')}`.slice(0, SUBJECT_MAX),
      message: sending.message,
      recipients: recipientsFromDataList(dataList),
      countersignatory: sending.countersignatory,
    };
    const sha256 = sha256Hex(generated.content);
    const customer = typeof data.kunde === 'string' ? data.kunde : '';
    const { id } = await this.deps.envelopes.create({
      documentId: generated.id,
      documentVersion: 1,
      documentSha256: sha256,
      matchId: item.match_id,
      customer,
      docKey: entry.key,
      provider: this.deps.provider,
      subject: sendRequest.subject,
      message: sendRequest.message,
      sender,
      recipients: sendRequest.recipients,
      createdBy: starterActor(batch.created_by),
      // The deal's own key: a second try of the deal finds this envelope (envelopes are unique per key).
      requestKey: `batch-${item.id}`,
    });
    return {
      envelopeId: id,
      sendRequest,
      document: { id: generated.id, sha256, fileName: generated.fileName },
      customer,
    };
  }

  /**
   * Sends the draft; `onSent` records the deal's outcome in the send's own transaction, so the send and
   * its record are committed together or not at all. Throws what signing's send throws (the gate's
   * `ApprovalRequiredProblem`, a refused countersigner, the provider's trouble).
   */
  async send(
    envelope: DealEnvelope,
    starter: string,
    onSent: (trx: Executor) => Promise<void>,
  ): Promise<void> {
    await this.deps.sender.sendApproved(
      envelope.envelopeId,
      envelope.sendRequest,
      starterActor(starter),
      undefined,
      onSent,
    );
    this.deps.outbox.deliverSoon();
  }

  /** Whether the envelope went out (sent, and maybe signed or declined since), rather than ended unsent. */
  async wentOut(envelopeId: string): Promise<boolean> {
    const envelope = await this.deps.db
      .selectFrom('envelopes')
      .select('status')
      .where('id', '=', envelopeId)
      .executeTakeFirst();
    return envelope !== undefined && ['sent', 'completed', 'declined'].includes(envelope.status);
  }

  /**
   * In the send's transaction, with the batch's row locked: the envelope's invitations wait for the
   * batch's next free slot, and the slot moves on by one interval per invitation.
   */
  async spreadInvitations(trx: Executor, batchId: string, envelopeId: string): Promise<void> {
    const every = 60 / this.deps.invitationsPerMinute;
    const from = sql<Date>`(select greatest(coalesce(next_invitation_at, now()), now()) from batches where id = ${batchId})`;
    const held = await this.deps.outbox.spread(`envelope:${envelopeId}`, from, every, trx);
    if (held === 0) return;
    await trx
      .updateTable('batches')
      .set({
        next_invitation_at: sql<Date>`greatest(coalesce(next_invitation_at, now()), now()) + make_interval(secs => ${every}::float8 * ${held})`,
      })
      .where('id', '=', batchId)
      .execute();
  }
}

/** The starter, as a batch's envelopes record who made and sent them (from no browser). */
export const starterActor = (email: string): Actor => ({ email, ip: null, userAgent: null });
