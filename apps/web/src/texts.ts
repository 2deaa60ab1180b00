import type { FormName } from '@vertragsgenerator/domain';

/** Every German UI string of the SPA (DESIGN §3, §10.8: informal "du"). */

const formTitles = {
  docusign: 'DocuSign-Verträge',
  docx: 'DOCX-Kunde-Verträge',
  termination: 'Kündigungen',
  offer: 'Angebotserstellung',
  agreement: 'Zusatzvereinbarungen',
} as const satisfies Record<FormName, string>;

const noPermission = 'Du hast noch keine Berechtigung. Bitte beantrage den Zugang bei Team-Operations.';

export const texts = {
  appTitle: 'Vertragsgenerator',
  startupFailed: 'Der Vertragsgenerator konnte nicht geladen werden. Bitte lade die Seite neu.',
  unexpectedError: 'Ein unerwarteter Fehler ist aufgetreten. Bitte lade die Seite neu.',
  loading: 'Wird geladen …',
  close: 'Schließen',
  downloadFailed: 'Die Datei konnte nicht heruntergeladen werden. Bitte versuche es erneut.',

  pageNames: {
    start: 'ID-Input',
    format: 'Format',
  },

  api: {
    network: 'Der Server ist nicht erreichbar. Bitte versuche es erneut.',
    unexpectedAnswer: 'Der Server hat unerwartet geantwortet. Bitte versuche es erneut.',
  },

  login: {
    signInWith: (providerName: string) => `Mit ${providerName} anmelden`,
    popupClosed:
      'Das Anmeldefenster wurde geschlossen, bevor die Anmeldung abgeschlossen war. Bitte versuche es erneut.',
    saveUserFailed: 'Bei der Anmeldung ist ein Fehler aufgetreten. Bitte versuche es erneut.',
    authenticationFailed:
      'Die Authentifizierung ist fehlgeschlagen. Bitte versuche es erneut. Details findest du in der Konsole.',
    noPermission,
  },

  authCallback: {
    completing: 'Anmeldung wird abgeschlossen …',
    failed: 'Die Anmeldung konnte nicht abgeschlossen werden. Du kannst dieses Fenster schließen.',
  },

  shell: {
    breadcrumbsLabel: 'Besuchte Seiten',
    version: (version: string) => `Version ${version}`,
    logout: 'Logout',
    logoutFailed: 'Etwas ist schiefgelaufen...',
  },

  problemReport: {
    open: 'Problem melden',
    title: 'Problem melden',
    subject: 'Betreff',
    description: 'Beschreibung',
    submit: 'Absenden',
    cancel: 'Abbrechen',
    failed: 'Das Problem konnte nicht gemeldet werden. Bitte versuche es erneut.',
    sentTitle: 'Problem gemeldet',
    sent: (subject: string) =>
      `Danke für deine Meldung! Dein Problem „${subject}“ wurde an den Support gemeldet.`,
  },

  match: {
    heading: 'Match-ID eingeben',
    help: 'Fehler in den Deal-Daten korrigierst du im CRM und gibst danach die Match-ID erneut ein. Einzelne Felder kannst du auch später im Signaturanbieter (DocuSign) ändern.',
    idLabel: 'Match-ID',
    idPlaceholder: 'PL-12345',
    confirm: 'Bestätigen',
    next: 'Weiter',
    unknownId: 'Die Match-ID ist nicht korrekt. Bitte gib die ID erneut ein.',
    tableCaption: (matchId: string) => `Match ${matchId}`,
    hintsTitle: 'Bitte prüfen',
  },

  format: {
    heading: 'Format wählen',
    intro: 'Welches Dokument möchtest du erstellen?',
    noPermission,
  },

  fields: {
    name: (label: string) => `${label} Name`,
    email: (label: string) => `${label} E-Mail`,
    count: (label: string) => `Anzahl ${label}`,
    entry: (label: string, index: number) => `${label} ${index}`,
    customRecipient: 'Eigener Wert...',
    usersFailed:
      'Die Liste der Mitarbeitenden konnte nicht geladen werden. Du kannst einen eigenen Wert eingeben.',
  },

  forms: {
    ...formTitles,
    counter: (filled: number, total: number) => `${filled}/${total} Felder ausgefüllt`,
    fillRedFields: 'Bitte fülle alle rot markierten Felder aus.',
    invalidChoice: 'Ungültige Auswahl',
    submit: 'Dokument erstellen',
    matchLabel: 'Match',
    customer: 'Kunde',
    projectPartner: 'Projektpartner',
    backToStart: 'Zurück zur Match-ID-Eingabe',
    noMatch: 'Es ist noch kein Match geladen. Bitte gib zuerst auf der Startseite eine Match-ID ein.',
    missingTitle: 'Im Match fehlen Angaben für dieses Dokument',
    missingHint:
      'Ergänze sie im CRM und gib die Match-ID danach auf der Startseite erneut ein. Du kannst das Dokument auch jetzt erstellen; die Stellen bleiben dann leer.',
    fixedPartner: 'Vertragspartner: Projektpartner',
    labels: {
      language: 'Sprache',
      company: 'Gesellschaft',
      contract: 'Vertragsart',
      partner: 'Vertragspartner',
      customerSigners: 'Unterschriftsblöcke Kunde',
      customerSigner: 'Unterzeichner Kunde',
      projectPartnerSigner: 'Projektpartner',
      sender: 'Absender',
      cc: 'CC',
      document: 'Dokumentart',
      deadline: 'Kündigungsart',
      signatory: 'Unterzeichner',
      position: 'Position',
      projectHours: 'Projektstunden',
      projectDays: 'Projekttage',
      agreement: 'Art der Vereinbarung',
    },
    options: {
      de: 'Deutsch',
      en: 'Englisch',
      wm: 'WM Consulting GmbH',
      we: 'WE Engineering GmbH',
      wp: 'WP Projects GmbH',
      rv: 'Rahmenvertrag',
      ev: 'Einzelauftrag',
      k: 'Kunde',
      pp: 'Projektpartner',
      termination: 'Kündigung',
      confirmation: 'Kündigungsbestätigung',
      gerecht: 'Fristgerecht',
      los: 'Fristlos',
      descr: 'Aufgabenbeschreibung',
      hours: 'Stunden',
      misc: 'Sonstiges',
    },
    signatoriesFailed: 'Die Liste der Unterzeichner konnte nicht geladen werden. Bitte lade die Seite neu.',
  },

  generation: {
    progressLabel: 'Fortschritt der Dokumenterstellung',
    steps: {
      20: 'Angaben prüfen …',
      40: 'Anfrage senden …',
      60: 'Dokument erstellen …',
      80: 'Dokument empfangen …',
      95: 'Dokument öffnen …',
      100: 'Fertig',
    },
    attempt: (attempt: number, total: number) => `Versuch ${attempt} von ${total}`,
    failed:
      'Das zugehörige Dokument konnte nicht geladen werden. Es existiert kein passendes Template für die gewählten Daten.',
    popupTitle: 'Neuer Tab blockiert',
    popupText:
      'Dein Browser hat verhindert, dass das Dokument in einem neuen Tab geöffnet wird. Du kannst es im aktuellen Tab öffnen.',
    popupHelp:
      'Damit es beim nächsten Mal klappt: Klicke in der Adressleiste auf das Symbol für blockierte Pop-ups und wähle „Pop-ups und Weiterleitungen von dieser Website immer zulassen“. In Firefox findest du das unter Einstellungen → Datenschutz & Sicherheit → Berechtigungen → Pop-up-Fenster blockieren → Ausnahmen.',
    openHere: 'Im aktuellen Tab öffnen',
  },

  documentViewer: {
    title: 'Dokument',
    loading: 'Dokument wird geladen …',
    failedTitle: 'Das Dokument kann hier nicht angezeigt werden',
    failed: 'Lade es herunter und öffne es auf deinem Gerät.',
    download: 'Dokument herunterladen',
  },

  envelope: {
    documentLabel: 'Dokument',
    matchLabel: 'Match',
    statusLabel: 'Status',
    recipientsHeading: 'Empfänger',
    recipientLegend: (index: number) => `Empfänger ${index}`,
    role: 'Rolle',
    name: 'Name',
    email: 'E-Mail',
    routingOrder: 'Reihenfolge',
    routingOrderHint: 'Gleiche Zahlen unterschreiben gleichzeitig.',
    routingOrderInvalid: 'Bitte gib eine Zahl von 1 bis 10 ein.',
    recipientStatus: 'Status',
    signedAt: 'Unterschrieben am',
    declineReason: 'Ablehnungsgrund',
    addSigner: 'Unterzeichner hinzufügen',
    addCc: 'CC hinzufügen',
    removeRecipient: (index: number) => `Empfänger ${index} entfernen`,
    subject: 'Betreff',
    message: 'Nachricht',
    send: 'Senden',
    fixFields: 'Bitte korrigiere die rot markierten Angaben.',
    sentTitle: 'Versendet',
    sent: 'Die Empfänger erhalten jetzt ihre Links zum Unterschreiben.',
    discard: 'Verwerfen',
    discardTitle: 'Umschlag verwerfen?',
    discardText:
      'Danach kann niemand mehr über diesen Umschlag unterschreiben. Das lässt sich nicht rückgängig machen.',
    discardReason: 'Begründung (optional)',
    cancel: 'Abbrechen',
    discardedTitle: 'Verworfen',
    discarded: 'Der Umschlag wurde verworfen.',
    eventsHeading: 'Verlauf',
    eventTime: 'Zeit',
    eventType: 'Ereignis',
    eventActor: 'Von',
    eventIp: 'IP-Adresse',
    downloadDocument: 'Dokument herunterladen',
    downloadCertificate: 'Zertifikat herunterladen',
    certificateFileName: (fileName: string) => `Abschlusszertifikat ${fileName.replace(/\.docx$/i, '')}.pdf`,
  },

  signing: {
    linkErrorTitle: 'Dieser Link funktioniert nicht',
    missingToken: 'Der Link ist unvollständig. Bitte öffne ihn direkt aus deiner E-Mail.',
    loadFailedTitle: 'Die Seite konnte nicht geladen werden',
    retry: 'Erneut versuchen',
    sentBy: 'Gesendet von',
    message: 'Nachricht',
    signHeading: 'Unterschreiben',
    consent:
      'Ich stimme zu, dieses Dokument elektronisch zu unterschreiben. Meine elektronische Unterschrift ist so verbindlich wie eine handschriftliche.',
    typedName: 'Dein vollständiger Name',
    drawnSignature: 'Unterschrift zeichnen (optional)',
    drawnSignatureHint: 'Zeichne mit der Maus, dem Finger oder einem Stift in das Feld.',
    clearDrawing: 'Löschen',
    sign: 'Unterschreiben',
    decline: 'Ablehnen',
    declineTitle: 'Unterschrift ablehnen',
    declineText: (senderName: string) => `${senderName} erfährt, dass du ablehnst, und liest deinen Grund.`,
    declineReason: 'Grund der Ablehnung',
    cancel: 'Abbrechen',
    signedTitle: 'Vielen Dank',
    signed:
      'Vielen Dank, du hast unterschrieben. Sobald alle unterschrieben haben, erhältst du das Dokument und das Abschlusszertifikat per E-Mail.',
    declinedTitle: 'Du hast abgelehnt',
    declined: (senderName: string) =>
      `Du hast das Dokument abgelehnt. ${senderName} wurde darüber informiert.`,
  },

  history: {
    heading: 'Dokumente dieses Matches',
    empty: 'Für dieses Match wurden noch keine Dokumente erstellt.',
    document: 'Dokument',
    createdBy: 'erstellt von',
    createdAt: 'am',
    status: 'Status',
    version: 'Version',
    actions: 'Aktionen',
    documentStatus: { rendering: 'Wird erstellt', ready: 'Erstellt', failed: 'Fehlgeschlagen' },
    download: 'Herunterladen',
    openEnvelope: 'Umschlag öffnen',
    certificate: 'Zertifikat',
  },

  notFound: {
    heading: 'Seite nicht gefunden',
    text: 'Diese Seite gibt es nicht.',
    backToStart: 'Zur Match-ID-Eingabe',
  },
} as const;
