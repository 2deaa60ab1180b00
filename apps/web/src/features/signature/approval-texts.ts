/** The sender view's words for an envelope that needs an approval (Freigabe) before it is sent. */
export const approvalTexts = {
  send: 'Zur Freigabe senden',
  needed: 'Dieser Umschlag braucht vor dem Senden eine Freigabe',
  neededIntro:
    'Eine Leitung oder Legal prüft ihn; mit der Freigabe geht er sofort in deinem Namen an die Empfänger.',
  waiting: 'Wartet auf Freigabe',
  waitingText: (date: string) =>
    `Angefragt am ${date}. Sobald jemand freigibt, geht der Umschlag so an die Empfänger, wie du ihn angefragt hast.`,
  declined: 'Freigabe abgelehnt',
  declinedBy: (name: string, date: string) => `${name} hat am ${date} abgelehnt.`,
  declinedReason: (reason: string) => `Begründung: ${reason}`,
  declinedAgain: 'Ändere das Dokument oder den Umschlag und frage erneut an.',
  voided: 'Die Freigabe gilt nicht mehr',
  approved: 'Freigegeben',
  approvedBy: (name: string, date: string) => `Freigegeben von ${name} am ${date}.`,
  comment: (comment: string) => `Kommentar: ${comment}`,
  sending: 'Der Umschlag wird gesendet …',
  sendFailed: (error: string) => `Das Senden nach der Freigabe ist fehlgeschlagen: ${error}`,
  askedTitle: 'Zur Freigabe gesendet',
  asked: 'Die Freigebenden sind benachrichtigt. Du erhältst eine E-Mail, sobald entschieden ist.',
};
