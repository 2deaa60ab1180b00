import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';

/**
 * The mail the embedded mailer wrote into `mailDir` (.eml files) to `to` since `since` (ms since the
 * epoch), newest first; none while the folder does not exist (the mailer makes it with its first
 * mail). Earlier runs may have mailed the same address, and the outbox sends after the answer: callers
 * poll. Shared by the browser tests and the API tests against a server process.
 */
async function mailsTo(mailDir: string, to: string, since: number): Promise<ParsedMail[]> {
  if (!existsSync(mailDir)) return [];
  const files = readdirSync(mailDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.eml'))
    .filter((entry) => statSync(join(mailDir, entry.name)).mtimeMs >= since)
    // Named by their time of writing: newest first.
    .sort((a, b) => b.name.localeCompare(a.name))
    .map((entry) => readFileSync(join(mailDir, entry.name), 'utf8'))
    .filter((eml) => new RegExp(`^To: ${to}$`, 'm').test(eml));
  return Promise.all(files.map((eml) => simpleParser(eml)));
}

/** The signing link in the newest invitation to `to` written since `since`; undefined while there is none. */
export async function signingLinkInMailFolder(
  mailDir: string,
  to: string,
  since: number,
): Promise<string | undefined> {
  return (await mailsTo(mailDir, to, since))
    .map((mail) => mail.text?.match(/https?:\/\/\S+\/unterschreiben#[A-Za-z0-9_-]+/)?.[0])
    .find(Boolean);
}

/**
 * The first attachment of `contentType` in the newest mail to `to` whose subject matches, written since
 * `since`; undefined while there is none.
 */
export async function attachmentInMailFolder(
  mailDir: string,
  { to, subject, contentType, since }: { to: string; subject: RegExp; contentType: string; since: number },
): Promise<{ filename: string; content: Buffer } | undefined> {
  for (const mail of await mailsTo(mailDir, to, since)) {
    if (!subject.test(mail.subject ?? '')) continue;
    const attachment = mail.attachments.find((a) => a.contentType === contentType);
    if (attachment) return { filename: attachment.filename ?? '', content: attachment.content };
  }
  return undefined;
}
