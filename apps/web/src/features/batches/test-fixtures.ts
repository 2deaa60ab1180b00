import type { Batch, BatchCounts, BatchItem, SessionUser } from '@vertragsgenerator/domain';

export const legal: SessionUser = {
  email: 'legal@demo.local',
  name: 'Lena Legal',
  permission: 2,
  administrator: false,
};
export const consultant: SessionUser = { ...legal, email: 'berater@demo.local', permission: 1 };
export const leader: SessionUser = { ...legal, email: 'leitung@demo.local', permission: 3 };

export const BATCH_ID = 'b1b1b1b1-1111-4111-8111-111111111111';

/** A deal of the batch, ready and waiting for the start unless told otherwise. */
export function item(position: number, extra: Partial<BatchItem> = {}): BatchItem {
  return {
    id: `item-${position}`,
    position,
    matchId: `PL-1000${position}`,
    counterparty: `Kunde ${position} GmbH`,
    values: { vertragspartner_type: 'k', neuesEnde: '2027-12-31' },
    verdict: 'ready',
    reason: null,
    status: 'waiting',
    error: null,
    documentId: null,
    fileName: null,
    envelopeId: null,
    approval: null,
    finishedAt: null,
    ...extra,
  };
}

const NO_COUNTS: BatchCounts = {
  ready: 0,
  approval: 0,
  cannot: 0,
  waiting: 0,
  running: 0,
  done: 0,
  waitingApproval: 0,
  failed: 0,
  cancelled: 0,
  skipped: 0,
};

/** The counts a server answers for these items. */
function countsOf(items: readonly BatchItem[]): BatchCounts {
  const counts = { ...NO_COUNTS };
  for (const entry of items) {
    counts[entry.verdict] += 1;
    if (entry.status === 'approval') {
      // Made, and waiting for Freigabe: among the made ones too.
      counts.waitingApproval += 1;
      counts.done += 1;
    } else {
      counts[entry.status] += 1;
    }
  }
  return counts;
}

/** An extension batch of these deals, as `GET /backend/batches/:id` answers it. */
export function batch(items: BatchItem[], extra: Partial<Batch> = {}): Batch {
  return {
    id: BATCH_ID,
    docKey: 'verlaengerung-de-wm-k',
    title: 'Verlängerung (Kunde, WM)',
    status: 'checked',
    createdBy: legal.email,
    createdAt: '2027-03-01T09:30:00.000Z',
    startedAt: null,
    finishedAt: null,
    deals: items.length,
    counts: countsOf(items),
    secondsLeft: null,
    values: { vertragspartner_type: 'k', neuesEnde: '2027-12-31' },
    send: null,
    items,
    ...extra,
  };
}

/** The checked batch of three deals: two ready, one whose match could not be loaded. */
export const checkedBatch = batch([
  item(1),
  item(2),
  item(3, {
    counterparty: null,
    verdict: 'cannot',
    reason: 'Die Match-ID ist unbekannt.',
    status: 'skipped',
  }),
]);
