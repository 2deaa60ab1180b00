import { queryOptions } from '@tanstack/react-query';
import {
  type Batch,
  type BatchCheckRequest,
  type BatchItem,
  batchSchema,
  batchSummarySchema,
  countersignatureChoiceSchema,
} from '@vertragsgenerator/domain';
import { z } from 'zod';
import { apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';

/** The start of every batch query's key: invalidating it reloads the list and any batch shown. */
export const BATCHES_QUERY_KEY = ['batches'] as const;

/** How often a running batch's page asks for its progress. */
export const BATCH_POLL_INTERVAL_MS = 1000;

const batchUrl = (id: string, rest = '') => `/backend/batches/${encodeURIComponent(id)}${rest}`;

/** The signed-in user's batches, newest first. */
export function batchesQueryOptions() {
  return queryOptions({
    queryKey: [...BATCHES_QUERY_KEY, 'list'],
    queryFn: ({ signal }) => apiJson('/backend/batches', z.array(batchSummarySchema), { signal }),
  });
}

/** One batch with its deals; asked again every second while it runs, and no more once it has ended. */
export function batchQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...BATCHES_QUERY_KEY, 'batch', id],
    queryFn: ({ signal }) => apiJson(batchUrl(id), batchSchema, { signal }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? BATCH_POLL_INTERVAL_MS : false),
  });
}

/** What the batch form offers as countersignatory for an e-signature key. */
export function countersignatureQueryOptions(docKey: string) {
  return queryOptions({
    queryKey: [...BATCHES_QUERY_KEY, 'countersignature', docKey],
    queryFn: ({ signal }) =>
      apiJson(
        `/backend/batches/countersignature?${new URLSearchParams({ docKey })}`,
        countersignatureChoiceSchema,
        { signal },
      ),
    // The administrators change the signatories seldom; a batch's form need not ask twice.
    staleTime: 5 * 60_000,
  });
}

/** Checks a new batch (nothing is made yet): every deal with its verdict. */
export function checkBatch(request: BatchCheckRequest): Promise<Batch> {
  return apiJson('/backend/batches', batchSchema, { method: 'POST', body: request });
}

export type BatchAction = 'start' | 'retry' | 'cancel';

/** `start` a checked batch, `retry` its failed deals, or `cancel` the deals not yet started. */
export function runBatchAction(id: string, action: BatchAction): Promise<Batch> {
  return apiJson(batchUrl(id, `/${action}`), batchSchema, { method: 'POST' });
}

/** The name a download's `Content-Disposition` gives, if any. */
function attachmentName(response: Response): string | undefined {
  const header = response.headers.get('Content-Disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed name: the plain one below, or ours.
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1];
}

/** The DOCX a ready deal would get, rendered but not stored, saved by the browser. */
export async function downloadPreview(batchId: string, item: BatchItem): Promise<void> {
  const response = await apiFetch(batchUrl(batchId, `/items/${encodeURIComponent(item.id)}/preview`));
  downloadFile(await response.blob(), attachmentName(response) ?? `Vorschau ${item.matchId}.docx`);
}
