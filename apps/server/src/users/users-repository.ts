import { isPermissionLevel, type PermissionLevel } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';

export interface StaffMember {
  email: string;
  name: string;
  permission: PermissionLevel | null;
  /** Team-Operations: granted in the database or named in ADMIN_EMAILS (see the session guard). */
  administrator: boolean;
}

/**
 * The staff directory and permission levels (docs/architecture.md#permissions); managed with
 * `npm run users`.
 */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<StaffMember[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['email', 'name', 'permission', 'administrator'])
      .orderBy('name')
      .execute();
    return rows.map(toStaffMember);
  }

  async find(email: string): Promise<StaffMember | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['email', 'name', 'permission', 'administrator'])
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row && toStaffMember(row);
  }

  /** Records a person seen at sign-in; keeps an existing permission and name set by an administrator. */
  async recordSignIn(email: string, name: string): Promise<StaffMember> {
    const now = new Date();
    const row = await this.db
      .insertInto('users')
      .values({ email: email.toLowerCase(), name, permission: null, updated_at: now, last_sign_in_at: now })
      .onConflict((oc) => oc.column('email').doUpdateSet({ updated_at: now, last_sign_in_at: now }))
      .returning(['email', 'name', 'permission', 'administrator'])
      .executeTakeFirstOrThrow();
    return toStaffMember(row);
  }

  /** Adds or updates a directory entry; the administrator capability changes only when given. */
  async upsert(member: Omit<StaffMember, 'administrator'> & { administrator?: boolean }): Promise<void> {
    const { administrator } = member;
    await this.db
      .insertInto('users')
      .values({
        email: member.email.toLowerCase(),
        name: member.name,
        permission: member.permission,
        administrator: administrator ?? false,
        updated_at: new Date(),
      })
      .onConflict((oc) =>
        oc.column('email').doUpdateSet({
          name: member.name,
          permission: member.permission,
          ...(administrator === undefined ? {} : { administrator }),
          updated_at: new Date(),
        }),
      )
      .execute();
  }

  async setPermission(email: string, permission: PermissionLevel | null): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ permission, updated_at: new Date() })
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async remove(email: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('users')
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('email').limit(1).executeTakeFirst();
    return row === undefined;
  }
}

export function toStaffMember(row: {
  email: string;
  name: string;
  permission: number | null;
  administrator: boolean;
}): StaffMember {
  return {
    email: row.email,
    name: row.name,
    permission: isPermissionLevel(row.permission) ? row.permission : null,
    administrator: row.administrator,
  };
}
