import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/database.js';

/**
 * oidc-provider's storage (sessions, interactions, codes, grants …) in the database, so that a
 * restart or a second process keeps everybody's sign-in state.
 */
/** The models oidc-provider issues under a grant (as its own memory adapter defines them). */
const GRANTABLE_MODELS = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
];

export function payloadAdapterFactory(db: Db): new (model: string) => Adapter {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insertInto('idp_payloads')
        .values({ model: this.model, id, ...row })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
        .execute();
    }

    find(id: string) {
      return this.findBy('id', id);
    }

    findByUserCode(userCode: string) {
      return this.findBy('user_code', userCode);
    }

    findByUid(uid: string) {
      return this.findBy('uid', uid);
    }

    async consume(id: string): Promise<void> {
      await db
        .updateTable('idp_payloads')
        .set({ consumed_at: new Date() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('idp_payloads').where('model', '=', this.model).where('id', '=', id).execute();
    }

    /** Revokes what was issued under a grant; interactions and sessions that mention it stay. */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .deleteFrom('idp_payloads')
        .where('grant_id', '=', grantId)
        .where('model', 'in', GRANTABLE_MODELS)
        .execute();
    }

    private async findBy(
      column: 'id' | 'user_code' | 'uid',
      value: string,
    ): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('idp_payloads')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row || (row.expires_at && row.expires_at.getTime() <= Date.now())) return undefined;
      const consumed = row.consumed_at ? { consumed: Math.floor(row.consumed_at.getTime() / 1000) } : {};
      return { ...(row.payload as AdapterPayload), ...consumed };
    }
  };
}

/** Expired payloads are dead weight: oidc-provider ignores them already. */
export async function deleteExpiredPayloads(db: Db, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('idp_payloads').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
