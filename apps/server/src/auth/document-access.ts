import { catalogueEntry, isLegal, mayGenerate } from '@vertragsgenerator/domain';
import type { StaffMember } from '../users/users-repository.js';

/**
 * Who may read or change a stored document or an envelope; every route and query that asks uses
 * these. The levels themselves are the permission matrix in packages/domain/src/permissions.ts.
 */

type Reader = Pick<StaffMember, 'email' | 'permission'>;

/**
 * Opening a document, saving an edit of it and seeing its envelopes all need the same: a level that
 * may generate its key. An unknown key is nobody's.
 */
export function mayReadDocument(user: Pick<Reader, 'permission'>, docKey: string): boolean {
  const entry = catalogueEntry(docKey);
  return Boolean(entry && mayGenerate(user.permission, entry));
}

/** Legal staff follow up on every envelope; everyone else on the ones they created. */
export function seesEveryEnvelope(user: Pick<Reader, 'permission'>): boolean {
  return isLegal(user.permission);
}

/** Sending, voiding and a signer's link or reminder: for the envelope's creator and for legal staff. */
export function mayManageEnvelope(user: Reader, createdBy: string): boolean {
  return createdBy === user.email || isLegal(user.permission);
}
