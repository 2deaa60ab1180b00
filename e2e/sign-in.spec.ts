import { DEMO_ACCOUNTS, expect, openSignInPopup, signIn, submitCredentials, test } from './support.js';

test.describe('sign-in with the embedded identity provider', () => {
  for (const role of ['consultant', 'legal', 'leader'] as const) {
    test(`${role} lands on /start`, async ({ page }) => {
      await signIn(page, DEMO_ACCOUNTS[role]);
      await expect(page).toHaveURL(/\/start$/);
      await expect(page.getByRole('heading', { name: 'Match-ID eingeben' })).toBeVisible();
      await expect(page.getByText(/^Version \d+\.\d+\.\d+/)).toBeVisible();
      const permission = await page.evaluate(() => localStorage.getItem('permission'));
      expect(permission).toBe({ consultant: '1', legal: '2', leader: '3' }[role]);
    });
  }

  test('a user without permission stays on /login with the Team-Operations message', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.none);
    await expect(page.getByRole('status')).toContainText('Team-Operations');
    await expect(page.getByRole('button', { name: 'Zugang anfragen' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/start');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('wrong credentials show a German message in the sign-in window, then the right ones work', async ({
    page,
  }) => {
    const popup = await openSignInPopup(page);
    await submitCredentials(popup, DEMO_ACCOUNTS.legal, 'falsch');
    await expect(popup.getByRole('alert')).toHaveText(/E-Mail oder Passwort ist falsch/);
    await expect(popup.getByLabel('E-Mail')).toHaveValue(DEMO_ACCOUNTS.legal);
    await submitCredentials(popup, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
  });

  test('closing the sign-in window shows the popup-closed message', async ({ page }) => {
    const popup = await openSignInPopup(page);
    await popup.close();
    await expect(page.getByRole('alert')).toHaveText(/Anmeldefenster wurde geschlossen/);
    await expect(page.getByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeEnabled();
  });

  test('an unreachable identity provider gives the failure message, and a retry works', async ({ page }) => {
    await page.route('**/idp/.well-known/openid-configuration', (route) => route.abort('connectionrefused'));
    await page.goto('/login');
    await page.getByRole('button', { name: 'Mit Demo-SSO anmelden' }).click();
    await expect(page.getByRole('alert')).toHaveText(/fehlgeschlagen|Fehler aufgetreten/);
    await page.unroute('**/idp/.well-known/openid-configuration');
    await signIn(page, DEMO_ACCOUNTS.consultant);
    await expect(page).toHaveURL(/\/start$/);
  });

  test('a direct visit of /start without a session ends on /login', async ({ page }) => {
    await page.goto('/start');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeVisible();
  });

  test('a reload keeps the sign-in', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
    await page.goto('/format');
    await expect(page.getByRole('heading', { name: 'Format wählen' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Format wählen' })).toBeVisible();
  });

  test('logout ends the session: the old token is refused and /start leads to /login', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.leader);
    // The token is stored once the code exchange after the popup is done; /start comes after that.
    await expect(page).toHaveURL(/\/start$/);
    const token = await page.evaluate(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:'));
      return key
        ? (JSON.parse(localStorage.getItem(key) ?? '{}') as { id_token?: string }).id_token
        : undefined;
    });
    expect(token).toBeTruthy();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('userMail'))).toBeNull();

    const verify = await page.request.post('/backend/private/verifyUser', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(verify.status()).toBe(401);

    await page.goto('/start');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('after logout the next sign-in asks for credentials again', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.leader);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
    expect(await page.evaluate(() => localStorage.getItem('userMail'))).toBe(DEMO_ACCOUNTS.legal);
  });
});
