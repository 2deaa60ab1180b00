import {
  type Company,
  formatDateTime,
  type NoticeEndPoint,
  type NoticeRuleSource,
  type NoticeUnit,
} from '@vertragsgenerator/domain';

/** Our companies as the filter names them. */
export const COMPANY_LABELS: Record<Company, string> = { wm: 'WM', we: 'WE', wp: 'WP' };

/** The German texts of /vertraege and /vertraege/:id. */
export const contractsTexts = {
  heading: 'Verträge',
  intro: 'Alle unterschriebenen Verträge mit ihrem Ende und der Frist, bis zu der gekündigt werden kann.',
  introConsultant:
    'Die unterschriebenen Verträge deiner Deals mit ihrem Ende und der Frist, bis zu der gekündigt werden kann.',
  filters: 'Filter',
  search: 'Suche',
  searchPlaceholder: 'Match-ID, Gegenseite, Kunde oder Berater',
  company: 'Gesellschaft',
  customer: 'Kunde',
  consultant: 'Berater',
  kind: 'Art',
  status: 'Status',
  all: 'Alle',
  endsWithin: 'Endet in (Tagen)',
  noticeWithin: 'Kündigung fällig in (Tagen)',
  daysPlaceholder: 'z. B. 60',
  withoutFramework: 'Nur Einzelaufträge ohne Rahmenvertrag',
  resetFilters: 'Filter zurücksetzen',
  table: 'Verträge',
  match: 'Match',
  counterparty: 'Gegenseite',
  start: 'Beginn',
  end: 'Ende',
  lastNoticeDay: 'Kündigung spätestens',
  signed: 'Unterschrieben',
  sortBy: (column: string) => `Nach ${column} sortieren`,
  openFor: (kind: string, matchId: string) => `${kind} ${matchId} öffnen`,
  noticeUnreadable: 'Frist nicht lesbar',
  noNotice: 'keine Frist',
  none: '–',
  empty: 'Keine Verträge gefunden.',
  emptyFiltered: 'Keine Verträge passen zu diesen Filtern.',
  loadFailed: 'Die Verträge konnten nicht geladen werden.',
  total: (n: number) => (n === 1 ? '1 Vertrag' : `${n.toLocaleString('de-DE')} Verträge`),
  pagination: 'Seiten',
  export: 'Exportieren',
  exportCsv: 'CSV',
  exportXlsx: 'Excel',
  exportCsvLabel: 'Diese Ansicht als CSV herunterladen',
  exportXlsxLabel: 'Diese Ansicht als Excel-Datei herunterladen',
  exportFailed: 'Der Export ist fehlgeschlagen.',
  extend: 'Verlängern',
  extendLabel: 'Die angezeigten Verträge als Serie verlängern',
  extendNotPossible:
    'Verlängern geht für Einzelaufträge, Rahmenverträge und Verlängerungen einer Gesellschaft und eines Vertragspartners: Filtere die Liste danach.',

  record: {
    back: 'Zurück zu den Verträgen',
    loadFailed: 'Der Vertrag konnte nicht geladen werden.',
    notFoundTitle: 'Vertrag nicht gefunden',
    parties: 'Vertragsparteien',
    term: 'Laufzeit',
    company: 'Gesellschaft',
    customer: 'Kunde',
    consultant: 'Berater',
    start: 'Beginn',
    end: 'Ende',
    openEnded: 'unbefristet',
    signedAt: 'Unterschrieben am',
    dateProblem: 'Ein Datum ist nicht lesbar',
    rates: 'Vergütung',
    rateRemote: (partnerType: string) =>
      partnerType === 'k' ? 'Stundensatz remote (VK)' : 'Stundensatz remote (EK)',
    rateOnsite: (partnerType: string) =>
      partnerType === 'k' ? 'Stundensatz vor Ort (VK)' : 'Stundensatz vor Ort (EK)',
    hoursPerWeek: 'Stunden pro Woche',
    notice: 'Kündigung',
    noticeText: 'Kündigungsfrist laut Vertrag',
    noticeRule: 'Regel',
    noticeRuleSource: 'Herkunft der Regel',
    lastNoticeDay: 'Kündigung spätestens am',
    noLastNoticeDay: 'nicht berechenbar',
    noticeProblem: 'Die Kündigungsfrist ist nicht lesbar',
    noticeProblemHint: 'Legal kann die Frist unten von Hand festlegen.',
    source: 'Herkunft',
    viaEnvelope: 'Elektronisch unterschrieben',
    openEnvelope: 'Umschlag öffnen',
    signedElsewhere: (by: string | null) =>
      by ? `Anderweitig unterschrieben von ${by}` : 'Anderweitig unterschrieben',
    document: 'Dokument',
    documentDeleted: 'Dokument gelöscht',
    documentVersion: (version: number) => `Version ${version}`,
    openDocument: 'Dokument öffnen',
    negotiation: (rounds: number, agreedAt: string | null) =>
      `Verhandlung: ${rounds} ${rounds === 1 ? 'Runde' : 'Runden'}${agreedAt ? `, vereinbart am ${formatDateTime(new Date(agreedAt))} Uhr` : ''}`,
    clauses: 'Klauseln',
    clause: (name: string, version: number, variant: string, outdated: boolean) =>
      `${name}: Version ${version}, Variante „${variant}“${outdated ? ' – ältere Version' : ''}`,
    chain: 'Vertragskette',
    chainCurrent: '(dieser Vertrag)',
    history: 'Verlauf',
    historyTable: 'Verlauf des Vertrags',
    historyAt: 'Zeitpunkt',
    historyEvent: 'Ereignis',
    historyActor: 'Von',
    historyDetail: 'Angabe',
  },

  noticeForm: {
    heading: 'Kündigungsfrist von Hand festlegen',
    intro:
      'Für eine Frist, die nicht lesbar ist, oder zur Korrektur. Die letzte Kündigungsmöglichkeit wird neu berechnet.',
    amount: 'Anzahl',
    unit: 'Einheit',
    endPoint: 'Zum',
    reason: 'Grund',
    reasonPlaceholder: 'z. B. Laut Vertrag § 9 Abs. 2',
    submit: 'Frist festlegen',
    saved: 'Die Kündigungsfrist ist festgelegt.',
    failed: 'Die Kündigungsfrist konnte nicht festgelegt werden.',
    noEndPoint: 'ohne Termin',
  },
};

export const NOTICE_UNIT_LABELS: Record<NoticeUnit, string> = {
  days: 'Tage',
  weeks: 'Wochen',
  months: 'Monate',
};

export const NOTICE_END_POINT_LABELS: Record<NoticeEndPoint, string> = {
  month: 'Monatsende',
  quarter: 'Quartalsende',
  year: 'Jahresende',
  'mid-or-end-of-month': '15. oder Monatsende',
};

export const NOTICE_RULE_SOURCE_LABELS: Record<NoticeRuleSource, string> = {
  read: 'aus dem Text der Kündigungsfrist gelesen',
  manual: 'von Legal von Hand festgelegt',
  unreadable: 'nicht lesbar',
  missing: 'keine Kündigungsfrist eingetragen',
};

/** The events of a record's history; an unknown one shows its code. */
export const HISTORY_EVENT_LABELS: Record<string, string> = {
  created: 'Aus dem abgeschlossenen Umschlag erfasst',
  signed_elsewhere: 'Als anderweitig unterschrieben erfasst',
  terminated: 'Gekündigt',
  extended: 'Verlängert',
  notice_rule_set: 'Kündigungsfrist von Hand festgelegt',
};
