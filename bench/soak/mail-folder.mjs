import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';

const SETTLED_MS = 500;

/**
 * The embedded mailer's folder (.eml files) read as it grows: each file is parsed once, so that a
 * soak that mails thousands of invitations does not parse them all again for every signer. The
 * signers of the soak have addresses of their own, so their newest mail is theirs.
 */
export class MailFolder {
  #dir;
  #seen = new Set();
  /** @type {Map<string, { subject: string, text: string }[]>} newest last */
  #byRecipient = new Map();

  constructor(dir) {
    this.#dir = dir;
  }

  async #readNew() {
    if (!existsSync(this.#dir)) return;
    const names = (await readdir(this.#dir)).filter((name) => name.endsWith('.eml') && !this.#seen.has(name));
    // Named by their time of writing.
    for (const name of names.sort()) {
      // The mailer writes a file in more than one go: one written just now may not be whole yet.
      const { mtimeMs } = await stat(join(this.#dir, name));
      if (Date.now() - mtimeMs < SETTLED_MS) continue;
      this.#seen.add(name);
      const mail = await simpleParser(await readFile(join(this.#dir, name)));
      for (const { address } of [mail.to].flat().flatMap((to) => to?.value ?? [])) {
        const list = this.#byRecipient.get(address) ?? [];
        list.push({ subject: mail.subject ?? '', text: mail.text ?? '' });
        this.#byRecipient.set(address, list);
      }
    }
  }

  /**
   * Waits up to `timeoutMs` for the newest mail to `to` whose text matches `pattern` (a mail that could
   * not be sent at once is retried after 30 s); its first group, or the whole match.
   */
  async waitFor(to, pattern, { after = 0, timeoutMs = 120_000 } = {}) {
    const until = performance.now() + timeoutMs;
    while (performance.now() < until) {
      await this.#readNew();
      const mails = (this.#byRecipient.get(to) ?? []).slice(after);
      for (const mail of mails.reverse()) {
        const found = pattern.exec(mail.text);
        if (found) return found[1] ?? found[0];
      }
      await sleep(100);
    }
    throw new Error(`no mail to ${to} matching ${pattern} within ${timeoutMs / 1000} s`);
  }

  /** How many mails `to` has had so far: `waitFor(…, { after })` then looks only at later ones. */
  async count(to) {
    await this.#readNew();
    return this.#byRecipient.get(to)?.length ?? 0;
  }
}
