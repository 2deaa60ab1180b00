/** The German texts of the negotiation panel on the editor page („Verhandlung“). */
export const reviewTexts = {
  heading: 'Verhandlung',
  loadFailed: 'Die Verhandlung konnte nicht geladen werden.',
  retry: 'Erneut versuchen',
  intro:
    'Sende den Vertrag der Gegenseite zur Prüfung: Jede Person bekommt einen eigenen Link, kommentiert und schlägt Änderungen vor. Du nimmst jeden Vorschlag an oder lehnst ihn ab.',
  saveFirst: 'Speichere erst deine Änderungen im Editor: Die Gegenseite bekommt die gespeicherte Fassung.',
  decideSaveFirst:
    'Speichere oder verwirf erst deine Änderungen im Editor, bevor du über Vorschläge entscheidest.',
  start: 'Zur Prüfung senden',
  state: { open: 'Offen', agreed: 'Vereinbart', withdrawn: 'Beendet' },
  stateLabel: 'Stand',
  waiting: (round: number, due: string) => `Die Gegenseite prüft Runde ${round}; Antwort bis ${due}.`,
  decideFirst: (open: number) =>
    open === 1
      ? 'Entscheide erst über den offenen Vorschlag; dann kannst du die nächste Runde senden oder die Fassung vereinbaren.'
      : `Entscheide erst über die ${open} offenen Vorschläge; dann kannst du die nächste Runde senden oder die Fassung vereinbaren.`,
  readyForNext:
    'Alle Vorschläge sind entschieden: Sende die nächste Runde oder schließe die Verhandlung mit der vereinbarten Fassung ab.',
  agreedOn: (name: string, date: string, version: number | null) =>
    version === null
      ? `Vereinbart von ${name} am ${date}.`
      : `Version ${version} vereinbart von ${name} am ${date}.`,
  toEnvelope: 'Zum Umschlag für die Unterschrift',
  withdrawnNotice: 'Die Verhandlung ist beendet. Die Links der Gegenseite gelten nicht mehr.',

  actions: {
    nextRound: 'Nächste Runde senden',
    agree: 'Als vereinbart abschließen',
    agreeAndSign: 'Zur Unterschrift senden',
    agreeTitle: 'Fassung vereinbaren',
    agreeText: (version: number | undefined) =>
      version === undefined
        ? 'Die neueste Version wird die vereinbarte Fassung. Die Links der Gegenseite enden.'
        : `Version ${version} wird die vereinbarte Fassung. Die Links der Gegenseite enden.`,
    agreeToEnvelope: 'Danach öffnet sich der Umschlag, mit dem sie zur Unterschrift geht.',
    agreed: 'Als vereinbart abgeschlossen.',
    withdraw: 'Verhandlung beenden',
    withdrawTitle: 'Verhandlung beenden?',
    withdrawText:
      'Die Links der Gegenseite werden ungültig, sie kann nichts mehr kommentieren oder zurücksenden. Runden und Kommentare bleiben hier zu sehen.',
    withdrawn: 'Die Verhandlung ist beendet.',
    cancel: 'Abbrechen',
  },

  form: {
    startTitle: 'Zur Prüfung an die Gegenseite',
    nextTitle: (round: number) => `Runde ${round} an die Gegenseite`,
    reviewers: 'Personen der Gegenseite',
    reviewersHint: (max: number) => `Jede Person bekommt ihren eigenen Link per E-Mail (höchstens ${max}).`,
    reviewer: (index: number) => `Person ${index}`,
    name: 'Name',
    email: 'E-Mail-Adresse',
    remove: (index: number) => `Person ${index} entfernen`,
    add: 'Person hinzufügen',
    message: 'Nachricht an die Gegenseite',
    messageHint: 'Steht in der E-Mail mit dem Link (optional).',
    dueDate: 'Antwort bis',
    fixFields: 'Bitte prüfe die rot markierten Felder.',
    submitStart: 'Zur Prüfung senden',
    submitNext: 'Nächste Runde senden',
    cancel: 'Abbrechen',
    sent: (round: number) => `Runde ${round} ist gesendet: Die Links sind unterwegs.`,
    pastDue: 'Das Datum liegt in der Vergangenheit.',
  },

  rounds: {
    heading: 'Runden',
    round: (number: number) => `Runde ${number}`,
    state: { sent: 'Gesendet', returned: 'Zurückgesendet', withdrawn: 'Zurückgezogen' },
    sent: (by: string, date: string) => `Gesendet von ${by} am ${date}`,
    sentVersion: (version: number) => `Version ${version}`,
    returnedVersion: (version: number) => `Zurück als Version ${version}`,
    sha: 'SHA-256',
    fullSha: (sha: string) => `SHA-256 vollständig: ${sha}`,
    due: (date: string) => `Antwort bis ${date}`,
    message: 'Nachricht',
    returned: (by: string | null, date: string) =>
      by ? `Zurückgesendet von ${by} am ${date}` : `Zurückgesendet am ${date}`,
    via: {
      browser: 'Änderungen im Browser vorgeschlagen',
      upload: 'Eigene Word-Datei hochgeladen',
      none: 'Ohne Änderungen zurückgesendet',
    },
    reviewersLabel: (round: number) => `Personen der Runde ${round}`,
    opened: (date: string) => `Geöffnet am ${date}`,
    notOpened: 'Noch nicht geöffnet',
    reminded: (date: string) => `Erinnert am ${date}`,
    validUntil: (date: string) => `Link gültig bis ${date}`,
    expired: (date: string) => `Link abgelaufen am ${date}`,
    withdrawnAt: (date: string) => `Link zurückgezogen am ${date}`,
    renew: 'Link erneuern',
    renewFor: (name: string) => `Link erneuern für ${name}`,
    renewed: (email: string) => `Ein neuer Link ist an ${email} unterwegs; der alte gilt nicht mehr.`,
    withdrawLink: 'Link zurückziehen',
    withdrawLinkFor: (name: string) => `Link zurückziehen für ${name}`,
    withdrawLinkTitle: (name: string) => `Link von ${name} zurückziehen?`,
    withdrawLinkText:
      'Die Person kann die Prüfung mit diesem Link nicht mehr öffnen. Mit „Link erneuern“ bekommt sie später einen neuen.',
    linkWithdrawn: (name: string) => `Der Link von ${name} ist zurückgezogen.`,
    suggestionCounts: (counts: { accepted: number; rejected: number; open: number }) => {
      const total = counts.accepted + counts.rejected + counts.open;
      const parts = [
        total === 1 ? '1 Vorschlag' : `${total} Vorschläge`,
        `${counts.accepted} angenommen`,
        `${counts.rejected} abgelehnt`,
        ...(counts.open > 0 ? [`${counts.open} offen`] : []),
      ];
      return parts.join(' · ');
    },
  },

  suggestions: {
    heading: (round: number) => `Vorschläge der Gegenseite (Runde ${round})`,
    none: 'Die Gegenseite hat in dieser Runde keine Änderungen vorgeschlagen.',
    list: 'Vorschläge',
    kind: { insert: 'Einfügung', delete: 'Löschung' },
    inserted: 'eingefügt',
    deleted: 'gestrichen',
    context: 'Im Absatz',
    by: (author: string, date: string) => `${author} am ${date}`,
    outcome: { open: 'Offen', accepted: 'Angenommen', rejected: 'Abgelehnt' },
    decided: (outcome: string, by: string | null, date: string) =>
      by ? `${outcome} von ${by} am ${date}` : `${outcome} am ${date}`,
    accept: 'Annehmen',
    reject: 'Ablehnen',
    acceptAll: 'Alle annehmen',
    rejectAll: 'Alle ablehnen',
    openCount: (open: number) => (open === 1 ? '1 offener Vorschlag' : `${open} offene Vorschläge`),
    conflictTitle: 'Das Dokument wurde inzwischen geändert',
    conflictReloaded: 'Die neueste Version ist geladen. Bitte entscheide noch einmal.',
    failedTitle: 'Die Entscheidung wurde nicht gespeichert',
  },

  comments: {
    heading: 'Kommentare',
    none: 'Noch keine Kommentare.',
    threads: 'Kommentare',
    side: { company: 'Firma', counterparty: 'Gegenseite' },
    internal: 'Intern',
    round: (round: number) => `Runde ${round}`,
    quote: 'Zur Textstelle',
    reply: 'Antworten',
    replyTo: (author: string) => `Antworten auf ${author}`,
    replyForm: (author: string) => `Antwort auf ${author}`,
    replyLabel: 'Deine Antwort',
    replyInternalOnly: 'Die Antwort auf eine interne Notiz bleibt intern.',
    visibility: 'Sichtbar',
    external: 'Für die Gegenseite',
    internalOption: 'Intern',
    send: 'Senden',
    cancel: 'Abbrechen',
    newHeading: 'Neuer Kommentar',
    text: 'Kommentar',
    quoteLabel: 'Textstelle (optional)',
    quoteHint: 'Die Stelle im Vertrag, um die es geht.',
    add: 'Kommentar speichern',
    saved: 'Kommentar gespeichert.',
    closed: 'Die Verhandlung ist abgeschlossen: Kommentare sind nur noch zu lesen.',
  },

  differences: {
    heading: 'Abweichungen von der Vorlage',
    intro: (version: number) =>
      `Die Absätze der Version ${version}, die von dem abweichen, was die Vorlage für diesen Deal erstellt hat.`,
    none: 'Keine Abweichungen: Der Text entspricht dem erstellten.',
    count: (total: number, marked: number) =>
      `${total === 1 ? '1 Absatz weicht ab' : `${total} Absätze weichen ab`}${marked > 0 ? `, davon ${marked} mit Freigabe-Markierung` : ''}.`,
    list: 'Abweichende Absätze',
    marked: 'Freigabe nötig bei Änderung',
    added: 'Absatz neu',
    removed: 'Absatz gestrichen',
    changed: 'Absatz geändert',
    insertedWords: 'eingefügt',
    deletedWords: 'gestrichen',
    loadFailed: 'Die Abweichungen konnten nicht geladen werden.',
  },
};
