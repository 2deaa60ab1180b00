/** The German texts of the signer's code step and the sender's code setting. */
export const codeTexts = {
  heading: 'Bestätige deine E-Mail-Adresse',
  intro:
    'Bevor sich das Dokument öffnet, bestätigst du mit einem Code, dass die Einladung bei dir angekommen ist.',
  sending: (email: string) => `Wir senden dir einen Code an ${email} …`,
  sent: (email: string) => `Wir haben dir einen Code an ${email} geschickt.`,
  notSent: (email: string) => `Wir senden den Code an ${email}.`,
  validity: 'Der Code gilt 10 Minuten. Ein neuer Code ersetzt den vorherigen.',
  resent: 'Wir haben dir einen neuen Code geschickt. Der vorherige gilt nicht mehr.',
  codeLabel: 'Code aus der E-Mail (6 Ziffern)',
  codeFormat: 'Bitte gib die 6 Ziffern aus der E-Mail ein.',
  confirm: 'Bestätigen',
  send: 'Code senden',
  resend: 'Code erneut senden',
  resendIn: (seconds: number) => `Code erneut senden (in ${seconds} s)`,
  locked: (time: string) => `Zu viele falsche Codes. Der Link ist bis ${time} Uhr gesperrt.`,
  documentHash: 'Prüfsumme des Dokuments (SHA-256)',
  documentHashHint:
    'Sie kennzeichnet genau dieses Dokument; das Abschlusszertifikat nennt dieselbe Prüfsumme.',
  draftLabel: 'Unterzeichner bestätigen sich mit einem Code per E-Mail',
  draftOptional:
    'Bevor sich das Dokument öffnet, gibt jeder Unterzeichner einen 6-stelligen Code ein, den wir an seine Adresse senden.',
  draftRequired:
    'Für alle Umschläge vorgeschrieben: Bevor sich das Dokument öffnet, gibt jeder Unterzeichner einen 6-stelligen Code ein.',
};
