import { expectAccessible } from './axe.js';
import { DEMO_ACCOUNTS, expect, sharedPage, signIn, test } from './support.js';

/** axe-core on /login's access request and on every tab of /verwaltung. */
test('/login without a level: the access request', async ({ page }) => {
  await signIn(page, DEMO_ACCOUNTS.none);
  await expect(page.getByRole('button', { name: 'Zugang anfragen' })).toBeVisible();
  await expectAccessible(page, '/login without a level');
});

test.describe('/verwaltung', () => {
  test.describe.configure({ mode: 'serial' });
  const getPage = sharedPage(DEMO_ACCOUNTS.operations, /\/verwaltung$/);

  // What a tab shows once it has loaded; a tab whose content varies is ready when its loader is gone.
  for (const [tab, ready] of [
    ['Zugangsanfragen', ''],
    ['Mitarbeitende', 'Olga Operations'],
    ['Protokoll', ''],
    ['Matches importieren', 'Match-Datei'],
  ] as const) {
    test(tab, async () => {
      const ops = getPage();
      await ops.getByRole('tab', { name: tab }).click();
      await expect(ops.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      if (ready) await expect(ops.getByText(ready).first()).toBeVisible();
      else await expect(ops.getByRole('tabpanel')).not.toContainText('Wird geladen');
      await expectAccessible(ops, `/verwaltung ${tab}`);
    });
  }
});
