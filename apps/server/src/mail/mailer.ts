/** One outgoing e-mail, plain text, optionally with files attached. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** Delivers mail: SMTP in production, .eml files under DATA_DIR/mail as the embedded default. */
export interface Mailer {
  /** Resolves once the message is handed over; rejects when it was not, so the caller keeps it queued. */
  send(message: MailMessage): Promise<void>;
}

/** The message as nodemailer takes it (both transports use nodemailer). */
export function nodemailerMessage(from: string, message: MailMessage) {
  return {
    from,
    ...message,
    attachments: message.attachments?.map((a) => ({ ...a, content: Buffer.from(a.content) })),
  };
}
