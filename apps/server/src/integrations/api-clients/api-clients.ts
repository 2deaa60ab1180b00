import { randomBytes, randomUUID } from 'node:crypto';
import {
  API_CLIENT_MAX_DAYS,
  API_CLIENT_TOKEN_PREFIX,
  type ApiClient,
  type ApiClientCreate,
  type ApiClientCreated,
  isPermissionLevel,
  type PermissionLevel,
} from '@vertragsgenerator/domain';
import type { Selectable } from 'kysely';
import type { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import type { ApiClientsTable } from '../../db/schema.js';
import { HttpError, notFound } from '../../shared/http-error.js';
import { sha256Hex } from '../../shared/sha256.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Longer request descriptions are an attack's padding, not information worth keeping in the log. */
const SUBJECT_MAX = 300;

/** The client an API-client token names, as the guards admit it. */
export interface ApiClientIdentity {
  id: string;
  name: string;
  permission: PermissionLevel;
}

/** Why a token is refused, in German for the calling system's operators. */
export type ApiClientRefusal = { refused: string };

/** How a client's calls appear in the audit log: beside staff e-mails and `cli:<user>`. */
export const apiClientActor = (name: string) => `api:${name}`;

/**
 * API clients (/verwaltung → API-Zugänge): systems that call the API with a token of their own and act
 * with the permission level an administrator gave them, until the token expires or is revoked. The
 * token is 32 random bytes, shown once; only its SHA-256 is stored — a fast hash suffices for so much
 * entropy, and it lets every call find its client with one indexed lookup. Creating and revoking are
 * audit entries in the change's transaction, and so is every call (`recordCall`).
 */
export class ApiClients {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<ApiClient[]> {
    const rows = await this.db.selectFrom('api_clients').selectAll().orderBy('created_at', 'desc').execute();
    return rows.map(toApiClient);
  }

  async create(actor: string, input: ApiClientCreate): Promise<ApiClientCreated> {
    const now = this.now();
    // Valid through the whole of the day named, in UTC: „gültig bis 31.12.“ includes the 31st.
    const expiresAt = new Date(Date.parse(`${input.expiresOn}T00:00:00Z`) + DAY_MS);
    if (expiresAt.getTime() <= now.getTime()) {
      throw new HttpError(400, 'invalid_input', 'Die Eingabe ist ungültig.', {
        expiresOn: ['Das Ablaufdatum muss heute oder später sein.'],
      });
    }
    if (expiresAt.getTime() > now.getTime() + (API_CLIENT_MAX_DAYS + 1) * DAY_MS) {
      throw new HttpError(400, 'invalid_input', 'Die Eingabe ist ungültig.', {
        expiresOn: [`Ein API-Zugang gilt höchstens ${API_CLIENT_MAX_DAYS} Tage.`],
      });
    }
    const token = API_CLIENT_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const id = randomUUID();
    await this.db.transaction().execute(async (trx) => {
      const taken = await trx
        .selectFrom('api_clients')
        .select('id')
        .where('name', '=', input.name)
        .executeTakeFirst();
      if (taken) {
        throw new HttpError(409, 'conflict', 'Einen API-Zugang mit diesem Namen gibt es schon.', {
          name: ['Dieser Name ist schon vergeben (auch widerrufene Zugänge behalten ihren Namen).'],
        });
      }
      await trx
        .insertInto('api_clients')
        .values({
          id,
          name: input.name,
          permission: input.permission,
          token_hash: sha256Hex(token),
          token_hint: `${token.slice(0, API_CLIENT_TOKEN_PREFIX.length + 4)}…`,
          created_by: actor,
          created_at: now,
          expires_at: expiresAt,
        })
        .execute();
      await this.audit.record(
        {
          actor,
          action: 'api-client.create',
          subject: input.name,
          newValue: `Stufe ${input.permission}, gültig bis ${input.expiresOn}`,
        },
        trx,
      );
    });
    return { client: await this.find(id), token };
  }

  /** Revokes at once: the next call with the token is refused. Revoking twice changes nothing. */
  async revoke(actor: string, id: string): Promise<ApiClient> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('api_clients')
        .select(['name', 'revoked_at'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw notFound('Diesen API-Zugang gibt es nicht.');
      if (row.revoked_at) return;
      await trx
        .updateTable('api_clients')
        .set({ revoked_at: this.now(), revoked_by: actor })
        .where('id', '=', id)
        .execute();
      await this.audit.record({ actor, action: 'api-client.revoke', subject: row.name }, trx);
    });
    return this.find(id);
  }

  /** The client a token names, or why it may not call: unknown, revoked or expired. */
  async authenticate(token: string): Promise<ApiClientIdentity | ApiClientRefusal> {
    const row = await this.db
      .selectFrom('api_clients')
      .select(['id', 'name', 'permission', 'expires_at', 'revoked_at'])
      .where('token_hash', '=', sha256Hex(token))
      .executeTakeFirst();
    if (!row || !isPermissionLevel(row.permission)) return { refused: 'Dieser API-Zugang ist unbekannt.' };
    if (row.revoked_at) return { refused: 'Dieser API-Zugang wurde widerrufen.' };
    if (row.expires_at.getTime() <= this.now().getTime()) {
      return { refused: 'Dieser API-Zugang ist abgelaufen.' };
    }
    return { id: row.id, name: row.name, permission: row.permission };
  }

  /** A call by a client: its last use and an audit entry with what it called and how it was answered. */
  async recordCall(client: ApiClientIdentity, request: string, status: number): Promise<void> {
    const at = this.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('api_clients').set({ last_used_at: at }).where('id', '=', client.id).execute();
      await this.audit.record(
        {
          actor: apiClientActor(client.name),
          action: 'api.call',
          subject: request.slice(0, SUBJECT_MAX),
          newValue: String(status),
        },
        trx,
      );
    });
  }

  private async find(id: string): Promise<ApiClient> {
    const row = await this.db.selectFrom('api_clients').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Diesen API-Zugang gibt es nicht.');
    return toApiClient(row);
  }
}

function toApiClient(row: Selectable<ApiClientsTable>): ApiClient {
  if (!isPermissionLevel(row.permission)) throw new Error(`api client ${row.id} has no valid level`);
  return {
    id: row.id,
    name: row.name,
    permission: row.permission,
    tokenHint: row.token_hint,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    revokedBy: row.revoked_by,
  };
}
