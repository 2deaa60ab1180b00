import { formatDate, formatDateTime } from '@vertragsgenerator/domain';
import type { OutgoingMail } from '../mail/mail-outbox.js';

/**
 * The mails of a negotiation. Those to the counterparty speak the contract's language and address a
 * business partner („Sie“); replies go to whoever sent the round. The one to staff is German.
 */

export interface RoundForMail {
  reviewId: string;
  language: 'de' | 'en';
  fileName: string;
  senderName: string;
  senderEmail: string;
  message: string;
  dueDate: string;
  round: number;
}

/** What a round's mails say of it. */
export function roundForMail(
  review: { id: string; language: 'de' | 'en' },
  round: { sent_by_name: string; sent_by: string; message: string; due_date: string; number: number },
  fileName: string,
): RoundForMail {
  return {
    reviewId: review.id,
    language: review.language,
    fileName,
    senderName: round.sent_by_name,
    senderEmail: round.sent_by,
    message: round.message,
    dueDate: round.due_date,
    round: round.number,
  };
}

interface Person {
  name: string;
  email: string;
}

const title = (round: RoundForMail) => round.fileName.replace(/\.docx$/i, '');

/** `2026-12-24` as the contract's language writes a day. */
function day(iso: string, language: 'de' | 'en'): string {
  if (language === 'de') return formatDate(iso);
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
}

function moment(date: Date, language: 'de' | 'en'): string {
  if (language === 'de') return `${formatDateTime(date)} Uhr`;
  return date.toLocaleString('en-GB', { timeZone: 'Europe/Berlin', dateStyle: 'long', timeStyle: 'short' });
}

/** A reviewer's invitation with their personal link. */
export function reviewInvitationMail(
  round: RoundForMail,
  reviewer: Person,
  link: string,
  expiresAt: Date,
): OutgoingMail {
  const de = round.language === 'de';
  const lines = de
    ? [
        `Guten Tag ${reviewer.name},`,
        '',
        `${round.senderName} (${round.senderEmail}) bittet Sie, den Vertrag „${title(round)}“ zu prüfen${round.round > 1 ? ` (Runde ${round.round})` : ''}. Sie können Passagen kommentieren und Änderungen vorschlagen – im Browser oder mit Ihrer eigenen Word-Datei.`,
        ...(round.message ? ['', round.message] : []),
        '',
        `Bitte antworten Sie bis zum ${day(round.dueDate, 'de')}.`,
        '',
        `Zum Vertrag: ${link}`,
        '',
        `Der Link gilt bis ${moment(expiresAt, 'de')} und nur für Sie. Beim Öffnen senden wir Ihnen einen Bestätigungscode an diese Adresse.`,
      ]
    : [
        `Dear ${reviewer.name},`,
        '',
        `${round.senderName} (${round.senderEmail}) asks you to review the contract “${title(round)}”${round.round > 1 ? ` (round ${round.round})` : ''}. You can comment on passages and suggest changes — in your browser or with your own Word file.`,
        ...(round.message ? ['', round.message] : []),
        '',
        `Please reply by ${day(round.dueDate, 'en')}.`,
        '',
        `Open the contract: ${link}`,
        '',
        `The link is valid until ${moment(expiresAt, 'en')} and only for you. When you open it, we send a confirmation code to this address.`,
      ];
  return {
    to: reviewer.email,
    replyTo: round.senderEmail,
    subject: de ? `Bitte prüfen: ${title(round)}` : `Please review: ${title(round)}`,
    text: lines.join('\n'),
    reference: `review:${round.reviewId}`,
    secret: true,
  };
}

