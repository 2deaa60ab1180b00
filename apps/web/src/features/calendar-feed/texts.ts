/** The German texts of the calendar subscription. */
export const calendarFeedTexts = {
  heading: 'Kalender abonnieren',
  intro:
    'Mit einem persönlichen Link zeigt Outlook oder Google Kalender die Kündigungsfristen und Vertragsenden deiner Verträge als ganztägige Termine.',
  none: 'Du hast noch keinen Link.',
  since: (date: string) => `Du hast einen Link seit ${date}. Er wird nur beim Erstellen angezeigt.`,
  create: 'Link erstellen',
  replace: 'Neuen Link erstellen',
  replaceHint: 'Ein neuer Link ersetzt den alten: Kalender mit dem alten Link zeigen dann nichts mehr.',
  created: 'Dein Link zum Abonnieren',
  once: 'Kopiere ihn jetzt: er wird nur dieses eine Mal angezeigt. Wer ihn kennt, sieht deine Vertragsfristen — gib ihn nicht weiter.',
  how: 'In Outlook: Kalender hinzufügen → Aus dem Internet abonnieren. In Google Kalender: Weitere Kalender → Per URL. Der Kalender aktualisiert sich von selbst.',
  urlLabel: 'Link zum Abonnieren',
  copy: 'Link kopieren',
  copied: 'Kopiert',
  done: 'Fertig',
  revoke: 'Link widerrufen',
  revokeQuestion:
    'Link wirklich widerrufen? Kalender, die ihn abonniert haben, zeigen die Fristen dann nicht mehr.',
  revokeConfirm: 'Widerrufen',
  cancel: 'Abbrechen',
  revoked: 'Der Link ist widerrufen.',
};
