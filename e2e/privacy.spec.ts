import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import PizZip from 'pizzip';
import { expectAccessible } from './axe.js';
import { DEMO_ACCOUNTS, expect, signIn, test } from './support.js';

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
}

async function search(page: Page, query: string) {
  const input = page.getByRole('textbox', { name: 'E-Mail-Adresse oder Name' });
  await input.fill(query);
  await input.press('Enter');
  return page.getByRole('region', { name: /Fundstellen?$/ });
}

/**
 * A person's data on request: an administrator finds a colleague by e-mail address, downloads their
 * export as a ZIP, erases them with the keyboard after a confirmation, and a search afterwards finds
 * only the audit log, which the law keeps. The retention rules are on the tab beside it.
 */
test('a person: found, exported, erased', async ({ page }) => {
  test.setTimeout(90_000);
  const suffix = randomBytes(3).toString('hex');
  const name = `Paula Privat ${suffix}`;
  const email = `paula.privat.${suffix}@demo.local`;
  await signIn(page, DEMO_ACCOUNTS.operations);
  await expect(page).toHaveURL(/\/verwaltung$/);

  await openTab(page, 'Aufbewahrung');
  await expect(page.getByRole('region', { name: 'Aufbewahrungsregeln' })).toContainText('Audit-Log');
  await expect(page.getByRole('textbox', { name: 'Dauer für Problemmeldungen' })).toHaveValue('1');
  await expectAccessible(page, '/verwaltung Aufbewahrung');

  await openTab(page, 'Mitarbeitende');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill(email);
  await page.getByRole('button', { name: 'Kolleg:in hinzufügen' }).click();
  await expect(page.getByText(`${name} ist eingetragen.`)).toBeVisible();

  await openTab(page, 'Personendaten');
  const hits = await search(page, email);
  await expect(hits.getByRole('row').filter({ hasText: 'Mitarbeiterliste' })).toContainText(email);
  await expectAccessible(page, '/verwaltung Personendaten with hits');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Auskunft als ZIP exportieren' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Auskunft-.*\.zip$/);
  const zip = new PizZip(await readFile(await download.path()));
  const json = JSON.parse(zip.file('person.json')?.asText() ?? '{}');
  expect(json.datensaetze.staff).toEqual([expect.objectContaining({ email, name })]);

  // By keyboard: the button opens the confirmation, whose last button erases.
  await page.getByRole('button', { name: 'Personendaten löschen …' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Personendaten löschen' });
  await expect(dialog).toContainText(email);
  await expectAccessible(page, '/verwaltung Personendaten, confirming the erase');
  await dialog.getByRole('button', { name: 'Endgültig löschen' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Gelöscht' })).toContainText(
    'Eintrag in der Mitarbeiterliste: 1',
  );
  await expect(page.getByRole('region', { name: 'Aufbewahrt (Pflicht)' })).toContainText('Audit-Log');
  await expectAccessible(page, '/verwaltung Personendaten after the erase');

  const after = await search(page, email);
  // The hits of the search before the erase stay until the new answer replaces them (and the list is
  // empty for a moment in between): the sources are read until they are the new search's.
  const sources = after.getByRole('row').locator('td:first-child');
  await expect.poll(async () => [...new Set(await sources.allTextContents())]).toEqual(['Audit-Log']);
});
