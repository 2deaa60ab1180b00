/** One outgoing e-mail, plain text. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/** Delivers mail: SMTP in production, .eml files under DATA_DIR/mail as the embedded default. */
export interface Mailer {
  /** Resolves once the message is handed over; rejects when it was not, so the caller keeps it queued. */
  send(message: MailMessage): Promise<void>;
}
