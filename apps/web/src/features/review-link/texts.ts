import type { EmailCodeStepTexts } from '@/components/email-code-step';
import { reviewIntro } from './intro-texts';

/**
 * The review page's texts in both languages a contract is written in: the page speaks the contract's
 * language (`view.language`), and German until the view is there. The counterparty is a business
 * customer or partner: German addresses them with „Sie“.
 */
export type ReviewLanguage = 'de' | 'en';

const de = {
  appTitle: 'Vertragsgenerator',
  pageTitle: 'Vertragsprüfung',
  lang: 'de' as ReviewLanguage,
  locale: 'de-DE',
  loading: 'Wird geladen …',

  linkErrorTitle: 'Dieser Link funktioniert nicht',
  missingToken: 'Der Link ist unvollständig. Bitte öffnen Sie ihn direkt aus Ihrer E-Mail.',
  loadFailedTitle: 'Die Seite konnte nicht geladen werden',
  retry: 'Erneut versuchen',
  network: 'Der Server ist nicht erreichbar. Bitte versuchen Sie es erneut.',
  unexpected: 'Der Server hat unerwartet geantwortet. Bitte versuchen Sie es erneut.',
  /** Server messages in the reader's language where the page knows the code; German ones stay as sent. */
  serverErrors: {} as Partial<Record<string, string>>,

  code: {
    heading: 'Bestätigen Sie Ihre E-Mail-Adresse',
    intro:
      'Bevor sich der Vertrag öffnet, bestätigen Sie mit einem Code, dass die Einladung bei Ihnen angekommen ist.',
    sending: (email: string) => `Wir senden Ihnen einen Code an ${email} …`,
    sent: (email: string) => `Wir haben Ihnen einen Code an ${email} geschickt.`,
    notSent: (email: string) => `Wir senden den Code an ${email}.`,
    validity: 'Der Code gilt 10 Minuten. Ein neuer Code ersetzt den vorherigen.',
    resent: 'Wir haben Ihnen einen neuen Code geschickt. Der vorherige gilt nicht mehr.',
    codeLabel: 'Code aus der E-Mail (6 Ziffern)',
    codeFormat: 'Bitte geben Sie die 6 Ziffern aus der E-Mail ein.',
    confirm: 'Bestätigen',
    resend: 'Code erneut senden',
    resendIn: (seconds: number) => `Code erneut senden (in ${seconds} s)`,
    locked: (time: string) => `Zu viele falsche Codes. Der Link ist bis ${time} Uhr gesperrt.`,
  } satisfies EmailCodeStepTexts,

  intro: reviewIntro.de,
  round: (round: number) => `Runde ${round}`,
  sentBy: 'Gesendet von',
  message: 'Nachricht',
  dueDate: 'Antwort erbeten bis',
  returnedAt: (when: string) => `Zurückgesendet am ${when}`,
  returnedText:
    'Vielen Dank. Ihre Kommentare und Änderungsvorschläge liegen jetzt bei uns. Sie können hier nichts mehr ändern.',

  documentHeading: 'Vertrag',
  documentLabel: 'Vertrag',
  documentLoading: 'Vertrag wird geladen …',
  documentFailedTitle: 'Der Vertrag kann hier nicht angezeigt werden',
  documentFailed: 'Laden Sie ihn herunter und öffnen Sie ihn auf Ihrem Gerät.',
  download: 'Vertrag herunterladen (Word)',
  suggest: 'Änderungen vorschlagen',
  suggestHint:
    'Ihre Änderungen werden als Vorschläge mit Ihrem Namen und der Uhrzeit markiert. Wir entscheiden über jeden einzelnen.',
  editorLabel: 'Vertrag mit Ihren Änderungsvorschlägen',
  editorLoading: 'Der Editor wird geladen …',
  editorFirstView: 'Vorschau – der Editor wird geladen …',
  editorReady:
    'Sie können jetzt im Vertrag schreiben und löschen; jede Änderung wird als Vorschlag markiert.',
  editorFailed:
    'Der Editor konnte nicht geöffnet werden. Sie können den Vertrag herunterladen, in Word bearbeiten und die Datei unten hochladen.',

  commentsHeading: 'Kommentare',
  noComments: 'Noch keine Kommentare.',
  commentLabel: 'Kommentar',
  quoteLabel: 'Textstelle (optional)',
  quoteDescription: 'Markieren Sie eine Stelle im Vertrag und übernehmen Sie sie hierher.',
  takeSelection: 'Markierten Text übernehmen',
  noSelection: 'Bitte markieren Sie zuerst eine Textstelle im Vertrag.',
  selectionTaken: 'Die markierte Textstelle wurde übernommen.',
  newComment: 'Neuer Kommentar',
  postComment: 'Kommentar senden',
  commentEmpty: 'Bitte schreiben Sie einen Kommentar.',
  commentTooLong: (max: number) => `Der Kommentar ist zu lang (höchstens ${max} Zeichen).`,
  quoteTooLong: (max: number) => `Die Textstelle ist zu lang (höchstens ${max} Zeichen).`,
  commentPosted: 'Ihr Kommentar wurde gesendet.',
  reply: 'Antworten',
  replyTo: (author: string) => `Antworten auf ${author}`,
  replyLabel: 'Ihre Antwort',
  postReply: 'Antwort senden',
  cancel: 'Abbrechen',
  quoted: 'Textstelle',
  repliesOf: (author: string) => `Antworten auf den Kommentar von ${author}`,
  inRound: (round: number) => `Runde ${round}`,

  earlierHeading: 'Ihre Vorschläge aus früheren Runden',
  earlierRound: (round: number) => `Runde ${round}`,
  noEarlierSuggestions: 'In dieser Runde haben Sie keine Änderungen vorgeschlagen.',
  inserted: 'Eingefügt',
  deleted: 'Gelöscht',
  inParagraph: (context: string) => `Im Absatz: „${context}“`,
  outcome: { accepted: 'Angenommen', rejected: 'Abgelehnt', open: 'Offen' },
  earlierReplies: 'Antworten auf Ihre Kommentare stehen bei den Kommentaren.',

  returnHeading: 'Zurücksenden',
  returnIntro: (sender: string) =>
    `Wenn Sie fertig sind, senden Sie den Vertrag mit Ihren Kommentaren und Vorschlägen an ${sender} zurück.`,
  returnWith: {
    none: 'Sie senden Ihre Kommentare zurück, ohne Änderungen am Vertrag.',
    browser: 'Sie senden Ihre Änderungsvorschläge aus dem Editor und Ihre Kommentare zurück.',
    upload: (fileName: string) => `Sie senden Ihre Word-Datei „${fileName}“ und Ihre Kommentare zurück.`,
  },
  uploadLabel: 'Eigene Word-Datei hochladen',
  uploadDescription:
    'Sie haben den Vertrag in Word bearbeitet? Laden Sie Ihre Datei (.docx) hoch; Ihre Änderungen werden als Vorschläge übernommen.',
  uploadChosen: (fileName: string) => `Gewählte Datei: ${fileName}`,
  uploadRemove: 'Datei entfernen',
  uploadNotDocx: 'Bitte wählen Sie eine Word-Datei (.docx).',
  returnButton: 'Zurücksenden',
  confirmTitle: 'Vertrag jetzt zurücksenden?',
  confirmText: 'Nach dem Zurücksenden sind keine Änderungen mehr möglich.',
  confirmReturn: 'Ja, zurücksenden',
  exportFailed:
    'Ihre Änderungen konnten nicht aus dem Editor übernommen werden. Bitte versuchen Sie es erneut, oder laden Sie den Vertrag herunter und senden ihn als Word-Datei.',
};

