import {
  isPermissionLevel,
  type NewColleague,
  type PermissionLevel,
  permissionName,
  type StaffEntry,
} from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { HttpError, notFound } from '../shared/http-error.js';
import { containing } from '../shared/text-match.js';
import type { AuditLog } from './audit-log.js';

export interface StaffChangeRequest {
  permission?: PermissionLevel | null;
  administrator?: boolean;
  name?: string;
  /** The version the administrator saw; the command-line tool passes none. */
  version?: string;
}

const COLUMNS = ['email', 'name', 'permission', 'administrator', 'last_sign_in_at', 'version'] as const;

/**
 * Levels, the administrator capability and colleagues, for /verwaltung and
 * `npm run users` alike: every change and its audit entry are one transaction, and the session guard
 * reads the level on every request, so a change applies to the person's next request.
 */
export class StaffAdministration {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    /** ADMIN_EMAILS: administrators the app cannot change. */
    private readonly configuredAdministrators: ReadonlySet<string> = new Set(),
  ) {}

  /** Everyone in the directory, by name; `search` matches name or e-mail anywhere. */
  async list(search?: string): Promise<StaffEntry[]> {
    let query = this.db.selectFrom('users').select(COLUMNS).orderBy('name').orderBy('email');
    const term = search?.trim();
    if (term) {
      const pattern = containing(term);
      query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern)]));
    }
    return (await query.execute()).map((row) => this.toEntry(row));
  }

  async find(email: string): Promise<StaffEntry | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(COLUMNS)
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row && this.toEntry(row);
  }

  /** Adds a colleague before their first sign-in; they appear in the sender and CC lists at once. */
  async add(actor: string, colleague: NewColleague & { administrator?: boolean }): Promise<StaffEntry> {
    const email = colleague.email.toLowerCase();
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('users')
        .values({
          email,
          name: colleague.name,
          permission: colleague.permission,
          administrator: colleague.administrator ?? false,
          updated_at: new Date(),
        })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!inserted) {
        throw new HttpError(409, 'conflict', `${email} ist schon eingetragen.`, {
          email: ['Diese E-Mail-Adresse ist schon eingetragen.'],
        });
      }
      await this.audit.record(
        { actor, action: 'staff.add', subject: email, newValue: describe(inserted) },
        trx,
      );
      return this.toEntry(inserted);
    });
  }

  /** Changes the level, the administrator capability or the name of a person in the directory. */
  async change(actor: string, email: string, change: StaffChangeRequest): Promise<StaffEntry> {
    const subject = email.toLowerCase();
    return this.db.transaction().execute(async (trx) => {
      const current = await this.lockEntry(trx, subject, change.version);
      if (change.administrator === false) {
        if (this.configuredAdministrators.has(subject)) {
          throw new HttpError(
            409,
            'conflict',
            `${subject} ist in ADMIN_EMAILS eingetragen und bleibt Administrator:in; das ändert nur die Konfiguration.`,
            { administrator: ['In ADMIN_EMAILS festgelegt.'] },
          );
        }
        if (current.administrator) await this.refuseLastAdministrator(trx, subject, 'administrator');
      }
      const next = {
        permission: change.permission === undefined ? current.permission : change.permission,
        administrator: change.administrator ?? current.administrator,
        name: change.name ?? current.name,
      };
      const updated = await trx
        .updateTable('users')
        .set({ ...next, version: current.version + 1, updated_at: new Date() })
        .where('email', '=', subject)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      if (next.permission !== current.permission) {
        await this.audit.record(
          {
            actor,
            action: 'permission.set',
            subject,
            oldValue: levelName(current.permission),
            newValue: levelName(next.permission),
          },
          trx,
        );
      }
      if (next.administrator !== current.administrator) {
        await this.audit.record(
          {
            actor,
            action: next.administrator ? 'administrator.grant' : 'administrator.revoke',
            subject,
            oldValue: String(current.administrator),
            newValue: String(next.administrator),
          },
          trx,
        );
      }
      if (next.name !== current.name) {
        await this.audit.record(
          { actor, action: 'staff.rename', subject, oldValue: current.name, newValue: next.name },
          trx,
        );
      }
      return this.toEntry(updated);
    });
  }

  /** Removes a person from the directory; their sessions lose every level with the next request. */
  async remove(actor: string, email: string, version?: string): Promise<void> {
    const subject = email.toLowerCase();
    await this.db.transaction().execute(async (trx) => {
      const current = await this.lockEntry(trx, subject, version);
      if (this.configuredAdministrators.has(subject)) {
        throw new HttpError(
          409,
          'conflict',
          `${subject} ist in ADMIN_EMAILS eingetragen und kann nur dort entfernt werden.`,
          { email: ['In ADMIN_EMAILS festgelegt.'] },
        );
      }
      if (current.administrator) await this.refuseLastAdministrator(trx, subject, 'email');
      await trx.deleteFrom('users').where('email', '=', subject).execute();
      await this.audit.record(
        { actor, action: 'staff.remove', subject, oldValue: describe(current), newValue: null },
        trx,
      );
    });
  }

  private async lockEntry(trx: Kysely<Database>, email: string, version: string | undefined) {
    const row = await trx
      .selectFrom('users')
      .select(COLUMNS)
      .where('email', '=', email)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound(`Unbekannte E-Mail-Adresse: ${email}.`);
    if (version !== undefined && String(row.version) !== version) {
      throw new HttpError(
        409,
        'conflict',
        `${row.name} wurde inzwischen von jemand anderem geändert. Bitte lade die Liste neu und prüfe die Änderung.`,
        { version: ['Veraltet.'] },
      );
    }
    return row;
  }

  /**
   * The app must keep an administrator who can reach /verwaltung. All administrator rows are locked
   * before counting, so two administrators revoking each other at once cannot both succeed.
   */
  private async refuseLastAdministrator(trx: Kysely<Database>, leaving: string, field: string) {
    const remaining = await trx
      .selectFrom('users')
      .select('email')
      .where('administrator', '=', true)
      .where('email', '!=', leaving)
      .forUpdate()
      .execute();
    const others = new Set([...remaining.map((r) => r.email), ...this.configuredAdministrators]);
    others.delete(leaving);
    if (others.size === 0) {
      throw new HttpError(
        409,
        'last_administrator',
        'Das ist die letzte Person mit Verwaltungsrechten. Ernenne zuerst eine weitere Person zur Administrator:in.',
        { [field]: ['Letzte Administrator:in.'] },
      );
    }
  }

  private toEntry(row: {
    email: string;
    name: string;
    permission: number | null;
    administrator: boolean;
    last_sign_in_at: Date | null;
    version: number;
  }): StaffEntry {
    const byConfiguration = this.configuredAdministrators.has(row.email);
    return {
      email: row.email,
      name: row.name,
      permission: isPermissionLevel(row.permission) ? row.permission : null,
      administrator: row.administrator || byConfiguration,
      administratorByConfiguration: byConfiguration,
      lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
      version: String(row.version),
    };
  }
}

/** How levels read in the audit log: the names of `npm run users`. */
export function levelName(level: number | null): string {
  return isPermissionLevel(level) ? permissionName(level) : 'none';
}

function describe(row: { name: string; permission: number | null; administrator: boolean }): string {
  return `${row.name}, ${levelName(row.permission)}${row.administrator ? ', administrator' : ''}`;
}
