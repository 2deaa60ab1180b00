import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { CONTRACT_MATCH, USER } from './app.mjs';

/**
 * What the sender view and the signing page mark once their document shows: a DOCX as text, or a PDF in
 * its frame (components/document-viewer/viewer-timing.ts).
 */
export const VIEWER_SHOWN = 'viewer:document-shown';

const PARTNER = { name: 'Paula Partner', email: 'paula.partner@bench.example' };
const CUSTOMER = { name: 'Klara Kunde', email: 'klara.kunde@bench.example' };

/**
 * A project partner contract of CONTRACT_MATCH sent to PARTNER through the API, as the sender view
 * sends it; answers the envelope and the partner's link from the invitation the embedded mailer wrote,
 * with the partner's code confirmed.
 */
export async function sentEnvelope(baseUrl, dataDir) {
  const sent = await sendEnvelope(baseUrl, dataDir, 'de-we-pp-ev', PARTNER, {
    Projektpartner_UserName: PARTNER.name,
    Projektpartner_Email: PARTNER.email,
    vertragspartner_type: 'pp',
  });
  await confirmSigningCode(baseUrl, join(dataDir, 'mail'), sent.link);
  return sent;
}

/**
 * The longest contract a signer opens: a customer's Rahmenvertrag of CONTRACT_MATCH sent to CUSTOMER,
 * whose link is answered as its first visit finds it — the code step first.
 */
export function customerFirstVisit(baseUrl, dataDir) {
  return sendEnvelope(baseUrl, dataDir, 'de-wm-k-rv-1', CUSTOMER, {
    Kunde_UserName: CUSTOMER.name,
    Kunde_Email: CUSTOMER.email,
    vertragspartner_type: 'k',
  });
}

/** The envelope of `key` made and sent to `signer` through the API, as the sender view sends it. */
async function sendEnvelope(baseUrl, dataDir, key, signer, dataList) {
  const token = await signInDemoAccount(baseUrl, USER);
  const call = async (method, path, body) => {
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const created = await call('POST', `/backend/generateDocusign/${key}/${CONTRACT_MATCH}`, {
    dataList: { Absender_UserName: 'Lena Legal', Absender_Email: USER, ...dataList },
  });
  const id = created.data.split('/').pop();
  const draft = await call('GET', `/backend/signature/envelopes/${id}`);
  await call('POST', `/backend/signature/envelopes/${id}/send`, {
    subject: draft.subject,
    message: '',
    recipients: draft.recipients.map(({ role, name, email, routingOrder }) => ({
      role,
      name,
      email,
      routingOrder,
    })),
    // A contract needs the company's countersignatory; they sign after the signer, whose page is measured.
    countersignatory: draft.countersignature.options[0].id,
  });
  const link = await invitationLink(join(dataDir, 'mail'), signer.email);
  return { id, link };
}

/**
 * The partner confirms the code mailed to them, as the signing page's code step does, so that the
 * timed visits open the document itself: what is measured is the way to the document, not the mail.
 */
async function confirmSigningCode(baseUrl, mailDir, link) {
  const headers = { 'x-signing-token': link.split('#')[1], 'content-type': 'application/json' };
  const post = (path, body) =>
    fetch(new URL(`/backend/signing${path}`, baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
  const since = Date.now();
  const asked = await post('/code', {});
  if (!asked.ok) throw new Error(`POST /backend/signing/code: ${asked.status} ${await asked.text()}`);
  const code = await mailedCode(mailDir, PARTNER.email, 'Dein Bestätigungscode', since);
  const confirmed = await post('/verify', { code });
  if (!confirmed.ok)
    throw new Error(`POST /backend/signing/verify: ${confirmed.status} ${await confirmed.text()}`);
}

/** The code in the newest mail to `to` whose subject starts with `subject`, written after `since`. */
export async function mailedCode(mailDir, to, subject, since) {
  for (let attempt = 0; attempt < 300; attempt++) {
    // Newest first: the last code sent is the one that works.
    const files = (await readdir(mailDir).catch(() => []))
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .reverse();
    for (const file of files) {
      if ((await stat(join(mailDir, file))).mtimeMs < since) continue;
      const mail = await simpleParser(await readFile(join(mailDir, file)));
      if (mail.to?.text !== to || !mail.subject?.startsWith(subject)) continue;
      const code = mail.text?.match(/^\s*(\d{6})\s*$/m)?.[1];
      if (code) return code;
    }
    await sleep(100);
  }
  throw new Error(`no code mailed to ${to} in ${mailDir}`);
}

/**
 * The link (`path`: `unterschreiben` or `vertragspruefung`) in the invitation to `to`, once the outbox has
 * sent it (it mails soon, not at once).
 */
export async function invitationLink(mailDir, to, path = 'unterschreiben') {
  for (let attempt = 0; attempt < 300; attempt++) {
    const files = await readdir(mailDir).catch(() => []);
    for (const file of files.filter((name) => name.endsWith('.eml'))) {
      const mail = await simpleParser(await readFile(join(mailDir, file)));
      const link =
        mail.to?.text === to ? mail.text?.match(new RegExp(`https?://\\S+/${path}#[\\w-]+`))?.[0] : undefined;
      if (link) return link;
    }
    await sleep(100);
  }
  throw new Error(`no invitation to ${to} in ${mailDir}`);
}

/** Text of the contract sent (its reference line), for telling the document's text in the page. */
const CONTRACT_TEXT = `Referenz: ${CONTRACT_MATCH}`;

/**
 * Opens `url` (a page with the contract) in `page` and answers the ms from the navigation until the page
 * marks its document shown (VIEWER_SHOWN), with the contract's text in the page's document by then, and
 * whether it was there as text: a page that shows a PDF in a frame (where LibreOffice renders one) marks
 * it shown without text in the page. Neither superdoc nor any other renderer is waited for, so that the
 * figure means the same with every rendering the page may choose.
 */
export async function timeToDocument(page, url) {
  await page.goto(url);
  const handle = await page
    .waitForFunction(
      ([shown, text]) => {
        const mark = performance.getEntriesByName(shown, 'mark')[0];
        if (!mark) return false;
        const documents = [...document.querySelectorAll('[role="document"]')];
        const textInPage = documents.some((element) => element.textContent?.includes(text));
        if (!textInPage && !document.querySelector('iframe')) return false;
        return {
          shownMs: mark.startTime,
          textInPage,
          sidewaysScrolling: document.documentElement.scrollWidth > window.innerWidth,
        };
      },
      [VIEWER_SHOWN, CONTRACT_TEXT],
    )
    .catch(async (error) => {
      // What the page showed instead: a message, a loader, a frame.
      const shown = await page.evaluate(() => document.body.innerText.slice(0, 300)).catch(() => '');
      throw new Error(`${url} showed no contract: ${JSON.stringify(shown)}`, { cause: error });
    });
  return handle.jsonValue();
}
