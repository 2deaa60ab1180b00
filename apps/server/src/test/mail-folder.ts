import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { eventually } from './eventually.js';

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
 * The code in the newest code mail to `to` written since `since`; undefined while there is none. A new
 * code replaces the last, so the newest is the one that works.
 */
export async function signingCodeInMailFolder(
  mailDir: string,
  to: string,
  since: number,
): Promise<string | undefined> {
  const [newest] = (await mailsTo(mailDir, to, since)).filter((mail) =>
    mail.subject?.startsWith('Dein Bestätigungscode'),
  );
  return newest?.text?.match(/^\s*(\d{6})\s*$/m)?.[1];
}

/** The review link in the newest invitation to `to` written since `since`; undefined while there is none. */
export async function reviewLinkInMailFolder(
  mailDir: string,
  to: string,
  since: number,
): Promise<string | undefined> {
  return (await mailsTo(mailDir, to, since))
    .map((mail) => mail.text?.match(/https?:\/\/\S+\/vertragspruefung#[A-Za-z0-9_-]+/)?.[0])
    .find(Boolean);
}

/**
 * The code in the newest review code mail to `to` written since `since` (German or English, as the
 * contract); undefined while there is none. A new code replaces the last, so the newest is the one that works.
 */
export async function reviewCodeInMailFolder(
  mailDir: string,
  to: string,
  since: number,
): Promise<string | undefined> {
  const [newest] = (await mailsTo(mailDir, to, since)).filter(
    (mail) =>
      mail.subject?.startsWith('Ihr Bestätigungscode') || mail.subject?.startsWith('Your confirmation code'),
  );
  return newest?.text?.match(/^\s*(\d{6})\s*$/m)?.[1];
}

/**
 * A signer confirms the code of their link on a server process, as the signing page does: asks for a
 * code, polls the mail folder for it and enters it. Resolves once the server took it.
 */
export async function confirmSigningCodeByMail(
  { url, mailDir }: { url: string; mailDir: string },
  { token, to }: { token: string; to: string },
): Promise<void> {
  const since = Date.now();
  const call = (path: string, body?: object) =>
    fetch(`${url}/backend/signing${path}`, {
      method: 'POST',
      headers: { 'x-signing-token': token, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
      signal: AbortSignal.timeout(30_000),
    });
  const asked = await call('/code');
  if (asked.status !== 200) throw new Error(`no code sent: ${asked.status} ${await asked.text()}`);
  const code = await eventually(
    `a code mailed to ${to} in ${mailDir}`,
    () => signingCodeInMailFolder(mailDir, to, since),
    { intervalMs: 50 },
  );
  const confirmed = await call('/verify', { code });
  if (confirmed.status !== 200) {
    throw new Error(`code refused: ${confirmed.status} ${await confirmed.text()}`);
  }
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
