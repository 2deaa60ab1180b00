import type { ApprovalStatus } from '@vertragsgenerator/domain';
import type { BatchKind } from './document-choice';

const count = (n: number, one: string, many: string) =>
  n === 1 ? `1 ${one}` : `${n.toLocaleString('de-DE')} ${many}`;

/** The kinds of document a batch makes, as the choice „Dokument“ names them. */
export const BATCH_KIND_LABELS: Record<BatchKind, string> = {
  extension: 'Verlängerung',
  agreement: 'Zusatzvereinbarung',
  termination: 'Kündigung/Kündigungsbestätigung',
  offer: 'Angebot',
  docx: 'DOCX-Kundenvertrag',
  esignature: 'E-Signatur-Vertrag',
};

/** The German texts of /serien and /serien/:batchId. */
export const batchesTexts = {
  heading: 'Serien',
  intro:
    'Ein Dokument für viele Deals auf einmal: Die Serie wird zuerst geprüft, erstellt wird erst, wenn du sie startest.',

  form: {
    heading: 'Neue Serie',
    kind: 'Dokument',
    noDocuments:
      'Es gibt kein Dokument, das du als Serie erstellen darfst. Serien gibt es für Verlängerungen, Zusatzvereinbarungen, Kündigungen, Angebote, DOCX-Kundenverträge und E-Signatur-Verträge.',
    invalidChoice: 'Diese Auswahl gibt es nicht, oder du darfst dieses Dokument nicht erstellen.',
    commonValues: 'Werte für alle Deals',
    newEndFromFile: 'Leer lassen, wenn die Datei eine Spalte „Neues Ende“ hat.',
    deals: 'Deals',
    matchIds: 'Match-IDs',
    matchIdsHelp: 'Eine pro Zeile, oder durch Komma oder Semikolon getrennt.',
    matchIdsCount: (n: number) => count(n, 'Match-ID', 'Match-IDs'),
    tooManyDeals: (max: number) => `Höchstens ${max.toLocaleString('de-DE')} Deals je Serie.`,
    file: 'CSV- oder Excel-Datei',
    removeFile: 'Datei entfernen',
    fileHelp:
      'Spalte Match-ID, dazu je Deal abweichende Werte (z. B. Neues Ende) in Spalten, die wie die Felder heißen. Werte aus der Datei gehen den Werten oben vor.',
    fileHelpEsignature:
      'Spalte Match-ID, dazu je Deal die Unterzeichner: „Unterzeichner“ und „Unterzeichner E-Mail“ (bei zwei Unterschriftsblöcken auch „Unterzeichner 2“ und „Unterzeichner 2 E-Mail“), optional „Kopie an“ und „Kopie an E-Mail“.',
    fileTooLarge: 'Die Datei ist zu groß (höchstens 3 MB).',
    noDeals: 'Bitte gib Match-IDs ein oder wähle eine Datei.',
    problems: 'Das ist bei der Prüfung aufgefallen:',
    check: 'Prüfen',
    checkFailed: 'Die Serie konnte nicht geprüft werden.',
  },

  /** „Versand“ of an e-signature batch: how every deal's envelope goes out. */
  send: {
    heading: 'Versand',
    intro: 'Gilt für die Umschläge aller Deals dieser Serie.',
    countersignatory: 'Gegenzeichnung (Firma)',
    without: 'Ohne Gegenzeichnung',
    optionsFailed: 'Wer gegenzeichnen kann, konnte nicht geladen werden.',
    message: 'Nachricht an die Unterzeichner',
    messageHelp: 'Optional. Steht in jeder E-Mail mit dem Link zum Unterschreiben.',
    messageTooLong: 'Die Nachricht ist zu lang (max. 4.000 Zeichen).',
  },

  list: {
    heading: 'Meine Serien',
    table: 'Meine Serien',
    title: 'Serie',
    status: 'Status',
    createdAt: 'Erstellt am',
    done: 'Erstellt',
    failed: 'Fehlgeschlagen',
    deals: 'Deals',
    empty: 'Du hast noch keine Serie erstellt.',
    loadFailed: 'Deine Serien konnten nicht geladen werden.',
  },

  batch: {
    back: 'Zurück zu den Serien',
    loadFailed: 'Die Serie konnte nicht geladen werden.',
    notFoundTitle: 'Serie nicht gefunden',
    created: (at: string, deals: number) => `Erstellt am ${at} · ${count(deals, 'Deal', 'Deals')}`,
    check: 'Prüfung',
    checkSummary: (ready: number, approval: number, cannot: number) =>
      `${ready.toLocaleString('de-DE')} bereit, ${approval.toLocaleString('de-DE')} ${approval === 1 ? 'braucht' : 'brauchen'} Freigabe, ${cannot.toLocaleString('de-DE')} nicht möglich`,
    checkTable: 'Ergebnis der Prüfung',
    previews: 'Vorschau',
    previewsHelp: 'Die ersten Dokumente, wie sie erstellt würden (nicht gespeichert):',
    preview: (matchId: string) => `Vorschau ${matchId}`,
    start: 'Serie starten',
    startHelp:
      'Erst mit dem Start werden die Dokumente erstellt: eins je Deal, der bereit ist oder Freigabe braucht.',
    nothingToStart:
      'Kein Deal ist bereit: Es gibt nichts zu erstellen. Korrigiere die Angaben und lege eine neue Serie an.',
    actionFailed: 'Das hat nicht geklappt.',
    progress: 'Fortschritt',
    progressLabel: 'Fortschritt der Serie',
    counts: (done: number, failed: number, waiting: number) =>
      `${done.toLocaleString('de-DE')} erstellt, ${failed.toLocaleString('de-DE')} fehlgeschlagen, ${waiting.toLocaleString('de-DE')} wartend`,
    /** Among those made: their document waits for Freigabe before it may go out. */
    awaitingApproval: (n: number) =>
      n === 1 ? 'Davon wartet 1 auf Freigabe' : `Davon warten ${n.toLocaleString('de-DE')} auf Freigabe`,
    cancelledCount: (n: number) => `${count(n, 'Deal', 'Deals')} abgebrochen`,
    timeLeft: (seconds: number) => {
      if (seconds < 60) {
        const s = Math.max(1, Math.round(seconds));
        return `noch etwa ${s === 1 ? '1 Sekunde' : `${s} Sekunden`}`;
      }
      const minutes = Math.round(seconds / 60);
      return `noch etwa ${minutes === 1 ? '1 Minute' : `${minutes.toLocaleString('de-DE')} Minuten`}`;
    },
    runTable: 'Deals der Serie',
    retry: 'Fehlgeschlagene erneut versuchen',
    cancel: 'Abbrechen',
    cancelTitle: 'Serie abbrechen?',
    cancelText: (waiting: number) =>
      `${count(waiting, 'Deal, der noch wartet, wird', 'Deals, die noch warten, werden')} nicht mehr erstellt. Schon erstellte Dokumente bleiben.`,
    cancelConfirm: 'Serie abbrechen',
    cancelKeep: 'Weiterlaufen lassen',
    openDocument: 'Dokument öffnen',
    openDocumentOf: (matchId: string) => `Dokument öffnen (${matchId})`,
    openEnvelope: 'Umschlag öffnen',
    openEnvelopeOf: (matchId: string) => `Umschlag öffnen (${matchId})`,
    /** The envelopes' send, once above the deals. */
    send: 'Versand',
    countersignatory: 'Gegenzeichnung',
    without: 'Ohne Gegenzeichnung',
    message: 'Nachricht an die Unterzeichner',
    noMessage: 'Keine Nachricht',
    approvalStates: {
      open: 'Freigabe offen',
      approved: 'Freigegeben',
      declined: 'Abgelehnt',
      void: 'Hinfällig',
    } satisfies Record<ApprovalStatus, string>,
    openApproval: 'Zur Freigabe',
    openApprovalOf: (matchId: string) => `Zur Freigabe (${matchId})`,
  },

  columns: {
    position: 'Zeile',
    matchId: 'Match-ID',
    counterparty: 'Gegenseite',
    verdict: 'Ergebnis',
    reason: 'Grund',
    status: 'Status',
    note: 'Hinweis',
    approval: 'Freigabe',
    document: 'Dokument',
  },
  none: '–',
};
