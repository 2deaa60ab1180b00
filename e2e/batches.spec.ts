import { expectAccessible } from './axe.js';
import { recordSignedElsewhere } from './contracts-support.js';
import { demoMatch } from './forms-support.js';
import { DEMO_ACCOUNTS, expect, sharedPage, test } from './support.js';

/**
 * Serien, end to end: legal records an Einzelauftrag of WE with Saalekreis Chemie AG (PL-10019, ending
 * 31.12.2027; no other spec uses it) as signed elsewhere, finds it on /vertraege among the contracts
 * ending within 400 days, and extends it as a batch: prefilled from /vertraege, an unknown deal added,
 * checked, started and done, with its document's link.
 */
const order = demoMatch('PL-10019');

test.describe('Serien', () => {
  test.describe.configure({ mode: 'serial' });
  const legal = sharedPage(DEMO_ACCOUNTS.legal);

  test('from /vertraege: the contracts ending soon extended as a batch — checked, started, done', async () => {
    test.setTimeout(150_000);
    const page = legal();
    const record = await recordSignedElsewhere(
      page,
      order.matchId,
      'Einzelauftrag',
      '2026-11-25',
      'Kai Kunde',
    );
    await record.close();

    await page.goto(`/vertraege?endsWithin=400&customer=${encodeURIComponent('Saalekreis')}`);
    await expect(page.getByRole('table', { name: 'Verträge' })).toContainText(order.matchId);
    await page.getByRole('link', { name: 'Verlängern' }).click();
    await expect(page).toHaveURL(/\/serien\?dokument=verlaengerung-de-we-k&matches=PL-10019$/);
    const ids = page.getByRole('textbox', { name: 'Match-IDs' });
    await expect(ids).toHaveValue(order.matchId);
    await ids.fill(`${order.matchId}\nPL-99999`);
    await page.getByLabel(/Neues Vertragsende/).fill('2028-06-30');
    await expectAccessible(page, '/serien, filled');
    await page.getByRole('button', { name: 'Prüfen' }).click();

    await expect(page).toHaveURL(/\/serien\/[0-9a-f-]{36}$/);
    const check = page.getByRole('table', { name: 'Ergebnis der Prüfung' });
    await expect(check.getByRole('row', { name: new RegExp(order.matchId) })).toContainText('Bereit');
    await expect(check.getByRole('row', { name: /PL-99999/ })).toContainText(
      'Nicht möglichDiesen Match gibt es im CRM nicht.',
    );
    await expect(page.getByText('1 bereit, 0 brauchen Freigabe, 1 nicht möglich')).toBeVisible();
    const [preview] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Vorschau ${order.matchId}` }).click(),
    ]);
    expect(preview.suggestedFilename()).toBe(
      `Vorschau ${order.matchId} Verlängerung Kunde ${order.kunde}.docx`,
    );
    await expectAccessible(page, 'a checked batch');

    await page.getByRole('button', { name: 'Serie starten' }).click();
    const documentLink = page.getByRole('link', { name: `Dokument öffnen (${order.matchId})` });
    await expect(documentLink).toHaveAttribute('href', /^\/dokumente\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    await expect(page.getByRole('heading', { level: 1 }).locator('..')).toContainText('Fertig');
    await expect(page.getByRole('table', { name: 'Deals der Serie' })).toContainText('Übersprungen');
    await expectAccessible(page, 'a finished batch');

    // The batch is in the starter's list.
    await page.getByRole('link', { name: 'Zurück zu den Serien' }).click();
    await expect(page.getByRole('table', { name: 'Meine Serien' })).toContainText('Verlängerung – Kunde, WE');
  });
});
