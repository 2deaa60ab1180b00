import { readFileSync } from 'node:fs';
import { type Download, expect, type Page, type Request } from '@playwright/test';
import PizZip from 'pizzip';

/** A demo match as config/demo-matches.json holds it: the source of every expected value. */
export interface DemoMatch {
  matchId: string;
  kunde: string;
  ppGesellschaft: string;
  candidateFirstName: string;
  candidateLastName: string;
  startdatum: string;
  position: string;
}

const demoMatches: DemoMatch[] = JSON.parse(
  readFileSync(new URL('../config/demo-matches.json', import.meta.url), 'utf8'),
);
const companies: Record<string, { name: string }> = JSON.parse(
  readFileSync(new URL('../config/companies.json', import.meta.url), 'utf8'),
);

export function demoMatch(matchId: string): DemoMatch {
  const match = demoMatches.find((candidate) => candidate.matchId === matchId);
  if (!match) throw new Error(`no demo match ${matchId}`);
  return match;
}

/** Our company's name as config/companies.json has it (`wm`, `we`, `wp`). */
export function companyName(code: string): string {
  const company = companies[code];
  if (!company) throw new Error(`no company ${code}`);
  return company.name;
}

/** An ISO date of the CRM (`2027-01-04`) as a document shows it (`04.01.2027`). */
export function germanDate(iso: string): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!parts) throw new Error(`not an ISO date: ${iso}`);
  return `${parts[3]}.${parts[2]}.${parts[1]}`;
}

/** Loads a match on /start, so that the forms work on it (it is kept in localStorage). */
export async function loadMatch(page: Page, matchId: string): Promise<void> {
  await page.goto('/start');
  // A page sent elsewhere (to /login: signed out) fails here with its address, not at the test's timeout.
  await expect(page).toHaveURL(/\/start$/);
  await page.getByLabel('Match-ID').fill(matchId);
  // /start looks up the match confirmed last again by itself: its table, of an earlier answer, must not
  // pass for this lookup's. Bestätigen is enabled once that lookup has ended.
  const confirm = page.getByRole('button', { name: 'Bestätigen' });
  await expect(confirm).toBeEnabled();
  const answered = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      new URL(response.url()).pathname === `/backend/match/${encodeURIComponent(matchId)}`,
  );
  await confirm.click();
  await answered;
  await expect(page.getByRole('table', { name: `Match ${matchId}` })).toBeVisible();
}

/** Opens a form page and waits until it shows the match it works on. */
export async function openForm(page: Page, path: string, matchId: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('region', { name: 'Match', exact: true })).toContainText(matchId);
}

/** Picks `option` in the Mantine select labelled `label`. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(page.getByRole('combobox', { name: label, exact: true })).toHaveValue(option);
}

export async function type(page: Page, label: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name: label, exact: true }).fill(text);
}

/** The progress bar of a document being made. */
export const progress = (page: Page) =>
  page.getByRole('progressbar', { name: 'Fortschritt der Dokumenterstellung' });

export const submitButton = (page: Page) => page.getByRole('button', { name: 'Dokument erstellen' });

export const redMessage = (page: Page) =>
  page.getByRole('alert').filter({ hasText: 'Bitte fülle alle rot markierten Felder aus.' });

/** Counts the generation calls the page makes, from now until `stop()`. */
export function countGenerationRequests(page: Page) {
  const requests: string[] = [];
  const listener = (request: Request) => {
    if (new URL(request.url()).pathname.startsWith('/backend/generate')) requests.push(request.url());
  };
  page.on('request', listener);
  return {
    requests,
    stop: () => page.off('request', listener),
  };
}

