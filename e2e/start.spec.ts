import type { Page } from '@playwright/test';
import { DEMO_ACCOUNTS, expect, signIn, test } from './support.js';

async function confirmMatchId(page: Page, input: string) {
  await page.getByLabel('Match-ID').fill(input);
  await page.getByRole('button', { name: 'Bestätigen' }).click();
}

/** A display row, found by the element that holds exactly its label (a row header, or the label above a wide value). */
function row(page: Page, label: string) {
  return page.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });
}

test.describe('/start: enter a match ID and check the deal', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
  });

  test('the full flow: ID without prefix, formatted table, Weiter to /format', async ({ page }) => {
    const confirm = page.getByRole('button', { name: 'Bestätigen' });
    const next = page.getByRole('button', { name: 'Weiter' });
    await expect(confirm).toBeDisabled();
    await expect(next).toBeDisabled();
    await expect(page.getByText(/im CRM/)).toBeVisible();

    await confirmMatchId(page, '10003');
    const table = page.getByRole('table', { name: 'Match PL-10003' });
    await expect(table).toBeVisible();
    // Values as the CRM record of PL-10003 holds them, formatted as the match table formats them.
    await expect(row(page, 'Projektpartner')).toContainText('Sören Lindqvist');
    await expect(row(page, 'Startdatum')).toContainText('01.03.2027');
    await expect(row(page, 'Enddatum')).toContainText('29.02.2028');
    await expect(row(page, 'Zahlungsziel Kunde')).toContainText('2 Wochen');
    await expect(row(page, 'EK Remote')).toContainText('105,00 €');
    await expect(row(page, 'VK Remote')).toContainText('135,00 €');
    await expect(row(page, 'Auslastung')).toContainText('32 pro Woche');
    expect(await page.evaluate(() => localStorage.getItem('matchId'))).toBe('PL-10003');

    await expect(next).toBeEnabled();
    await next.click();
    await expect(page).toHaveURL(/\/format$/);
  });

  test('Enter submits, and text that looks like HTML is shown as text', async ({ page }) => {
    await page.getByLabel('Match-ID').fill('PL-10006');
    await page.getByLabel('Match-ID').press('Enter');
    await expect(row(page, 'Position')).toContainText('Entwickler C++ <Embedded> & Qt');
    await expect(row(page, 'Kunde')).toContainText('Brückner & Söhne Maschinenbau GmbH & Co. KG');
    // VK below EK in this record: a hint above the table names the fields to correct in the CRM.
    await expect(page.getByRole('status').filter({ hasText: 'Bitte prüfen' })).toContainText('VK Remote');
  });

  test('a wrong ID shows its alert and keeps Weiter disabled', async ({ page }) => {
    await confirmMatchId(page, 'PL-99999');
    await expect(page.getByRole('alert')).toHaveText(
      'Die Match-ID ist nicht korrekt. Bitte gib die ID erneut ein.',
    );
    await expect(page.getByRole('button', { name: 'Weiter' })).toBeDisabled();
  });

  test('a reload shows the same match again', async ({ page }) => {
    await confirmMatchId(page, '10001');
    await expect(row(page, 'Kunde')).toContainText('Elbwerk Logistik AG');
    await page.reload();
    await expect(page.getByRole('table', { name: 'Match PL-10001' })).toBeVisible();
    await expect(row(page, 'Kunde')).toContainText('Elbwerk Logistik AG');
    await expect(page.getByLabel('Match-ID')).toHaveValue('PL-10001');
    await expect(page.getByRole('button', { name: 'Weiter' })).toBeEnabled();
  });
});
