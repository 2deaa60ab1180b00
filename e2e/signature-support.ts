import { join } from 'node:path';
import { type Browser, expect, type Page } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  attachmentInMailFolder,
  signingCodeInMailFolder,
  signingLinkInMailFolder,
} from '../apps/server/src/test/mail-folder.js';
import { pdfPages } from '../apps/server/src/test/pdf-tools.js';
import { E2E_DATA_DIR } from '../playwright.config.js';
import { choose, type } from './forms-support.js';
import { DEMO_ACCOUNTS, newUserPage, signIn } from './support.js';

/** WM Consulting's managing director in config/signatories.json, who countersigns its contracts in the tests. */
export const COUNTERSIGNATORY = { name: 'Henrik Albers', email: 'henrik.albers@wm-consulting.example' };

/**
 * Picks the company's signatory who countersigns the contract last (the first one its company offers,
 * or the one named): on a server whose administrators kept the default, a contract needs one.
 */
export async function chooseCountersignatory(senderView: Page, name?: string): Promise<void> {
  await senderView.getByRole('combobox', { name: 'Gegenzeichnung (Firma)' }).click();
  const options = senderView.getByRole('option');
  await (name ? options.filter({ hasText: new RegExp(`^${name} – `) }) : options).first().click();
}

/** Legal's customer contract with two customer signers and a copy (the form must be open). */
export async function fillCustomerContract(page: Page): Promise<void> {
  await choose(page, 'Sprache', 'Deutsch');
  await choose(page, 'Gesellschaft', 'WM Consulting GmbH');
  await choose(page, 'Vertragsart', 'Rahmenvertrag');
  await choose(page, 'Vertragspartner', 'Kunde');
  await page.getByRole('textbox', { name: 'Anzahl Unterschriftsblöcke Kunde' }).fill('2');
  await type(page, 'Unterzeichner Kunde 1 Name', 'Klara Kunde');
  await type(page, 'Unterzeichner Kunde 1 E-Mail', 'klara@kunde.example');
  await type(page, 'Unterzeichner Kunde 2 Name', 'Karl Zweit');
  await type(page, 'Unterzeichner Kunde 2 E-Mail', 'karl@kunde.example');
  await choose(page, 'Absender', 'Lena Legal');
  await choose(page, 'CC', 'Eigener Wert...');
  await type(page, 'CC Name', 'Conny Copy');
  await type(page, 'CC E-Mail', 'conny@firma.example');
}

/** The mail folder of the app server whose data folder is `dataDir` (by default the first server's). */
const mailDir = (dataDir: string) => join(dataDir, 'mail');

/**
 * The signing link in the newest invitation to `to` written since `since`, read from the embedded mail folder
 * (.eml files). Earlier tests may have invited the same address, and the outbox sends after the answer.
 */
export async function invitationLink(to: string, since: number, dataDir = E2E_DATA_DIR): Promise<string> {
  const folder = mailDir(dataDir);
  let link: string | undefined;
  await expect
    .poll(async () => (link = await signingLinkInMailFolder(folder, to, since)), {
      message: `an invitation to ${to} in ${folder}`,
      timeout: 15_000,
    })
    .toBeTruthy();
  return link as string;
}

/** The code in the newest code mail to `to` written since `since`, read from the mail folder. */
export async function mailedSigningCode(to: string, since: number, dataDir = E2E_DATA_DIR): Promise<string> {
  const folder = mailDir(dataDir);
  let code: string | undefined;
  await expect
    .poll(async () => (code = await signingCodeInMailFolder(folder, to, since)), {
      message: `a code mail to ${to} in ${folder}`,
      timeout: 15_000,
    })
    .toBeTruthy();
  return code as string;
}

/**
 * On the signing page's code step: the code mailed to `to` since `since`, typed and confirmed with the
 * keyboard alone, as a signer might. Resolves once the document shows.
 */
export async function enterSigningCode(
  page: Page,
  to: string,
  since: number,
  dataDir = E2E_DATA_DIR,
): Promise<void> {
  const step = page.getByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });
  await expect(step).toBeVisible();
  await expect(page.getByText(/Wir haben dir einen Code an .\*\*\*@/)).toBeVisible();
  const code = await mailedSigningCode(to, since, dataDir);
  await page.getByRole('textbox', { name: 'Code aus der E-Mail (6 Ziffern)' }).focus();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(step).toHaveCount(0);
}

/** The sealed PDF the completion mail to `to` carries, once the server sealed the envelope and mailed it. */
export async function completionMailPdf(
  to: string,
  since: number,
  dataDir = E2E_DATA_DIR,
): Promise<{ filename: string; content: Buffer }> {
  const folder = mailDir(dataDir);
  let pdf: { filename: string; content: Buffer } | undefined;
  await expect
    .poll(
      async () =>
        (pdf = await attachmentInMailFolder(folder, {
          to,
          subject: /^Abgeschlossen:/,
          contentType: 'application/pdf',
          since,
        })),
      { message: `a completion mail with a PDF to ${to} in ${folder}`, timeout: 30_000 },
    )
    .toBeTruthy();
  return pdf as { filename: string; content: Buffer };
}