export type ReviewTexts = typeof de;

const en: ReviewTexts = {
  appTitle: 'Vertragsgenerator',
  pageTitle: 'Contract review',
  lang: 'en',
  locale: 'en-GB',
  loading: 'Loading …',

  linkErrorTitle: 'This link does not work',
  missingToken: 'The link is incomplete. Please open it directly from your e-mail.',
  loadFailedTitle: 'The page could not be loaded',
  retry: 'Try again',
  network: 'The server cannot be reached. Please try again.',
  unexpected: 'The server gave an unexpected answer. Please try again.',
  serverErrors: {
    code_wrong: 'This code is not correct. Please check the code in the e-mail and try again.',
    code_expired: 'This code is no longer valid. Please request a new code.',
    code_resend_too_early: 'Please wait a moment before requesting another code.',
    verification_required: 'Please confirm your e-mail address with the code first.',
  },

  code: {
    heading: 'Confirm your e-mail address',
    intro: 'Before the contract opens, please confirm with a code that the invitation reached you.',
    sending: (email: string) => `We are sending you a code at ${email} …`,
    sent: (email: string) => `We have sent you a code at ${email}.`,
    notSent: (email: string) => `We will send the code to ${email}.`,
    validity: 'The code is valid for 10 minutes. A new code replaces the previous one.',
    resent: 'We have sent you a new code. The previous one no longer works.',
    codeLabel: 'Code from the e-mail (6 digits)',
    codeFormat: 'Please enter the 6 digits from the e-mail.',
    confirm: 'Confirm',
    resend: 'Send the code again',
    resendIn: (seconds: number) => `Send the code again (in ${seconds} s)`,
    locked: (time: string) => `Too many wrong codes. The link is locked until ${time} (Berlin time).`,
  },

  intro: reviewIntro.en,
  round: (round: number) => `Round ${round}`,
  sentBy: 'Sent by',
  message: 'Message',
  dueDate: 'Reply requested by',
  returnedAt: (when: string) => `Sent back on ${when}`,
  returnedText:
    'Thank you. We have received your comments and suggestions. Nothing can be changed here any more.',

  documentHeading: 'Contract',
  documentLabel: 'Contract',
  documentLoading: 'Loading the contract …',
  documentFailedTitle: 'The contract cannot be shown here',
  documentFailed: 'Download it and open it on your device.',
  download: 'Download the contract (Word)',
  suggest: 'Suggest changes',
  suggestHint:
    'Your changes are marked as suggestions with your name and the time. We decide on each of them.',
  editorLabel: 'Contract with your suggested changes',
  editorLoading: 'Loading the editor …',
  editorFirstView: 'Preview – loading the editor …',
  editorReady: 'You can now type and delete in the contract; every change is marked as a suggestion.',
  editorFailed:
    'The editor could not be opened. You can download the contract, edit it in Word and upload the file below.',

  commentsHeading: 'Comments',
  noComments: 'No comments yet.',
  commentLabel: 'Comment',
  quoteLabel: 'Passage (optional)',
  quoteDescription: 'Select a passage in the contract and take it over here.',
  takeSelection: 'Use selected text',
  noSelection: 'Please select a passage in the contract first.',
  selectionTaken: 'The selected passage has been taken over.',
  newComment: 'New comment',
  postComment: 'Send comment',
  commentEmpty: 'Please write a comment.',
  commentTooLong: (max: number) => `The comment is too long (at most ${max} characters).`,
  quoteTooLong: (max: number) => `The passage is too long (at most ${max} characters).`,
  commentPosted: 'Your comment has been sent.',
  reply: 'Reply',
  replyTo: (author: string) => `Reply to ${author}`,
  replyLabel: 'Your reply',
  postReply: 'Send reply',
  cancel: 'Cancel',
  quoted: 'Passage',
  repliesOf: (author: string) => `Replies to the comment of ${author}`,
  inRound: (round: number) => `Round ${round}`,

  earlierHeading: 'Your suggestions from earlier rounds',
  earlierRound: (round: number) => `Round ${round}`,
  noEarlierSuggestions: 'You suggested no changes in this round.',
  inserted: 'Inserted',
  deleted: 'Deleted',
  inParagraph: (context: string) => `In the paragraph: “${context}”`,
  outcome: { accepted: 'Accepted', rejected: 'Rejected', open: 'Open' },
  earlierReplies: 'Replies to your comments are shown with the comments.',

  returnHeading: 'Send back',
  returnIntro: (sender: string) =>
    `When you are done, send the contract with your comments and suggestions back to ${sender}.`,
  returnWith: {
    none: 'You are sending back your comments, without changes to the contract.',
    browser: 'You are sending back your suggested changes from the editor and your comments.',
    upload: (fileName: string) => `You are sending back your Word file “${fileName}” and your comments.`,
  },
  uploadLabel: 'Upload your own Word file',
  uploadDescription:
    'Did you edit the contract in Word? Upload your file (.docx); your changes are taken over as suggestions.',
  uploadChosen: (fileName: string) => `Chosen file: ${fileName}`,
  uploadRemove: 'Remove file',
  uploadNotDocx: 'Please choose a Word file (.docx).',
  returnButton: 'Send back',
  confirmTitle: 'Send the contract back now?',
  confirmText: 'After sending it back, no more changes are possible.',
  confirmReturn: 'Yes, send back',
  exportFailed:
    'Your changes could not be taken from the editor. Please try again, or download the contract and send it as a Word file.',
};

export const reviewTexts: Record<ReviewLanguage, ReviewTexts> = { de, en };
