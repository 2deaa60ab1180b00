import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decode as decodeQuotedPrintable } from 'libqp';
import { simpleParser } from 'mailparser';

/**
 * The signing link in the newest invitation to `to` that the embedded mailer wrote into `mailDir`
 * (.eml files, bodies quoted-printable) since `since` (ms since the epoch); undefined while there is
 * none. Earlier runs may have invited the same address, and the outbox sends after the answer: callers
 * poll. Shared by the browser tests and the API tests against a server process.
 */
export function signingLinkInMailFolder(mailDir: string, to: string, since: number): string | undefined {
  return mailsTo(mailDir, to, since)
    .map((eml) =>
      decodeQuotedPrintable(
        eml
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('\n'),
      ).toString(),
    )
    .map((body) => body.match(/https?:\/\/\S+\/unterschreiben#[A-Za-z0-9_-]+/)?.[0])
    .find(Boolean);
}

/** The .eml files to `to` written since `since`, newest first; none while the folder does not exist. */
function mailsTo(mailDir: string, to: string, since: number): string[] {
  // The mailer makes the folder with its first mail.
  if (!existsSync(mailDir)) return [];
  return (
    readdirSync(mailDir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.eml'))
      .filter((entry) => statSync(join(mailDir, entry.name)).mtimeMs >= since)
      // Named by their time of writing: newest first.
      .sort((a, b) => b.name.localeCompare(a.name))
      .map((entry) => readFileSync(join(mailDir, entry.name), 'utf8'))
      .filter((eml) => new RegExp(`^To: ${to}$`, 'm').test(eml))
  );
}

/**
 * The first attachment of `contentType` in the newest mail to `to` whose subject matches, written since
 * `since`; undefined while there is none (callers poll, as above).
 */
export async function attachmentInMailFolder(
  mailDir: string,
  { to, subject, contentType, since }: { to: string; subject: RegExp; contentType: string; since: number },
): Promise<{ filename: string; content: Buffer } | undefined> {
  for (const eml of mailsTo(mailDir, to, since)) {
    const mail = await simpleParser(eml);
    if (!subject.test(mail.subject ?? '')) continue;
    const attachment = mail.attachments.find((a) => a.contentType === contentType);
    if (attachment) return { filename: attachment.filename ?? '', content: attachment.content };
  }
  return undefined;
}
