import { expect, test } from '@playwright/test';
import { DEMO_ACCOUNTS, openSignInPopup, signIn } from './support.js';

/**
 * Writes the screenshots under docs/screenshots/ (`npm run screenshots`). Skipped in the normal test
 * run, so tests never change files of the repository.
 */
test.skip(!process.env.SCREENSHOTS, 'only with SCREENSHOTS=1 (npm run screenshots)');
test.use({ viewport: { width: 1280, height: 860 } });

const shot = (name: string) => `docs/screenshots/${name}.png`;

test('login page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeVisible();
  await page.screenshot({ path: shot('login') });
});

test('embedded sign-in page with a wrong password', async ({ page }) => {
  const popup = await openSignInPopup(page);
  await popup.setViewportSize({ width: 520, height: 640 });
  await popup.screenshot({ path: shot('idp-sign-in') });
  await popup.getByLabel('E-Mail').fill(DEMO_ACCOUNTS.legal);
  await popup.getByLabel('Passwort').fill('falsch');
  await popup.getByRole('button', { name: 'Anmelden' }).click();
  await expect(popup.getByRole('alert')).toBeVisible();
  await popup.screenshot({ path: shot('idp-sign-in-error') });
});

test('no permission message', async ({ page }) => {
  await signIn(page, DEMO_ACCOUNTS.none);
  await expect(page.getByRole('alert')).toContainText('Team-Operations');
  await page.screenshot({ path: shot('login-no-permission') });
});

test('start page with a loaded match, and the format page', async ({ page }) => {
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await page.getByLabel('Match-ID').fill('PL-10006');
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByRole('table', { name: 'Match PL-10006' })).toBeVisible();
  // A viewport as tall as the page: a full-page capture would paint the fixed footer mid-page.
  await page.setViewportSize({ width: 1280, height: 1900 });
  await page.screenshot({ path: shot('start-match') });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(page.getByRole('heading', { name: 'Format wählen' })).toBeVisible();
  await page.screenshot({ path: shot('format') });
});
