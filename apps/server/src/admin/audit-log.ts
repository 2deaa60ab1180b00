import type { AuditAction } from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

export interface AuditEntryInput {
  /** E-mail of the administrator or legal staff member, or `cli:<os user>` for a command-line tool. */
  actor: string;
  /** What was done, e.g. `permission.set`, `access.grant`, `matches.import`, `template.publish`. */
  action: AuditAction;
  /** Whom or what it concerns: an e-mail, a match file, a template name. */
  subject: string;
  oldValue?: string | null;
  newValue?: string | null;
}

export interface AuditEntry extends Required<Omit<AuditEntryInput, 'action'>> {
  id: string;
  at: Date;
  /** As recorded: an older entry may name an action this version no longer records. */
  action: string;
}

/**
 * The append-only audit log of Team-Operations and the template library. Entries are
 * written in the transaction of the change they describe, so a change and its entry exist together or
 * not at all; nothing here updates or deletes an entry.
 */
export class AuditLog {
  constructor(private readonly db: Db) {}

  /** Records an entry; pass the change's transaction as `executor`. */
  async record(entry: AuditEntryInput, executor: Kysely<Database> = this.db): Promise<void> {
    await executor
      .insertInto('audit_entries')
      .values({
        actor: entry.actor,
        action: entry.action,
        subject: entry.subject,
        old_value: entry.oldValue ?? null,
        new_value: entry.newValue ?? null,
      })
      .execute();
  }

  /** Newest first; `before` is the id of the last entry of the previous page. */
  async list({ limit, before }: { limit: number; before?: string }): Promise<AuditEntry[]> {
    let query = this.db.selectFrom('audit_entries').selectAll().orderBy('id', 'desc').limit(limit);
    if (before !== undefined) query = query.where('id', '<', before);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: String(row.id),
      at: row.at,
      actor: row.actor,
      action: row.action,
      subject: row.subject,
      oldValue: row.old_value,
      newValue: row.new_value,
    }));
  }
}
