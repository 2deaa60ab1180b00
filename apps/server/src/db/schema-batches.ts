import type { BatchItemStatus, BatchStatus, BatchVerdict, FormName } from '@vertragsgenerator/domain';
import type { ColumnType, Generated } from 'kysely';

/** Table types of Serien (migration 0033); see there for the meaning of the columns. */

type Json = ColumnType<Record<string, unknown>, string, string>;

export interface BatchesTable {
  id: Generated<string>;
  doc_key: string;
  form: FormName;
  status: BatchStatus;
  /** The dataList fields the same for every deal. */
  values: Json;
  /** Where the deals came from: pasted IDs, a CSV or an XLSX file. */
  source: 'ids' | 'csv' | 'xlsx';
  created_by: string;
  created_by_name: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  started_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** E-signature contracts: who countersigns every envelope (null: without). Migration 0034. */
  countersignatory: ColumnType<string | null, string | null | undefined, string | null>;
  /** E-signature contracts: the message every signer reads; null for a batch of Word documents. */
  send_message: ColumnType<string | null, string | null | undefined, string | null>;
  /** The earliest time the batch's next invitation may be mailed. */
  next_invitation_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface BatchItemsTable {
  id: Generated<string>;
  batch_id: string;
  position: number;
  match_id: string;
  counterparty: string | null;
  /** The deal's whole dataList: the common values and its own. */
  values: Json;
  verdict: BatchVerdict;
  reason: string | null;
  status: BatchItemStatus;
  error: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  lease: string | null;
  lease_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  document_id: string | null;
  envelope_id: ColumnType<string | null, string | null | undefined, string | null>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
