import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type PizZip from 'pizzip';
import { reviewCodeInMailFolder, reviewLinkInMailFolder } from '../apps/server/src/test/mail-folder.js';
import { E2E_DATA_DIR } from '../playwright.config.js';

/** The person of the counterparty who reviews the contract: an address no other test mails. */
export const REVIEWER = { name: 'Petra Prüfer', email: 'petra.pruefer@kunde.example' };

/** The mail folder of this lane's app server. */
const mailDir = join(E2E_DATA_DIR, 'mail');

/** A day `days` ahead in the browser's calendar, as a date field takes it (`2026-07-15`). */
export function dayAhead(days: number): string {
  const date = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The review link in the newest invitation to `to` written since `since`, read from the mail folder. */
export async function reviewLink(to: string, since: number): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => (link = await reviewLinkInMailFolder(mailDir, to, since)), {
      message: `a review invitation to ${to} in ${mailDir}`,
      timeout: 15_000,
    })
    .toBeTruthy();
  return link as string;
}

/** The code in the newest review code mail to `to` written since `since`. */
async function mailedReviewCode(to: string, since: number): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => (code = await reviewCodeInMailFolder(mailDir, to, since)), {
      message: `a review code mail to ${to} in ${mailDir}`,
      timeout: 15_000,
    })
    .toBeTruthy();
  return code as string;
}

/**
 * On the review page's code step: the code mailed to `to` since `since`, typed and confirmed. Resolves
 * once the step has given way to the contract.
 */
export async function enterReviewCode(page: Page, to: string, since: number): Promise<void> {
  const step = page.getByRole('heading', { name: 'Bestätigen Sie Ihre E-Mail-Adresse' });
  await expect(step).toBeVisible({ timeout: 15_000 });
  // The page asks for the first code by itself; the mail names the address masked on the page.
  await expect(page.getByText(/^Wir haben Ihnen einen Code an .+ geschickt\.$/)).toBeVisible();
  const code = await mailedReviewCode(to, since);
  await page.getByRole('textbox', { name: 'Code aus der E-Mail (6 Ziffern)' }).fill(code);
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(step).toHaveCount(0);
}

/** The contract on the review page as the light first view shows it (not the editor). */
export const reviewedContract = (page: Page) => page.getByRole('document', { name: 'Vertrag', exact: true });

/** The review page's editor in suggesting mode, once superdoc shows the contract. */
export const suggestingEditor = (page: Page) =>
  page.getByRole('document', { name: 'Vertrag mit Ihren Änderungsvorschlägen', exact: true });

/**
 * „Änderungen vorschlagen“: superdoc loads and opens the contract in suggesting mode; resolves once the page
 * says that typing is possible. superdoc may take long on a busy machine (editor-support.ts).
 */
export async function startSuggesting(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Änderungen vorschlagen' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Sie können jetzt im Vertrag schreiben/ }),
  ).toBeVisible({ timeout: 45_000 });
  await expect(suggestingEditor(page).locator('.superdoc-text-run').first()).toBeVisible();
}

/**
 * Types `text` at the end of the line that reads exactly `line` in the suggesting editor, as
 * editor-support.ts's typeAfterLine does in the staff editor: a click into the painted page, End, the keys.
 */
export async function suggestAfterLine(page: Page, line: string, text: string): Promise<void> {
  await suggestingEditor(page)
    .locator('.superdoc-text-run', { hasText: new RegExp(`^${line}$`) })
    .first()
    .click();
  await page.keyboard.press('End');
  await page.keyboard.type(text);
  // superdoc paints what was typed on the page, marked as a tracked change (with its id), not as text.
  await expect(suggestingEditor(page)).toContainText(text.trim());
  const lastWord = text.trim().split(/\s+/).at(-1)?.replace(/\W+$/, '') ?? '';
  await expect(
    suggestingEditor(page).locator('[data-track-change-id]').filter({ hasText: lastWord }).first(),
  ).toBeVisible();
}

/** The counterparty writes a comment without a passage and waits until the page lists it. */
export async function postReviewComment(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Kommentar', exact: true }).fill(text);
  await page.getByRole('button', { name: 'Kommentar senden' }).click();
  await expect(page.getByText('Ihr Kommentar wurde gesendet.')).toBeVisible();
  await expect(reviewComments(page).getByText(text)).toBeVisible();
}

/** The review page's comments. */
export const reviewComments = (page: Page) => page.getByRole('region', { name: 'Kommentare' });

/**
 * Sends the round back after the page said what goes with it (`what`: the sentence above the button),
 * and waits for the page's thanks.
 */
