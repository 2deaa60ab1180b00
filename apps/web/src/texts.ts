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

  pageNames: {
    start: 'ID-Input',
    format: 'Format',
  },
  forms: formTitles,

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

  formPlaceholder: 'Dieses Formular ist noch in Arbeit.',

  notFound: {
    heading: 'Seite nicht gefunden',
    text: 'Diese Seite gibt es nicht.',
    backToStart: 'Zur Match-ID-Eingabe',
  },
} as const;
