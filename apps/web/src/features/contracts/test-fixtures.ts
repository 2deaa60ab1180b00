import type { ContractRecord, ContractRow, ContractsPage } from '@vertragsgenerator/domain';

/** A Rahmenvertrag as the list answers it (the values of demo match PL-10014). */
export const frameworkRow: ContractRow = {
  id: '11111111-1111-4111-8111-111111111111',
  matchId: 'PL-10014',
  kind: 'rahmenvertrag',
  status: 'in_force',
  company: 'we',
  partnerType: 'k',
  counterparty: 'Lahntal Software AG',
  customer: 'Lahntal Software AG',
  consultant: 'Hannes Hoffmann',
  startDate: '2027-01-04',
  endDate: '2027-12-17',
  noticeText: '4 Wochen',
  noticeRule: { amount: 4, unit: 'weeks' },
  noticeRuleSource: 'read',
  lastNoticeDay: '2027-11-19',
  signedAt: '2026-11-20T11:00:00.000Z',
};

/** An Einzelauftrag whose notice text could not be read. */
export const unreadableRow: ContractRow = {
  ...frameworkRow,
  id: '22222222-2222-4222-8222-222222222222',
  matchId: 'PL-10028',
  kind: 'einzelauftrag',
  status: 'ending_soon',
  consultant: 'Florian Fuchs',
  startDate: '2027-04-01',
  endDate: '2027-09-30',
  noticeText: '2-3 Wochen',
  noticeRule: null,
  noticeRuleSource: 'unreadable',
  lastNoticeDay: null,
  signedAt: '2026-11-25T23:30:00.000Z',
};

export const contractsPage = (rows: ContractRow[], extra: Partial<ContractsPage> = {}): ContractsPage => ({
  rows,
  total: rows.length,
  page: 1,
  pageSize: 50,
  ...extra,
});

/** The Einzelauftrag's record: under the Rahmenvertrag, ended by a Kündigung below it. */
export const orderRecord: ContractRecord = {
  ...unreadableRow,
  parties: [
    { role: 'Gesellschaft', name: 'WE Engineering GmbH' },
    { role: 'Kunde', name: 'Lahntal Software AG' },
  ],
  noticeProblem:
    'Die Kündigungsfrist „2-3 Wochen“ ist nicht lesbar: Sie nennt eine Spanne statt einer Frist.',
  dateProblem: null,
  rates: { remote: '112,50', onsite: null, hoursPerWeek: '32' },
  source: {
    kind: 'signed_elsewhere',
    documentId: '33333333-3333-4333-8333-333333333333',
    documentVersion: 2,
    fileName: 'PL-10028 Einzelvertrag Kunde Lahntal Software AG.docx',
    envelopeId: null,
    signedBy: 'Ute Vogelsang',
  },
  negotiation: { rounds: 2, agreedAt: '2026-11-24T09:30:00.000Z' },
  clauses: [
    { key: 'haftung', name: 'Haftung', version: 1, variant: 'Standard', outdated: true },
    { key: 'schweizer-recht', name: 'Schweizer Recht', version: 2, variant: 'Schweiz', outdated: false },
  ],
  chain: [
    { ...frameworkRow, relation: null, depth: 0 },
    { ...unreadableRow, relation: 'under', depth: 1 },
    {
      ...unreadableRow,
      id: '44444444-4444-4444-8444-444444444444',
      kind: 'kuendigung',
      status: 'in_force',
      relation: 'ends',
      depth: 2,
    },
  ],
  history: [
    {
      at: '2026-11-25T23:30:00.000Z',
      type: 'signed_elsewhere',
      actor: 'legal@demo.local',
      detail: 'Ute Vogelsang',
    },
  ],
  maySetNoticeRule: true,
};
