import { type Kysely, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { MailOutbox, OutgoingMail } from '../../mail/mail-outbox.js';
import { LeasedRuns, retryBackoffSeconds } from '../../shared/leased-runs.js';
import type { EventSink } from '../../shared/product-events.js';
import { sha256Hex } from '../../shared/sha256.js';
import type { EnvelopesRepository } from '../envelopes-repository.js';
import { completionMails } from './completion-mail.js';
import type { SealedPdf } from './seal-pdf.js';
import type { EnvelopeToSeal } from './sealed-envelope-pdf.js';

/** Attempts at rendering the contract pages before an envelope is sealed without them. */
const CONTRACT_ATTEMPTS = 3;
/** Longer than any sealing takes: a lease outlives the attempt that holds it. */
const LEASE_SECONDS = 5 * 60;

export interface EnvelopeSealerDeps {
  db: Db;
  envelopes: EnvelopesRepository;
  outbox: MailOutbox;
  /** Makes the sealed PDF (sealed-envelope-pdf.ts with the server's seal); tests make it fail. */
  seal: (envelope: EnvelopeToSeal, sealedAt: Date) => Promise<SealedPdf>;
  /** The document as PDF (LibreOffice's rendition); null where LibreOffice is not installed. */
  renderContract?: (docx: Uint8Array) => Promise<Uint8Array | null>;
  /** With DocuSign: its combined document of a completed envelope (SignatureProvider.completedDocument). */
  providerDocument?: (externalId: string) => Promise<Uint8Array>;
  log?: { warn(obj: object, msg: string): void };
  /** Told of each sealed PDF in the transaction that stores it (webhooks: `envelope.completed`). */
  events?: EventSink<Kysely<Database>>;
}

/**
 * Seals completed envelopes and only then mails them. Completion marks an envelope due
 * (`seal_due_at`) in its own transaction; a run leases each due envelope with one UPDATE … SKIP LOCKED,
 * as the mail outbox does, so that with several replicas every envelope is sealed and mailed once. A
 * seal that fails leaves the envelope completed, records why, and is tried again with growing pauses;
 * the completion mail waits for it.
 */
export class EnvelopeSealer {
  private readonly runs = new LeasedRuns();
  private readonly log: { warn(obj: object, msg: string): void };

  constructor(private readonly deps: EnvelopeSealerDeps) {
    this.log = deps.log ?? console;
  }

  /** Starts a run without waiting for it: the signer's answer does not wait for the seal. */
  sealSoon(): void {
    this.sealDue().catch((error) => this.log.warn({ err: error }, 'sealing run failed'));
  }

  /** Seals every due envelope; returns how many were sealed. */
  sealDue(): Promise<number> {
    return this.runs.track(this.run());
  }

  /** For a stop: leases nothing more and waits for the envelopes being sealed. */
  stop(): Promise<void> {
    return this.runs.stop();
  }

  private run(): Promise<number> {
    return this.runs.eachLeased(
      () => this.lease(),
      (leased) => this.sealOrPostpone(leased),
    );
  }

  /** Seals one leased envelope; a failure is recorded, and the envelope is tried again after a pause. */
  private async sealOrPostpone(leased: { id: string; seal_attempts: number }): Promise<boolean> {
    try {
      return await this.sealOne(leased.id, leased.seal_attempts);
    } catch (error) {
      const backoff = retryBackoffSeconds(leased.seal_attempts);
      this.log.warn(
        { err: error, envelopeId: leased.id, attempts: leased.seal_attempts },
        'envelope not sealed; retrying later',
      );
      await this.deps.db
        .updateTable('envelopes')
        .set({
          seal_error: String((error as Error).message ?? error).slice(0, 500),
          seal_due_at: sql<Date>`now() + make_interval(secs => ${backoff})`,
        })
        .where('id', '=', leased.id)
        .where('sealed_pdf', 'is', null)
        .execute();
      return false;
    }
  }

  private lease() {
    const { db } = this.deps;
    return db
      .updateTable('envelopes')
      .set({
        seal_attempts: sql`seal_attempts + 1`,
        seal_due_at: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})`,
      })
      .where('id', '=', (qb) =>
        qb
          .selectFrom('envelopes')
          .select('id')
          .where('seal_due_at', '<=', sql<Date>`now()`)
          .where('sealed_pdf', 'is', null)
          .orderBy('seal_due_at')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'seal_attempts'])
      .executeTakeFirst();
  }

  /** Seals one leased envelope, stores the PDF and queues its completion mail in one transaction. */
  private async sealOne(envelopeId: string, attempt: number): Promise<boolean> {
    const { db, envelopes } = this.deps;
    const { provider, external_id: externalId } = await db
      .selectFrom('envelopes')
      .select(['provider', 'external_id'])
      .where('id', '=', envelopeId)
      .executeTakeFirstOrThrow();
    if (provider === 'docusign') return this.storeProviderDocument(envelopeId, externalId);
    const envelope = await db
      .selectFrom('envelopes')
      .innerJoin('documents', 'documents.id', 'envelopes.document_id')
      .innerJoin('document_versions', (join) =>
        join
          .onRef('document_versions.document_id', '=', 'envelopes.document_id')
          .onRef('document_versions.version', '=', 'envelopes.document_version'),
      )
      .select([
        'envelopes.id',
        'envelopes.subject',
        'envelopes.match_id',
        'envelopes.document_sha256',
        'envelopes.sender_email',
        'envelopes.created_by',
        'envelopes.certificate',
        'envelopes.completed_at',
        'documents.file_name',
        'document_versions.content',
      ])
      .where('envelopes.id', '=', envelopeId)
      .executeTakeFirstOrThrow();
    if (!envelope.certificate || !envelope.completed_at) {
      throw new Error(`envelope ${envelopeId} is due for sealing but has no certificate`);
    }
    const recipients = await envelopes.recipients(envelopeId);
    const sealed = await this.deps.seal(
      {
        envelopeId: envelope.id,
        matchId: envelope.match_id,
        subject: envelope.subject,
        certificate: envelope.certificate,
        document: { fileName: envelope.file_name, content: envelope.content },
        contract: await this.contract(envelope.content, recipients, attempt),
        completedAt: envelope.completed_at,
      },
      new Date(),
    );
    return this.store(
      envelopeId,
      sealed,
      completionMails(envelope, recipients, { document: envelope.content, sealedPdf: sealed.pdf }),
    );
  }

  /**
   * The contract pages with each signer's marks. A rendition that fails is tried again with the seal;
   * after CONTRACT_ATTEMPTS the envelope is sealed without them rather than never (the certificate and
   * the attached DOCX are the proof, the pages a convenience).
   */
  private async contract(
    docx: Uint8Array,
    recipients: Awaited<ReturnType<EnvelopesRepository['recipients']>>,
    attempt: number,
  ): Promise<EnvelopeToSeal['contract']> {
    if (!this.deps.renderContract) return null;
    const marks = recipients.flatMap((r) =>
      r.role !== 'CC' && r.signed_at && r.typed_name
        ? [
            {
              role: r.role,
              typedName: r.typed_name,
              signatoryFunction: r.signatory_function,
              drawnSignature: r.drawn_signature,
              signedAt: r.signed_at,
            },
          ]
        : [],
    );
    try {
      const rendition = await this.deps.renderContract(docx);
      if (!rendition) return null;
      // pdf-lib and pdf.js load with the first contract sealed, not at the server's start.
      const { signedContractPages } = await import('./signed-contract-pages.js');
      return await signedContractPages(rendition, marks);
    } catch (error) {
      if (attempt < CONTRACT_ATTEMPTS) throw error;
      this.log.warn({ err: error }, 'contract pages left out of the sealed PDF: they failed again');
      return null;
    }
  }

  /**
   * DocuSign's combined document (the signed document and its Certificate of Completion, sealed by
   * DocuSign) is the envelope's signed PDF; DocuSign mails it to the signers itself.
   */
  private async storeProviderDocument(envelopeId: string, externalId: string | null): Promise<boolean> {
    if (!this.deps.providerDocument || !externalId) {
      throw new Error(`envelope ${envelopeId} was completed at DocuSign, which is not configured here`);
    }
    const pdf = Buffer.from(await this.deps.providerDocument(externalId));
    return this.store(envelopeId, { pdf, level: null, renewBy: null }, []);
  }

  /**
   * Stores the signed PDF with its level and queues its mails in one transaction; false if another run
   * was first. DocuSign's document has no level of ours (null).
   */
  private async store(
    envelopeId: string,
    { pdf, level, renewBy }: Omit<SealedPdf, 'level'> & { level: SealedPdf['level'] | null },
    mails: OutgoingMail[],
  ): Promise<boolean> {
    const { db, outbox } = this.deps;
    const sha256 = sha256Hex(pdf);
    const stored = await db.transaction().execute(async (trx) => {
      // Only if no other run finished it meanwhile (a lease that expired while this one worked).
      const { numUpdatedRows } = await trx
        .updateTable('envelopes')
        .set({
          sealed_pdf: pdf,
          sealed_sha256: sha256,
          seal_level: level,
          seal_renew_at: renewBy,
          seal_due_at: null,
          seal_error: null,
        })
        .where('id', '=', envelopeId)
        .where('sealed_pdf', 'is', null)
        .executeTakeFirst();
      if (numUpdatedRows === 0n) return false;
      if (level)
        await trx
          .insertInto('sealed_pdf_versions')
          .values({ sha256, envelope_id: envelopeId, level })
          .execute();
      await outbox.enqueue(mails, trx);
      await this.deps.events?.record({ kind: 'envelope.sealed', envelopeId, sha256 }, trx);
      return true;
    });
    if (stored && mails.length > 0) outbox.deliverSoon();
    return stored;
  }
}
