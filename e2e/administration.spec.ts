import type { Page } from '@playwright/test';
import { choose, loadMatch } from './forms-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signIn, test } from './support.js';

/** Opens a tab of /verwaltung. */
async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

test.describe('/verwaltung: Team-Operations without a shell', () => {
  // Two and three people sign in, one after the other.
  test.describe.configure({ timeout: 60_000 });

  test('neu asks for access, ops grants legal, neu reaches the five forms; ops takes it back', async ({
    browser,
  }) => {
    const neu = await newUserPage(browser);
    await signIn(neu, DEMO_ACCOUNTS.none);
    await expect(neu.getByRole('status')).toContainText('Team-Operations');
    await neu
      .getByRole('textbox', { name: /Nachricht an Team-Operations/ })
      .fill('Ich verstärke ab Montag Legal.');
    await neu.getByRole('button', { name: 'Zugang anfragen' }).click();
    await expect(neu.getByRole('button', { name: /^Zugang angefragt am/ })).toBeDisabled();
    await neu.reload();
    await expect(neu.getByRole('button', { name: /^Zugang angefragt am/ })).toBeDisabled();

    const ops = await newUserPage(browser);
    await signIn(ops, DEMO_ACCOUNTS.operations);
    await expect(ops).toHaveURL(/\/verwaltung$/);
    const request = ops.getByRole('row').filter({ hasText: 'Nina Neu' });
    await expect(request).toContainText('Ich verstärke ab Montag Legal.');
    await choose(ops, 'Stufe für Nina Neu', 'Legal (2)');
    await request.getByRole('button', { name: 'Freigeben' }).click();
    await expect(ops.getByText('Nina Neu hat jetzt Zugang.')).toBeVisible();
    await expect(ops.getByText('Keine offenen Zugangsanfragen.')).toBeVisible();

    // A reload of /login after the grant leads on, without a new sign-in.
    await neu.reload();
    await expect(neu).toHaveURL(/\/start$/);
    await neu.goto('/format');
    for (const form of [
      'DocuSign-Verträge',
      'DOCX-Kunde-Verträge',
      'Kündigungen',
      'Angebotserstellung',
      'Zusatzvereinbarungen',
    ]) {
      await expect(neu.getByRole('link', { name: form })).toBeVisible();
    }

    await openTab(ops, 'Mitarbeitende');
    await ops.getByRole('searchbox', { name: 'Suchen nach Name oder E-Mail' }).fill('Nina');
    await expect(ops.getByRole('row')).toHaveCount(2);
    await choose(ops, 'Stufe von Nina Neu', 'Keine Stufe');
    await expect(ops.getByText('Nina Neu ist geändert.')).toBeVisible();

    await neu.goto('/start');
    await expect(neu).toHaveURL(/\/login$/);

    await openTab(ops, 'Protokoll');
    const log = ops.getByRole('table');
    await expect(log.getByRole('row').nth(1)).toContainText('Stufe geändert');
    await expect(log.getByRole('row').nth(1)).toContainText('legal → none');
    await expect(log).toContainText('Zugang freigegeben');
  });

  test('an import with a refused row: checked first, then only the valid rows on request', async ({
    page,
    browser,
  }) => {
    await signIn(page, DEMO_ACCOUNTS.operations);
    await expect(page).toHaveURL(/\/verwaltung$/);
    await openTab(page, 'Matches importieren');
    const csv = [
      'matchId;kunde;position',
      'PL-88001;Nordlicht Versicherung AG;Cloud-Architektin',
      'PL-88002;<script>alert(1)</script>;Test',
      'PL-88003;Hafenkontor GmbH;Scrum Master',
    ].join('\n');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Match-Datei' }).click(),
    ]);
    await chooser.setFiles({ name: 'crm-export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Datei prüfen' }).click();
    await expect(page.getByText('2 neu, 0 geändert, 0 unverändert, 1 abgelehnt')).toBeVisible();
    const refused = page.getByRole('row').filter({ hasText: 'PL-88002' });
    await expect(refused).toContainText('3');
    await expect(refused).toContainText('Das Feld „kunde“ enthält HTML oder Skript');
    await expect(page.getByRole('button', { name: 'Importieren' })).toBeDisabled();

    await page.getByRole('checkbox', { name: /gültigen importieren/ }).check();
    await page.getByRole('button', { name: 'Importieren' }).click();
    await expect(page.getByText('2 Matches importiert.')).toBeVisible();

    const legal = await newUserPage(browser);
    await signIn(legal, DEMO_ACCOUNTS.legal);
    await expect(legal).toHaveURL(/\/start$/);
    await loadMatch(legal, 'PL-88003');
    await expect(legal.getByRole('table', { name: 'Match PL-88003' })).toContainText('Hafenkontor GmbH');
  });

  test('someone who is not an administrator gets no administration', async ({ page }) => {
    // A leader: legal staff have the administration's approval rules (e2e/approvals.spec.ts).
    await signIn(page, DEMO_ACCOUNTS.leader);
    await expect(page).toHaveURL(/\/start$/);
    await expect(page.getByRole('link', { name: 'Verwaltung' })).toHaveCount(0);
    await page.goto('/verwaltung');
    await expect(page.getByRole('alert').first()).toContainText('Dafür fehlt dir die Berechtigung');
  });
});