/** Reminds a reviewer who has not sent the round back, before its due date. */
export function reviewReminderMail(round: RoundForMail, reviewer: Person, link: string): OutgoingMail {
  const de = round.language === 'de';
  return {
    to: reviewer.email,
    replyTo: round.senderEmail,
    subject: de
      ? `Erinnerung: Bitte prüfen bis ${day(round.dueDate, 'de')}: ${title(round)}`
      : `Reminder: please review by ${day(round.dueDate, 'en')}: ${title(round)}`,
    text: (de
      ? [
          `Guten Tag ${reviewer.name},`,
          '',
          `${round.senderName} wartet auf Ihre Rückmeldung zum Vertrag „${title(round)}“ bis zum ${day(round.dueDate, 'de')}.`,
          '',
          `Zum Vertrag: ${link}`,
        ]
      : [
          `Dear ${reviewer.name},`,
          '',
          `${round.senderName} is waiting for your reply on the contract “${title(round)}” by ${day(round.dueDate, 'en')}.`,
          '',
          `Open the contract: ${link}`,
        ]
    ).join('\n'),
    reference: `review:${round.reviewId}`,
    secret: true,
  };
}

/** The one-time code a reviewer confirms before the contract opens. */
export function reviewCodeMail(
  round: RoundForMail,
  reviewer: Person,
  code: string,
  expiresAt: Date,
): OutgoingMail {
  const de = round.language === 'de';
  return {
    to: reviewer.email,
    replyTo: round.senderEmail,
    subject: de
      ? `Ihr Bestätigungscode für „${title(round)}“`
      : `Your confirmation code for “${title(round)}”`,
    text: (de
      ? [
          `Guten Tag ${reviewer.name},`,
          '',
          `mit diesem Code öffnen Sie den Vertrag „${title(round)}“ von ${round.senderName}:`,
          '',
          `    ${code}`,
          '',
          `Er gilt 10 Minuten, bis ${moment(expiresAt, 'de')}. Haben Sie keinen Code angefordert, geben Sie ihn bitte nicht weiter.`,
        ]
      : [
          `Dear ${reviewer.name},`,
          '',
          `use this code to open the contract “${title(round)}” from ${round.senderName}:`,
          '',
          `    ${code}`,
          '',
          `It is valid for 10 minutes, until ${moment(expiresAt, 'en')}. If you did not ask for a code, please do not pass it on.`,
        ]
    ).join('\n'),
    reference: `review:${round.reviewId}`,
    secret: true,
  };
}

/** Tells a reviewer that their link no longer works. */
export function reviewWithdrawnMail(round: RoundForMail, reviewer: Person): OutgoingMail {
  const de = round.language === 'de';
  return {
    to: reviewer.email,
    replyTo: round.senderEmail,
    subject: de ? `Zurückgezogen: ${title(round)}` : `Withdrawn: ${title(round)}`,
    text: (de
      ? [
          `Guten Tag ${reviewer.name},`,
          '',
          `${round.senderName} hat die Prüfung des Vertrags „${title(round)}“ zurückgezogen. Ihr Link gilt nicht mehr; Sie müssen nichts mehr tun.`,
        ]
      : [
          `Dear ${reviewer.name},`,
          '',
          `${round.senderName} has withdrawn the review of the contract “${title(round)}”. Your link no longer works; there is nothing more for you to do.`,
        ]
    ).join('\n'),
    reference: `review:${round.reviewId}`,
  };
}

/** Tells the staff who sent the round that the counterparty sent it back. */
export function reviewReturnedMail(
  round: RoundForMail,
  to: string,
  reviewer: Person,
  suggestions: number,
  documentUrl: string,
): OutgoingMail {
  return {
    to,
    subject: `Zurück von der Gegenseite: ${title(round)} (Runde ${round.round})`,
    text: [
      `${reviewer.name} (${reviewer.email}) hat Runde ${round.round} des Vertrags „${title(round)}“ zurückgesendet: ${suggestions === 0 ? 'ohne Änderungsvorschläge' : suggestions === 1 ? 'ein Änderungsvorschlag' : `${suggestions} Änderungsvorschläge`}.`,
      '',
      `Im Editor entscheiden: ${documentUrl}#verhandlung`,
    ].join('\n'),
    reference: `review:${round.reviewId}`,
  };
}
