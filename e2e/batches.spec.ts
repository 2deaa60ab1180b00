import { expectAccessible } from './axe.js';
import { recordSignedElsewhere } from './contracts-support.js';
import { choose, demoMatch, fillEsignatureBatch } from './forms-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, sharedPage, signedIn, test } from './support.js';

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

  test('e-signature contracts from a CSV: the countersignatory chosen once, the envelopes sent, the thin margin approved on /freigaben', async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const page = legal();
    await page.goto('/serien');
    // PL-10009 sells well above its buying rate; PL-10006 below it (config/demo-matches.json).
    await fillEsignatureBatch(page, [
      'PL-10009;Wiebke Weser;wiebke@weserland.example',
      'PL-10006;Bruno Brückner;bruno@brueckner.example',
    ]);
    await choose(page, 'Gegenzeichnung (Firma)', await firstCountersignatory(page));
    await page.getByLabel('Nachricht an die Unterzeichner').fill('Wie besprochen – bitte unterschreiben.');
    await expectAccessible(page, '/serien, an e-signature batch');
    await page.getByRole('button', { name: 'Prüfen' }).click();

    const check = page.getByRole('table', { name: 'Ergebnis der Prüfung' });
    await expect(check.getByRole('row', { name: /PL-10009/ })).toContainText('Bereit');
    await expect(check.getByRole('row', { name: /PL-10006/ })).toContainText('Braucht Freigabe');
    await page.getByRole('button', { name: 'Serie starten' }).click();
    await expect(page.getByRole('heading', { level: 1 }).locator('..')).toContainText('Fertig', {
      timeout: 30_000,
    });
    const deals = page.getByRole('table', { name: 'Deals der Serie' });
    await expect(deals.getByRole('link', { name: /Umschlag öffnen.*PL-10009/ })).toHaveAttribute(
      'href',
      /^\/signatur\/[0-9a-f-]{36}$/,
    );
    await expect(deals.getByRole('row', { name: /PL-10006/ })).toContainText('Freigabe offen');
    await expectAccessible(page, 'a finished e-signature batch');
    const batchUrl = page.url();

    // A leader finds the batch as one request and approves it whole.
    const leader = await newUserPage(browser);
    await signedIn(leader, DEMO_ACCOUNTS.leader);
    await leader.goto('/freigaben');
    await leader
      .getByRole('table', { name: 'Serien mit Freigabe-Anfragen' })
      .getByRole('link', { name: /^Serie prüfen: Rahmenvertrag – Kunde, WM/ })
      .first()
      .click();
    await expect(leader.getByRole('heading', { level: 1 })).toContainText('Rahmenvertrag – Kunde, WM');
    await expectAccessible(leader, '/freigaben/serien/…');
    await leader.getByRole('button', { name: /Alle freigeben \(1\)/ }).click();
    await expect(
      leader.getByRole('table', { name: /Deals/ }).getByRole('row', { name: /PL-10006/ }),
    ).toContainText('Freigegeben');

    await page.goto(batchUrl);
    await expect(
      page.getByRole('table', { name: 'Deals der Serie' }).getByRole('row', { name: /PL-10006/ }),
    ).toContainText('Freigegeben');
  });
});

/** The first of the company's signatories the batch form offers to countersign. */
async function firstCountersignatory(page: import('@playwright/test').Page): Promise<string> {
  await page.getByRole('combobox', { name: 'Gegenzeichnung (Firma)' }).click();
  const first = page.getByRole('option').first();
  const name = (await first.textContent()) ?? '';
  await page.keyboard.press('Escape');
  return name;
}