/** The text of word/document.xml of a downloaded DOCX, tags removed and entities decoded. */
export async function documentText(download: Download): Promise<string> {
  const path = await download.path();
  const xml = new PizZip(readFileSync(path)).file('word/document.xml')?.asText();
  if (xml === undefined) throw new Error('no word/document.xml in the download');
  return xml
    .replace(/<w:tab\/>/g, '\t')
    .replace(/<\/w:p>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The tab the built-in editor opens a generated DOCX in, once `action` submitted the form. */
export async function editorOpenedBy(page: Page, action: () => Promise<void>): Promise<Page> {
  const [editor] = await Promise.all([page.waitForEvent('popup'), action()]);
  await expect(editor).toHaveURL(/\/dokumente\/[0-9a-f-]{36}$/);
  return editor;
}

/** The stored file of the version the editor tab shows, through its `Herunterladen` above the editor. */
export async function downloadFromEditor(editor: Page): Promise<Download> {
  const [download] = await Promise.all([
    editor.waitForEvent('download'),
    editor.getByRole('button', { name: 'Herunterladen', exact: true }).first().click(),
  ]);
  return download;
}

/** The editor tab's file, then the tab is closed. */
export async function downloadAndClose(editor: Page): Promise<Download> {
  try {
    return await downloadFromEditor(editor);
  } finally {
    await editor.close();
  }
}

/**
 * Submits and returns the generated file. The built-in editor (the default) opens it in a new tab;
 * the file comes from there, as the server stored it.
 */
export async function submitForDownload(page: Page): Promise<Download> {
  return downloadAndClose(await editorOpenedBy(page, () => submitButton(page).click()));
}

// The fillers below are shared with the screenshots: a complete, valid form each.

export async function fillDocx(page: Page, language: string, company: string, contract: string) {
  await choose(page, 'Sprache', language);
  await choose(page, 'Gesellschaft', company);
  await choose(page, 'Vertragsart', contract);
}

export async function fillTermination(
  page: Page,
  o: { company: string; partner: string; document: string; deadline?: string; signatory: string },
) {
  await choose(page, 'Gesellschaft', o.company);
  await choose(page, 'Vertragspartner', o.partner);
  await choose(page, 'Dokumentart', o.document);
  if (o.deadline) await choose(page, 'Kündigungsart', o.deadline);
  await choose(page, 'Unterzeichner', o.signatory);
}

export async function fillOffer(
  page: Page,
  o: { company: string; hours: string; days: string; signatory: string },
) {
  await choose(page, 'Gesellschaft', o.company);
  await type(page, 'Projektstunden', o.hours);
  await type(page, 'Projekttage', o.days);
  await choose(page, 'Unterzeichner', o.signatory);
}

export async function fillAgreement(page: Page, o: { agreement: string; company: string; partner: string }) {
  await choose(page, 'Art der Vereinbarung', o.agreement);
  await choose(page, 'Gesellschaft', o.company);
  await choose(page, 'Vertragspartner', o.partner);
}

/** The e-signature form with the project partner as the other party; `partner` only for legal users. */
export async function fillDocusign(
  page: Page,
  o: { language: string; company: string; contract: string; partner?: string; sender: string },
) {
  await choose(page, 'Sprache', o.language);
  await choose(page, 'Gesellschaft', o.company);
  await choose(page, 'Vertragsart', o.contract);
  if (o.partner) await choose(page, 'Vertragspartner', o.partner);
  await type(page, 'Projektpartner Name', 'Jana Kowalski');
  await type(page, 'Projektpartner E-Mail', 'jana.kowalski@example.org');
  await choose(page, 'Absender', o.sender);
}

/** A batch (/serien) of WM's Rahmenvertrag for customers with one signer, from a CSV of its deals' signers. */
export async function fillEsignatureBatch(page: Page, csvLines: string[]) {
  await choose(page, 'Dokument', 'E-Signatur-Vertrag');
  await choose(page, 'Sprache', 'Deutsch');
  await choose(page, 'Gesellschaft', 'WM Consulting GmbH');
  await choose(page, 'Vertragsart', 'Rahmenvertrag');
  await choose(page, 'Vertragspartner', 'Kunde');
  await choose(page, 'Unterschriftsblöcke Kunde', '1');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'rahmenvertraege.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['Match-ID;Unterzeichner;Unterzeichner E-Mail', ...csvLines].join('\n')),
  });
}
