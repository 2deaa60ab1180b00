import { formatDateTime } from '@vertragsgenerator/domain';
import type { OutgoingMail } from '../mail/mail-outbox.js';
import { staffAddresses } from './mail-parties.js';

/** What the mails to signers need of their envelope. */
export interface EnvelopeForMail {
  id: string;
  subject: string;
  message: string;
  sender_name: string;
  sender_email: string;
}

/** A signer's invitation with their personal link; replies go to the sender. */
export function invitationMail(
  envelope: EnvelopeForMail,
  recipient: { name: string; email: string },
  link: string,
  expiresAt: Date,
): OutgoingMail {
  return {
    to: recipient.email,
    replyTo: envelope.sender_email,
    subject: envelope.subject,
    text: [
      `Hallo ${recipient.name},`,
      '',
      `${envelope.sender_name} (${envelope.sender_email}) bittet dich, ein Dokument elektronisch zu unterschreiben.`,
      ...(envelope.message ? ['', envelope.message] : []),
      '',
      `Zum Dokument: ${link}`,
      '',
      `Der Link gilt bis ${formatDateTime(expiresAt)} Uhr und nur für dich – bitte gib ihn nicht weiter.`,
      'Bei Fragen antworte einfach auf diese E-Mail.',
    ].join('\n'),
    reference: `envelope:${envelope.id}`,
    secret: true,
  };
}

/** Tells a signer who already had a link that the envelope was withdrawn. */
export function voidedMail(
  envelope: EnvelopeForMail,
  recipient: { name: string; email: string },
  reason: string,
): OutgoingMail {
  return {
    to: recipient.email,
    replyTo: envelope.sender_email,
    subject: `Zurückgezogen: ${envelope.subject}`,
    text: [
      `Hallo ${recipient.name},`,
      '',
      `${envelope.sender_name} hat das Dokument „${envelope.subject}“ zurückgezogen. Du musst nichts mehr tun; der Link zum Unterschreiben gilt nicht mehr.`,
      ...(reason ? ['', `Begründung: ${reason}`] : []),
    ].join('\n'),
    reference: `envelope:${envelope.id}`,
  };
}

/** Tells the sender and the envelope's creator that a signer declined, and why. */
export function declinedMails(
  envelope: { id: string; subject: string; file_name: string; sender_email: string; created_by: string },
  recipient: { name: string; email: string },
  reason: string,
  senderViewUrl: string,
): OutgoingMail[] {
  return staffAddresses(envelope).map((to) => ({
    to,
    replyTo: recipient.email,
    subject: `Abgelehnt: ${envelope.subject}`,
    text: [
      `${recipient.name} <${recipient.email}> hat die Unterschrift unter „${envelope.file_name}“ abgelehnt.`,
      '',
      `Grund: ${reason}`,
      '',
      `Der Umschlag ist damit beendet. Details: ${senderViewUrl}`,
    ].join('\n'),
    reference: `envelope:${envelope.id}`,
  }));
}

/**
 * A reminder to a signer who has not answered, with the link they hold (the invitation's, unless it
 * was renewed); a link from before links were derived cannot be repeated, so that mail points to the
 * invitation. `lastCall`: the link expires within a day.
 */
export function reminderMail(
  envelope: EnvelopeForMail,
  recipient: { name: string; email: string },
  link: string | null,
  expiresAt: Date,
  { lastCall }: { lastCall: boolean },
): OutgoingMail {
  return {
    to: recipient.email,
    replyTo: envelope.sender_email,
    subject: `Erinnerung: ${envelope.subject}`,
    text: [
      `Hallo ${recipient.name},`,
      '',
      `${envelope.sender_name} (${envelope.sender_email}) wartet noch auf deine elektronische Unterschrift.`,
      '',
      link
        ? `Zum Dokument: ${link}`
        : 'Bitte nutze den Link aus der E-Mail, mit der wir dich eingeladen haben.',
      '',
      lastCall
        ? `Der Link läuft am ${formatDateTime(expiresAt)} Uhr ab – danach braucht es einen neuen.`
        : `Der Link gilt bis ${formatDateTime(expiresAt)} Uhr und nur für dich – bitte gib ihn nicht weiter.`,
      'Bei Fragen antworte einfach auf diese E-Mail.',
    ].join('\n'),
    reference: `envelope:${envelope.id}`,
    secret: true,
  };
}

/**
 * The code a signer confirms before the document opens. The code is in the body only: subjects end up
 * in mail logs, notifications and lock screens.
 */
export function signingCodeMail(
  envelope: EnvelopeForMail,
  recipient: { name: string; email: string },
  code: string,
  expiresAt: Date,
): OutgoingMail {
  return {
    to: recipient.email,
    replyTo: envelope.sender_email,
    subject: `Dein Bestätigungscode für „${envelope.subject}“`,
    text: [
      `Hallo ${recipient.name},`,
      '',
      `mit diesem Code bestätigst du, dass du das Dokument „${envelope.subject}“ von ${envelope.sender_name} öffnest:`,
      '',
      `    ${code}`,
      '',
      `Gib ihn auf der Seite zum Unterschreiben ein. Er gilt 10 Minuten, bis ${formatDateTime(expiresAt)} Uhr.`,
      '',
      'Hast du keinen Code angefordert? Dann hat jemand deinen Link geöffnet. Gib den Code nicht weiter – ohne ihn kann niemand in deinem Namen unterschreiben. Bei Fragen antworte einfach auf diese E-Mail.',
    ].join('\n'),
    reference: `envelope:${envelope.id}`,
    secret: true,
  };
}
