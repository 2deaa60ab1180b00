import type { Page } from '@playwright/test';
import PizZip from 'pizzip';
import { DRIVE_FAKE_PORT, GOOGLE_BASE_URL } from '../playwright.config.js';
import { expectAccessible } from './axe.js';
import { type DriveFake, GOOGLE_DOCS_MIME_TYPE, startDriveFake } from './drive-fake.js';
import { demoMatch, fillDocx, loadMatch, openForm, submitButton } from './forms-support.js';
import { DEMO_ACCOUNTS, expect, signIn, test } from './support.js';

// The second app server of playwright.config.ts: DOCUMENT_EDITOR=google, Drive at the fake started here.
test.use({ baseURL: GOOGLE_BASE_URL });
test.describe.configure({ mode: 'serial' });

const match = demoMatch('PL-10001');
const FILE_NAME = `${match.matchId} Einzelauftrag Kunde ${match.kunde}.docx`;
const DOC_NAME = FILE_NAME.replace(/\.docx$/, '');

let drive: DriveFake;

/** Drive asks Google whose token it is; here the embedded provider's userinfo endpoint answers. */
async function tokenOwner(token: string): Promise<{ email: string } | null> {
  const response = await fetch(`${GOOGLE_BASE_URL}/idp/me`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok) return null;
  const { email } = (await response.json()) as { email?: string };
  return email ? { email } : null;
}

test.beforeAll(async () => {
  drive = await startDriveFake({
    port: DRIVE_FAKE_PORT,
    appOrigin: GOOGLE_BASE_URL,
    verifyToken: tokenOwner,
  });
});
test.afterAll(async () => {
  await drive?.close();
});
test.beforeEach(() => {
  drive.reset();
});
test.afterEach(() => {
  // Every request the app sent had the shape Drive v3 expects.
  expect(drive.rejections).toEqual([]);
});

/**
 * Signs in (a fresh page per test: the app's 30 s token check never runs within one, so the fake sees
 * the hand-over's calls alone) and fills the DOCX form of a legal user.
 */
async function fillDocxForm(page: Page): Promise<void> {
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await loadMatch(page, match.matchId);
  await openForm(page, '/contract/docx', match.matchId);
  await fillDocx(page, 'Deutsch', 'WE Engineering GmbH', 'Einzelauftrag');
}

/** The pages opened from now on whose URL is on the Drive fake (the sign-in popup is not). */
function drivePage(page: Page): Promise<Page> {
  return page.waitForEvent('popup', { predicate: (popup) => popup.url().startsWith(drive.url) });
}

function textOf(docx: Buffer): string {
  return (new PizZip(docx).file('word/document.xml')?.asText() ?? '').replace(/<[^>]+>/g, '');
}

test('legal generates a DOCX: Drive receives, converts and cleans up, the Google Doc opens in a new tab', async ({
  page,
}) => {
  await fillDocxForm(page);
  const opened = drivePage(page);
  await submitButton(page).click();

  const docPage = await opened;
  await expect(docPage.getByRole('heading', { level: 1 })).toHaveText(DOC_NAME);
  await expect(docPage).toHaveURL(new RegExp(`^${drive.url}/document/d/doc-\\d+/edit$`));
  await expect(page.getByText('100 % – Fertig')).toBeVisible();
  await expect.poll(() => drive.calls).toEqual(['about', 'upload', 'copy', 'delete']);

  // The upload is gone; the Google Doc stays, made from the generated contract.
  const files = [...drive.files.values()];
  expect(files.map(({ name, mimeType }) => ({ name, mimeType }))).toEqual([
    { name: DOC_NAME, mimeType: GOOGLE_DOCS_MIME_TYPE },
  ]);
  expect(textOf(files[0]?.content ?? Buffer.alloc(0))).toContain(match.kunde);
});

