import nodemailer from 'nodemailer';
import { type Mailer, type MailMessage, nodemailerMessage } from './mailer.js';

/** SMTP delivery via nodemailer (`SMTP_URL`, e.g. smtps://user:pass@mail.example.com:465). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const url = new URL(smtpUrl);
  // Short timeouts: a hanging mail server must not hold a delivery lease for long (the outbox retries).
  for (const [name, ms] of [
    ['connectionTimeout', 10_000],
    ['greetingTimeout', 10_000],
    ['socketTimeout', 20_000],
  ] as const) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  }
  const transport = nodemailer.createTransport(url.toString());
  return {
    async send(message: MailMessage) {
      await transport.sendMail(nodemailerMessage(from, message));
    },
  };
}
