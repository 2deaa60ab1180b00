import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { editedTemplate } from '../apps/server/src/test/template-edit.js';
import { expectAccessible } from './axe.js';
import { DOCX_MIME_TYPE } from './drive-fake.js';
import { documentText, fillOffer, loadMatch, openForm, submitForDownload } from './forms-support.js';
import { DEMO_ACCOUNTS, expect, signIn, test } from './support.js';

const OLD_TEXT = 'An dieses Angebot halten wir uns vier Wochen';
const NEW_TEXT = 'An dieses Angebot halten wir uns sechs Wochen';
const offer = readFileSync('templates/angebot-de.docx');

async function uploadVersion(page: Page, fileName: string, content: Buffer, comment: string) {
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: fileName, mimeType: DOCX_MIME_TYPE, buffer: content });
  await page.getByRole('textbox', { name: 'Was ändert sich?' }).fill(comment);
  await page.getByRole('button', { name: 'Hochladen und prüfen' }).click();
}

async function publishWith(page: Page, button: string, comment: string) {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /Kommentar/ }).fill(comment);
  await dialog.getByRole('button', { name: 'Veröffentlichen' }).click();
  await expect(dialog).toBeHidden();
}

/** The offer of PL-10001 generated through its form, as a consultant's colleague would. */
async function offerText(page: Page): Promise<string> {
  await openForm(page, '/offer', 'PL-10001');
  await fillOffer(page, {
    company: 'WM Consulting GmbH',
    hours: '160',
    days: '20',
    signatory: 'Sabine Kroll (Prokuristin)',
  });
  return documentText(await submitForDownload(page));
}

test('legal staff correct a template, try it on a deal, publish it, and roll it back', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await loadMatch(page, 'PL-10001');

  await page.getByRole('link', { name: 'Vorlagen' }).click();
  await expect(page.getByRole('table', { name: 'Vorlagen' })).toBeVisible();
  await expectAccessible(page, 'Vorlagen');
  await page.getByRole('link', { name: 'Vorlage angebot-de.docx öffnen' }).click();
  await expect(page.getByRole('heading', { name: 'angebot-de.docx', level: 1 })).toBeVisible();

  // A misspelt placeholder is named with its place and what it likely means, and blocks publishing.
  await uploadVersion(
    page,
    'angebot-de.docx',
    editedTemplate(offer, [['{angebotStundensatz}', '{angebotStundensaz}']]),
    'Tippfehler',
  );
  const problems = page
    .getByRole('alert')
    .filter({ hasText: 'so kann die Version nicht veröffentlicht werden' });
  await expect(problems).toContainText('Haupttext: {angebotStundensaz}');
  await expect(problems).toContainText('Gemeint: {angebotStundensatz}?');
  await expect(page.getByText('Erst eine Version ohne Probleme kann veröffentlicht werden.')).toBeVisible();
  await expectAccessible(page, 'a template version with a problem');

  // The corrected version: no problem, the changed paragraph marked, tried on a deal.
  await uploadVersion(
    page,
    'angebot-de.docx',
    editedTemplate(offer, [[OLD_TEXT, NEW_TEXT]]),
    'Bindefrist sechs Wochen',
  );
  await expect(page.getByText('Keine Probleme gefunden', { exact: false })).toBeVisible();
  const changes = page.getByRole('region', { name: 'Was sich ändert' });
  await expect(changes.locator('del')).toHaveText('gestrichen: vier');
  await expect(changes.locator('ins')).toHaveText('eingefügt: sechs');
  await page.getByRole('textbox', { name: /Match-ID/ }).fill('PL-10011');
  await page.getByRole('button', { name: 'Ausprobieren' }).click();
  const tried = page.getByRole('table', { name: 'Mit PL-10011:' });
  await expect(tried.getByRole('row').filter({ hasText: 'angebot-wm' })).toContainText('einsatzort');
  await tried.getByRole('button', { name: 'angebot-wm anzeigen' }).click();
  const preview = page.getByRole('region', { name: 'Vorschau: angebot-wm' });
  await expect(preview.getByText(NEW_TEXT, { exact: false })).toBeVisible({ timeout: 15_000 });
  const [trialDownload] = await Promise.all([
    page.waitForEvent('download'),
    tried.getByRole('button', { name: 'angebot-wm herunterladen' }).click(),
  ]);
  expect(await documentText(trialDownload)).toContain(NEW_TEXT);
  await expectAccessible(page, 'a template version under review', { exceptSuperdoc: true });

  await page.getByRole('button', { name: 'Veröffentlichen' }).click();
  await expectAccessible(page, 'the publish dialog', { exceptSuperdoc: true });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await publishWith(page, 'Veröffentlichen', 'Von der Rechtsabteilung freigegeben');
  await expect(page.getByText(/^Version \d+ ist veröffentlicht\.$/)).toBeVisible();
  const published = page.getByRole('table', { name: 'Versionen' }).getByRole('row').nth(1);
  await expect(published).toContainText('veröffentlicht');
  await expect(published).toContainText('legal@demo.local');

  const withNewText = await offerText(page);
  expect(withNewText).toContain(NEW_TEXT);
  expect(withNewText).not.toContain(OLD_TEXT);

  // Back to the text taken from the templates folder.
  await page.goto('/vorlagen/angebot-de?version=1');
  await publishWith(page, 'Version 1 wieder veröffentlichen', 'Zurück zu vier Wochen');
  await expect(page.getByText('Version 1 ist veröffentlicht.')).toBeVisible();
  const withOldText = await offerText(page);
  expect(withOldText).toContain(OLD_TEXT);
  expect(withOldText).not.toContain(NEW_TEXT);
});
