import { randomBytes } from 'node:crypto';
import { expectAccessible } from './axe.js';
import { DEMO_ACCOUNTS, expect, signIn, test } from './support.js';

const OFFER = '/backend/generateDocxOffer/angebot-wm/PL-10001';
const OFFER_DATA = {
  dataList: {
    projectHours: 160,
    projectDays: 20,
    selectedPerson: 'henrik-albers',
    vertragspartner_type: 'k',
  },
};

/**
 * An administrator creates an API client with the keyboard, the token (shown once) generates an offer
 * as README's curl does, the list shows its last use, and after the revocation the token is refused.
 */
test('an API client: created on /verwaltung, used for an offer, revoked', async ({ page, request }) => {
  test.setTimeout(90_000);
  const name = `CRM Angebotsknopf ${randomBytes(3).toString('hex')}`;
  await signIn(page, DEMO_ACCOUNTS.operations);
  await expect(page).toHaveURL(/\/verwaltung$/);
  await page.getByRole('tab', { name: 'API-Zugänge' }).click();
  await expect(page.getByRole('heading', { name: 'API-Zugang anlegen' })).toBeVisible();
  await expectAccessible(page, '/verwaltung API-Zugänge');

  // By keyboard alone: name, level (the select opens on ArrowDown), and Enter to submit.
  await page.getByRole('textbox', { name: /^Name/ }).focus();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Stufe', exact: true })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.getByRole('option', { name: 'Leitung (3)' }).waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Stufe', exact: true })).toHaveValue('Leitung (3)');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');

  const shown = page.getByRole('region', { name: `Token für ${name}` });
  await expect(shown).toBeVisible();
  await expect(page.getByRole('button', { name: 'Token kopieren' })).toBeFocused();
  const token = (await shown.getByLabel('Token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^vg_[A-Za-z0-9_-]{43}$/);
  await expectAccessible(page, '/verwaltung API-Zugänge with the token shown once');

  const offer = await request.post(OFFER, {
    headers: { authorization: `Bearer ${token}` },
    data: OFFER_DATA,
  });
  expect(offer.status(), await offer.text()).toBe(200);
  expect(offer.headers()['x-document-id']).toBeTruthy();
  const admin = await request.get('/backend/admin/api-clients', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(admin.status()).toBe(403);

  await page.getByRole('button', { name: 'Token gesichert, ausblenden' }).click();
  await expect(page.getByText(token)).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: name });
  // The last use is recorded once the answer is out: the list shows it after a reload of the tab.
  await expect(async () => {
    await page.getByRole('tab', { name: 'Protokoll' }).click();
    await page.getByRole('tab', { name: 'API-Zugänge' }).click();
    await expect(row).not.toContainText('noch nie', { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });

  await row.getByRole('button', { name: `${name} widerrufen` }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `API-Zugang „${name}“ widerrufen?` });
  await expect(dialog.getByRole('button', { name: 'Abbrechen' })).toBeFocused();
  await expectAccessible(page, '/verwaltung API-Zugänge, revoking');
  await dialog.getByRole('button', { name: 'Widerrufen' }).click();
  await expect(row).toContainText('widerrufen am');

  const refused = await request.post(OFFER, {
    headers: { authorization: `Bearer ${token}` },
    data: OFFER_DATA,
  });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ message: 'Dieser API-Zugang wurde widerrufen.' });
});
