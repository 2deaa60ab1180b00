/** The generation flow's words for a document that needs an approval before it is handed out. */
export const approvalTexts = {
  heldTitle: 'Freigabe nötig',
  held: 'Dieses Dokument braucht eine Freigabe, bevor du es bekommst. Es ist gespeichert; sende es zur Freigabe:',
  ask: 'Zur Freigabe senden',
  waitingTitle: 'Wartet auf Freigabe',
  waiting:
    'Die Freigebenden haben eine Mail bekommen und sehen die Anfrage unter Freigaben. Sobald das Dokument freigegeben ist, lädst du es in der Dokumentliste des Matches auf der Startseite herunter – oder über den Link in der Mail mit der Entscheidung.',
  toStart: 'Zur Startseite',
};
