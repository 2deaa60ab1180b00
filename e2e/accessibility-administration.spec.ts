import { expectAccessible } from './axe.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signIn, test } from './support.js';

/** axe-core on /login's access request and on every tab of /verwaltung. */
test('the access request and the administration pass axe', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO_ACCOUNTS.none);
  await expect(page.getByRole('button', { name: 'Zugang anfragen' })).toBeVisible();
  await expectAccessible(page, '/login without a level');

  const ops = await newUserPage(browser);
  await signIn(ops, DEMO_ACCOUNTS.operations);
  await expect(ops).toHaveURL(/\/verwaltung$/);
  await expect(ops.getByRole('tab', { name: 'Zugangsanfragen' })).toHaveAttribute('aria-selected', 'true');
  await expectAccessible(ops, '/verwaltung Zugangsanfragen');
  for (const [tab, ready] of [
    ['Mitarbeitende', 'Olga Operations'],
    ['Protokoll', ''],
    ['Matches importieren', 'Match-Datei'],
  ] as const) {
    await ops.getByRole('tab', { name: tab }).click();
    if (ready) await expect(ops.getByText(ready).first()).toBeVisible();
    else await expect(ops.getByRole('tabpanel')).not.toContainText('Wird geladen');
    await expectAccessible(ops, `/verwaltung ${tab}`);
  }
});