export async function returnReview(page: Page, what: string | RegExp): Promise<void> {
  await expect(page.getByText(what)).toBeVisible();
  await page.getByRole('button', { name: 'Zurücksenden', exact: true }).click();
  await expect(page.getByText('Vertrag jetzt zurücksenden?')).toBeVisible();
  // The export of superdoc's document and the server's reading of it take a moment on a busy machine.
  await page.getByRole('button', { name: 'Ja, zurücksenden' }).click();
  await expect(page.getByText(/^Zurückgesendet am /)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Zurücksenden', exact: true })).toHaveCount(0);
}

/** The editor page's „Verhandlung“. */
export const negotiationPanel = (page: Page) => page.getByRole('region', { name: 'Verhandlung' });

/**
 * Opens the editor page at its negotiation and waits until superdoc shows the document: the panel's
 * decisions build on the version the page knows, and an editor still opening would still change it.
 */
export async function openNegotiation(page: Page, editorUrl: string): Promise<Locator> {
  await page.goto(editorUrl);
  // editor-support.ts's editorReady, whose „Speichern“ the panel's „Kommentar speichern“ would also be.
  await expect(page.getByRole('button', { name: 'Speichern', exact: true })).toBeEnabled({ timeout: 45_000 });
  const panel = negotiationPanel(page);
  await expect(panel.getByRole('heading', { level: 2, name: 'Verhandlung' })).toBeVisible();
  return panel;
}

/**
 * The first round's form starts with the draft's signers of the customer, as `fillCustomerContract`
 * entered them (not its CC); here the customer's lawyer reviews in their place.
 */
export async function reviewerInsteadOfSigners(panel: Locator): Promise<void> {
  const roundForm = panel.getByRole('form', { name: 'Zur Prüfung an die Gegenseite' });
  const person = (index: number) => roundForm.getByRole('group', { name: `Person ${index}` });
  const name = person(1).getByRole('textbox', { name: 'Name', exact: true });
  const email = person(1).getByRole('textbox', { name: 'E-Mail-Adresse', exact: true });
  await expect(name).toHaveValue('Klara Kunde');
  await expect(email).toHaveValue('klara@kunde.example');
  await expect(person(2).getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Karl Zweit');
  await expect(person(3)).toHaveCount(0);
  await roundForm.getByRole('button', { name: 'Person 2 entfernen' }).click();
  await name.fill(REVIEWER.name);
  await email.fill(REVIEWER.email);
}

/**
 * Fills the form of a round (the first or the next) in the panel: the person of the counterparty where
 * it is empty, the message and a due date a week ahead; sends it and waits until the panel says the
 * counterparty is reviewing. Answers when it was sent, for the mail folder.
 */
export async function sendRound(
  panel: Locator,
  form: { title: string; submit: string; round: number; message?: string },
): Promise<number> {
  const roundForm = panel.getByRole('form', { name: form.title });
  await expect(roundForm).toBeVisible();
  const name = roundForm.getByRole('textbox', { name: 'Name', exact: true });
  const email = roundForm.getByRole('textbox', { name: 'E-Mail-Adresse', exact: true });
  if ((await name.inputValue()) === '') {
    await name.fill(REVIEWER.name);
    await email.fill(REVIEWER.email);
  }
  await expect(name).toHaveValue(REVIEWER.name);
  await expect(email).toHaveValue(REVIEWER.email);
  if (form.message)
    await roundForm.getByRole('textbox', { name: /^Nachricht an die Gegenseite/ }).fill(form.message);
  await roundForm.getByLabel(/^Antwort bis/).fill(dayAhead(7));
  const sent = Date.now();
  await roundForm.getByRole('button', { name: form.submit, exact: true }).click();
  await expect(
    panel.getByText(new RegExp(`^Die Gegenseite prüft Runde ${form.round}; Antwort bis `)),
  ).toBeVisible();
  return sent;
}

/** The text of a DOCX's main part, its runs joined: what a reader of the file reads, wherever the runs break. */
export function docxBodyText(zip: PizZip): string {
  const xml = zip.file('word/document.xml')?.asText() ?? '';
  return [...xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((match) => match[1]).join('');
}

/** The names of a DOCX's parts whose bytes hold `text` (as UTF-8, or XML-escaped). */
export function partsHolding(zip: PizZip, text: string): string[] {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return Object.values(zip.files)
    .filter((file) => !file.dir)
    .filter((file) => {
      const bytes = file.asNodeBuffer();
      return bytes.includes(Buffer.from(text, 'utf8')) || bytes.includes(Buffer.from(escaped, 'utf8'));
    })
    .map((file) => file.name);
}