/** A signer with no account opens their link in their own browser and signs. */
export async function signAs(
  browser: Browser,
  to: string,
  name: string,
  draw: boolean,
  since: number,
  dataDir = E2E_DATA_DIR,
): Promise<void> {
  const page = await newUserPage(browser);
  try {
    await page.goto(await invitationLink(to, since, dataDir));
    // The newest code since the envelope went out: one an earlier visit asked for still works.
    await enterSigningCode(page, to, since, dataDir);
    await expect(page.getByText('Lena Legal')).toBeVisible();
    // The signer sees the SHA-256 of the document they sign.
    await expect(page.getByText(/^[0-9a-f]{64}$/)).toBeVisible();
    await expect(page.getByLabel('Dein vollständiger Name')).toHaveValue(name);
    const sign = page.getByRole('button', { name: 'Unterschreiben' });
    await expect(sign).toBeDisabled();
    await page.getByLabel(/Ich stimme zu, dieses Dokument elektronisch zu unterschreiben/).check();
    if (draw) await drawSignature(page);
    await sign.click();
    await expect(page.getByText(/Vielen Dank, du hast unterschrieben/)).toBeVisible();
    // A used link shows that, and no form.
    await page.reload();
    await expect(page.getByText(/bereits am .* unterschrieben/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Unterschreiben' })).toHaveCount(0);
  } finally {
    await page.context().close();
  }
}

/** The contract on the signing page, shown as text (apps/web/src/components/document-viewer/document-reader.tsx). */
export const signingDocument = (page: Page) => page.getByRole('document', { name: 'Dokument', exact: true });

export async function drawSignature(page: Page): Promise<void> {
  const pad = page.locator('canvas').first();
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('no signature pad');
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) {
    await page.mouse.move(box.x + 20 + i * 15, box.y + box.height / 2 + (i % 2 ? 15 : -15), { steps: 3 });
  }
  await page.mouse.up();
}

export async function pdfText(bytes: Uint8Array): Promise<string> {
  // pdf.js takes ownership of the array it gets: a copy, not the Buffer of the file.
  const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages.join('\n');
}

/**
 * A sealed PDF's pages as text, whitespace collapsed: the contract's, which it has only where the server
 * found LibreOffice to render them, then the certificate's; and the contract's signature blocks, each
 * from its heading („Für den Auftraggeber“, „Für den Auftragnehmer“) to the next heading or the end of
 * its page.
 */
export async function sealedPdfPages(
  pdf: Uint8Array,
): Promise<{ contract: string[]; certificate: string[]; blocks: string[] }> {
  const pages = (await pdfPages(pdf)).map((text) => text.replace(/\s+/g, ' '));
  const start = pages.findIndex((text) => text.includes('Abschlusszertifikat'));
  if (start < 0) throw new Error('the sealed PDF has no certificate pages');
  const contract = pages.slice(0, start);
  const blocks = contract.flatMap((text) =>
    text
      .split(/(?=Für den Auftrag(?:geber|nehmer)\b)/)
      .filter((part) => /^Für den Auftrag(?:geber|nehmer)\b/.test(part)),
  );
  return { contract, certificate: pages.slice(start), blocks };
}

/** What the server writes beside a signature in its block: `Name[, Funktion] · elektronisch unterschrieben am <time> Uhr`. */
export const signedCaption = (who: string) =>
  new RegExp(
    `${who.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · elektronisch unterschrieben am \\d{2}\\.\\d{2}\\.\\d{4} \\d{2}:\\d{2} Uhr`,
  );

/**
 * Team-Operations sets „Vertrag: Ohne Gegenzeichnung senden erlaubt“ on /verwaltung → Gegenzeichnung:
 * with it on, a contract may go out without the company's countersignatory, the seal standing for the company.
 */
export async function allowContractsWithoutCountersignature(
  browser: Browser,
  allowed: boolean,
): Promise<void> {
  const ops = await newUserPage(browser);
  try {
    await signIn(ops, DEMO_ACCOUNTS.operations);
    await expect(ops).toHaveURL(/\/verwaltung$/);
    await ops.getByRole('tab', { name: 'Gegenzeichnung' }).click();
    const toggle = ops.getByRole('switch', { name: /^Vertrag: Ohne Gegenzeichnung senden erlaubt/ });
    await expect(toggle).toBeVisible();
    if ((await toggle.isChecked()) !== allowed) {
      // Stored once the server answered: a contract sent right after must meet the new setting.
      await Promise.all([
        ops.waitForResponse(
          (response) =>
            response.request().method() === 'PUT' &&
            response.url().includes('/backend/admin/countersignature/contract') &&
            response.ok(),
        ),
        toggle.click(),
      ]);
    }
    await expect(toggle).toBeChecked({ checked: allowed });
  } finally {
    await ops.context().close();
  }
}
