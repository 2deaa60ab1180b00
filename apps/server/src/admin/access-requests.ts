import {
  type AccessRequest,
  type OwnAccessRequest,
  PERMISSION_LABELS,
  type PermissionLevel,
} from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { MailOutbox, OutgoingMail } from '../mail/mail-outbox.js';
import { HttpError, notFound } from '../shared/http-error.js';
import type { AuditLog } from './audit-log.js';
import { levelName } from './staff-administration.js';

export interface AccessRequestsDeps {
  db: Db;
  audit: AuditLog;
  outbox: MailOutbox;
  publicUrl: string;
  /** ADMIN_EMAILS: mailed with the administrators of the database. */
  configuredAdministrators: ReadonlySet<string>;
  /** ACCESS_REQUEST_EMAIL: mailed instead of the administrators. */
  notify?: string;
}

/**
 * "Zugang anfragen": a signed-in person without a level asks Team-Operations; the request
 * and its mail to the administrators are stored together, the decision and its mail to the requester too.
 */
export class AccessRequests {
  constructor(private readonly deps: AccessRequestsDeps) {}

  /** Stores a request, or answers with the open one: a second click stores and mails nothing. */
  async request(
    user: { email: string; name: string },
    message: string | undefined,
  ): Promise<NonNullable<OwnAccessRequest['request']>> {
    const { db, outbox } = this.deps;
    const stored = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('access_requests')
        .values({ email: user.email, name: user.name, message: message || null })
        .onConflict((oc) => oc.column('email').where('status', '=', 'open').doNothing())
        .returning(['id', 'requested_at'])
        .executeTakeFirst();
      if (!inserted) return undefined;
      await outbox.enqueue(await this.requestMails(trx, user, message, inserted.requested_at), trx);
      return inserted;
    });
    if (stored) outbox.deliverSoon();
    const own = await this.own(user.email);
    if (!own.request) throw new Error('access request vanished after it was stored');
    return own.request;
  }

  /** The person's latest request, open or decided. */
  async own(email: string): Promise<OwnAccessRequest> {
    const row = await this.deps.db
      .selectFrom('access_requests')
      .select(['requested_at', 'status', 'decision'])
      .where('email', '=', email)
      .orderBy('requested_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return { request: null };
    return {
      request: {
        requestedAt: row.requested_at.toISOString(),
        status: row.status,
        reason: row.status === 'declined' ? row.decision : null,
      },
    };
  }

  async listOpen(): Promise<AccessRequest[]> {
    const rows = await this.deps.db
      .selectFrom('access_requests')
      .select(['id', 'email', 'name', 'message', 'requested_at'])
      .where('status', '=', 'open')
      .orderBy('requested_at')
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      email: r.email,
      name: r.name,
      message: r.message,
      requestedAt: r.requested_at.toISOString(),
    }));
  }

  /** `Freigeben`: the requester gets the level with their next request, and a mail saying so. */
  async grant(actor: string, id: string, permission: PermissionLevel): Promise<void> {
    await this.decide(actor, id, async (trx, request) => {
      const previous = await trx
        .selectFrom('users')
        .select(['permission', 'version'])
        .where('email', '=', request.email)
        .forUpdate()
        .executeTakeFirst();
      await trx
        .insertInto('users')
        .values({ email: request.email, name: request.name, permission, updated_at: new Date() })
        .onConflict((oc) =>
          oc.column('email').doUpdateSet({
            permission,
            version: (previous?.version ?? 0) + 1,
            updated_at: new Date(),
          }),
        )
        .execute();
      await this.deps.audit.record(
        {
          actor,
          action: 'access.grant',
          subject: request.email,
          oldValue: levelName(previous?.permission ?? null),
          newValue: levelName(permission),
        },
        trx,
      );
      return {
        status: 'granted',
        decision: String(permission),
        mail: {
          to: request.email,
          subject: '[Vertragsgenerator] Dein Zugang ist freigegeben',
          text: [
            `Hallo ${request.name},`,
            '',
            `Team-Operations hat deinen Zugang zum Vertragsgenerator freigegeben (Stufe: ${PERMISSION_LABELS[permission]}).`,
            `Melde dich an oder lade die Anmeldeseite neu: ${this.deps.publicUrl}/login`,
          ].join('\n'),
          reference: `access_request:${id}`,
        },
      };
    });
  }

  /** `Ablehnen`: the requester is mailed the reason and may ask again. */
  async decline(actor: string, id: string, reason: string): Promise<void> {
    await this.decide(actor, id, async (trx, request) => {
      await this.deps.audit.record(
        { actor, action: 'access.decline', subject: request.email, oldValue: null, newValue: reason },
        trx,
      );
      return {
        status: 'declined',
        decision: reason,
        mail: {
          to: request.email,
          subject: '[Vertragsgenerator] Deine Zugangsanfrage wurde abgelehnt',
          text: [
            `Hallo ${request.name},`,
            '',
            'Team-Operations hat deine Zugangsanfrage zum Vertragsgenerator abgelehnt.',
            `Begründung: ${reason}`,
          ].join('\n'),
          reference: `access_request:${id}`,
        },
      };
    });
  }

  private async decide(
    actor: string,
    id: string,
    apply: (
      trx: Kysely<Database>,
      request: { email: string; name: string },
    ) => Promise<{ status: 'granted' | 'declined'; decision: string; mail: OutgoingMail }>,
  ): Promise<void> {
    if (!/^\d{1,18}$/.test(id)) throw notFound('Diese Zugangsanfrage gibt es nicht.');
    const { db, outbox } = this.deps;
    await db.transaction().execute(async (trx) => {
      const request = await trx
        .selectFrom('access_requests')
        .select(['email', 'name', 'status'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!request) throw notFound('Diese Zugangsanfrage gibt es nicht.');
      if (request.status !== 'open') {
        throw new HttpError(409, 'conflict', 'Über diese Zugangsanfrage wurde schon entschieden.');
      }
      const { status, decision, mail } = await apply(trx, request);
      await trx
        .updateTable('access_requests')
        .set({ status, decided_by: actor, decided_at: new Date(), decision })
        .where('id', '=', id)
        .execute();
      await outbox.enqueue([mail], trx);
    });
    outbox.deliverSoon();
  }

  private async requestMails(
    trx: Kysely<Database>,
    user: { email: string; name: string },
    message: string | undefined,
    requestedAt: Date,
  ): Promise<OutgoingMail[]> {
    const recipients = this.deps.notify ? [this.deps.notify] : await this.administrators(trx);
    const text = [
      `${user.name} <${user.email}> bittet um Zugang zum Vertragsgenerator.`,
      `Angefragt am: ${requestedAt.toISOString()}`,
      '',
      message ? `Nachricht: ${message}` : 'Ohne Nachricht.',
      '',
      `Freigeben oder ablehnen: ${this.deps.publicUrl}/verwaltung`,
    ].join('\n');
    // Nobody to ask: the support mailbox hears of it rather than nobody.
    const to: (string | null)[] = recipients.length > 0 ? recipients : [null];
    return to.map((recipient) => ({
      to: recipient,
      replyTo: user.email,
      subject: `[Vertragsgenerator] Zugangsanfrage von ${user.name}`,
      text,
      reference: `access_request:${user.email}`,
    }));
  }

  private async administrators(trx: Kysely<Database>): Promise<string[]> {
    const rows = await trx.selectFrom('users').select('email').where('administrator', '=', true).execute();
    return [...new Set([...rows.map((r) => r.email), ...this.deps.configuredAdministrators])].sort();
  }
}
