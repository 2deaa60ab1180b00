import type { Db } from '../db/database.js';
import { type StaffMember, toStaffMember } from '../users/users-repository.js';
import type { TokenIdentity } from './token-verifier.js';

export type SessionState = 'active' | 'revoked' | 'missing';

/**
 * Server-side sessions, one per ID token: saveUser opens one, logout revokes all of the
 * user's sessions and marks every older token of theirs as signed out.
 */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The state of a token's session and the directory entry of its user (undefined when the directory
   * does not list them), in one query: every private request asks this.
   */
  async lookup(tokenHash: string): Promise<{ state: SessionState; user: StaffMember | undefined }> {
    const row = await this.db
      .selectFrom('sessions')
      .leftJoin('users', 'users.email', 'sessions.email')
      .select(['sessions.revoked_at', 'users.email', 'users.name', 'users.permission', 'users.administrator'])
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return { state: 'missing', user: undefined };
    const { email, name, permission, administrator } = row;
    return {
      state: row.revoked_at ? 'revoked' : 'active',
      user:
        email !== null && name !== null
          ? toStaffMember({ email, name, permission, administrator: administrator ?? false })
          : undefined,
    };
  }

  /** False when the token was signed out before: a revoked token never opens a new session. */
  async open(identity: TokenIdentity): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('sessions')
        .select('revoked_at')
        .where('token_hash', '=', identity.tokenHash)
        .executeTakeFirst();
      if (existing?.revoked_at) return false;
      const user = await trx
        .selectFrom('users')
        .select('signed_out_at')
        .where('email', '=', identity.email)
        .executeTakeFirst();
      // Seconds resolution of `iat`: a token issued in the second of a logout is still accepted.
      if (user?.signed_out_at && identity.issuedAt < Math.floor(user.signed_out_at.getTime() / 1000))
        return false;
      if (!existing) {
        await trx
          .insertInto('sessions')
          .values({
            token_hash: identity.tokenHash,
            email: identity.email,
            expires_at: new Date(identity.expiresAt * 1000),
          })
          .execute();
      }
      return true;
    });
  }

  async revokeAll(email: string): Promise<void> {
    const now = new Date();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('email', '=', email)
        .where('revoked_at', 'is', null)
        .execute();
      await trx.updateTable('users').set({ signed_out_at: now }).where('email', '=', email).execute();
    });
  }

  /** Expired sessions carry no meaning: their tokens fail verification anyway. */
  async deleteExpired(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
