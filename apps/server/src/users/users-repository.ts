import { isPermissionLevel, type PermissionLevel } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';

export interface StaffMember {
  email: string;
  name: string;
  permission: PermissionLevel | null;
}

/** The staff directory and permission levels (DESIGN §6); managed with `npm run users`. */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<StaffMember[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['email', 'name', 'permission'])
      .orderBy('name')
      .execute();
    return rows.map(toStaffMember);
  }

  async find(email: string): Promise<StaffMember | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(['email', 'name', 'permission'])
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row && toStaffMember(row);
  }

  /** Records a person seen at sign-in; keeps an existing permission and name set by an administrator. */
  async recordSignIn(email: string, name: string): Promise<StaffMember> {
    const row = await this.db
      .insertInto('users')
      .values({ email: email.toLowerCase(), name, permission: null, updated_at: new Date() })
      .onConflict((oc) => oc.column('email').doUpdateSet({ updated_at: new Date() }))
      .returning(['email', 'name', 'permission'])
      .executeTakeFirstOrThrow();
    return toStaffMember(row);
  }

  async upsert(member: StaffMember): Promise<void> {
    await this.db
      .insertInto('users')
      .values({ ...member, email: member.email.toLowerCase(), updated_at: new Date() })
      .onConflict((oc) =>
        oc
          .column('email')
          .doUpdateSet({ name: member.name, permission: member.permission, updated_at: new Date() }),
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

export function toStaffMember(row: { email: string; name: string; permission: number | null }): StaffMember {
  return {
    email: row.email,
    name: row.name,
    permission: isPermissionLevel(row.permission) ? row.permission : null,
  };
}