test('an expired Drive token: the German question, a new sign-in, then the Google Doc', async ({ page }) => {
  await fillDocxForm(page);
  drive.failNext('about', 401);
  await submitButton(page).click();

  const question = page.getByRole('dialog', { name: 'Google Drive' });
  await expect(question).toContainText(
    'Deine Google-Drive-Sitzung ist abgelaufen. Möchtest du dich jetzt erneut anmelden?',
  );
  const opened = drivePage(page);
  // The provider still knows the user: its popup signs in again without asking and closes itself.
  const [signInPopup] = await Promise.all([
    page.waitForEvent('popup'),
    question.getByRole('button', { name: 'Ja' }).click(),
  ]);
  await signInPopup.waitForEvent('close');

  const docPage = await opened;
  await expect(docPage.getByRole('heading', { level: 1 })).toHaveText(DOC_NAME);
  await expect.poll(() => drive.calls).toEqual(['about:401', 'about', 'upload', 'copy', 'delete']);
  await expect(question).toHaveCount(0);
  // The new ID token has a server session of its own: the app goes on working.
  await page.goto('/start');
  await expect(page).toHaveURL(/\/start$/);
});

test('Drive fails the upload (500): the DOCX is downloaded instead, with a notice', async ({ page }) => {
  await fillDocxForm(page);
  drive.failNext('upload', 500);
  const [download] = await Promise.all([page.waitForEvent('download'), submitButton(page).click()]);

  expect(download.suggestedFilename()).toBe(FILE_NAME);
  await expect(
    page.getByText(
      'Das Hochladen zu Google Drive ist fehlgeschlagen. Das Dokument wurde stattdessen heruntergeladen.',
    ),
  ).toBeVisible();
  expect(drive.calls).toEqual(['about', 'upload:500']);
  expect(drive.files.size).toBe(0);
});

test('a blocked new tab: the dialog offers to open the Google Doc in the current tab', async ({ page }) => {
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  // A tab of its own (same sign-in): the blocker script stays on a page for all its loads, and the
  // sign-in popup above must not meet it.
  const blocked = await page.context().newPage();
  await blocked.addInitScript(() => {
    const open = window.open.bind(window);
    // A popup blocker refuses new tabs; opening in this tab stays possible.
    window.open = (url?: string | URL, target?: string, features?: string) =>
      target === '_self' ? open(url, target, features) : null;
  });
  await loadMatch(blocked, match.matchId);
  await openForm(blocked, '/contract/docx', match.matchId);
  await fillDocx(blocked, 'Deutsch', 'WE Engineering GmbH', 'Einzelauftrag');
  await submitButton(blocked).click();

  const dialog = blocked.getByRole('dialog', { name: 'Neuer Tab blockiert' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Im aktuellen Tab öffnen' }).click();
  await expect(blocked).toHaveURL(new RegExp(`^${drive.url}/document/d/doc-\\d+/edit$`));
  await expect(blocked.getByRole('heading', { level: 1 })).toHaveText(DOC_NAME);
  expect(drive.calls).toEqual(['about', 'upload', 'copy', 'delete']);
});

test('a thin deal’s contract is held for a Freigabe: nothing reaches Drive, and the form asks for it', async ({
  page,
}) => {
  // PL-10006's rates make a margin below WM's 15 % (config/demo-matches.json).
  const thin = demoMatch('PL-10006');
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await loadMatch(page, thin.matchId);
  await openForm(page, '/contract/docx', thin.matchId);
  await fillDocx(page, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag');
  await submitButton(page).click();

  await expect(page.getByText('Freigabe nötig')).toBeVisible();
  await expect(page.getByText(/^Marge remote .+ % liegt unter 15 % \(WM\)$/)).toBeVisible();
  await expectAccessible(page, 'the DOCX form with a document held for a Freigabe');
  await page.getByRole('button', { name: 'Zur Freigabe senden' }).click();
  await expect(page.getByText('Wartet auf Freigabe')).toBeVisible();
  await expectAccessible(page, 'the DOCX form with a document waiting for its Freigabe');
  // Held back: not even uploaded for conversion.
  expect(drive.calls).toEqual([]);
});
