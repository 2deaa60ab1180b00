import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { type Mailer, type MailMessage, nodemailerMessage } from './mailer.js';

/**
 * The embedded default: every message becomes an .eml file (openable in any mail program) under
 * DATA_DIR/mail, so nothing outside the machine is needed and nothing is lost.
 */
export function createFileMailer(directory: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message: MailMessage) {
      const info = await transport.sendMail(nodemailerMessage(from, message));
      await mkdir(directory, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      await writeFile(join(directory, `${stamp}-${randomUUID()}.eml`), info.message as Buffer);
    },
  };
}
