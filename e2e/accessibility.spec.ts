import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import {
  fillAgreement,
  fillDocx,
  fillOffer,
  fillTermination,
  loadMatch,
  openForm,
  redMessage,
  submitButton,
} from './forms-support.js';
import { fillCustomerContract } from './signature-support.js';
import { DEMO_ACCOUNTS, expect, openSignInPopup, sharedPage, test } from './support.js';

/**
 * axe-core (WCAG 2.2 A and AA) on every page in the states a user meets: no serious or critical
 * violation anywhere. The administration has its own run (accessibility-administration.spec.ts); the
 * editor, the sender view, the signing page, the match history, Offene Signaturen and PDF prüfen are
 * checked in the flows that reach them (editor.spec.ts, signature.spec.ts), without a second flow.
 */

test.describe('sign-in', () => {
  test('/login', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeVisible();
    await expectAccessible(page, '/login');
  });

  test('the provider sign-in page', async ({ page }) => {
    const popup = await openSignInPopup(page);
    await expectAccessible(popup, 'the provider sign-in page');
  });

  test('the provider sign-in page with its error', async ({ page }) => {
    const popup = await openSignInPopup(page);
    await popup.getByLabel('E-Mail').fill(DEMO_ACCOUNTS.legal);
    await popup.getByLabel('Passwort').fill('falsch');
    await popup.getByRole('button', { name: 'Anmelden' }).click();
    await expect(popup.getByRole('alert')).toBeVisible();
    await expectAccessible(popup, 'the provider sign-in page with its error');
  });

  test('/login with the popup-closed message', async ({ page }) => {
    const popup = await openSignInPopup(page);
    await popup.close();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectAccessible(page, '/login with the popup-closed message');
  });
});

test.describe('signed in: /start, the problem report, /format, Platzhalter', () => {
  test.describe.configure({ mode: 'serial' });
  const getPage = sharedPage(DEMO_ACCOUNTS.legal);

  // First: a match confirmed by a later test would be shown again by /start.
  test('/start empty', async () => {
    const page = getPage();
    await page.goto('/start');
    await expect(page.getByLabel('Match-ID')).toHaveValue('');
    await expectAccessible(page, '/start empty');
  });

  test('/start after a wrong ID', async () => {
    const page = getPage();
    await page.goto('/start');
    await page.getByLabel('Match-ID').fill('99999');
    await page.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expectAccessible(page, '/start after a wrong ID');
  });

  test('/start with a match and its hints', async () => {
    const page = getPage();
    await loadMatch(page, 'PL-10006');
    await expectAccessible(page, '/start with a match and hints');
  });

  test('the problem report', async () => {
    const page = getPage();
    await loadMatch(page, 'PL-10006');
    await page.getByRole('button', { name: 'Problem melden' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page, 'the problem report');
  });

  test('/format', async () => {
    const page = getPage();
    await page.goto('/format');
    await expect(page.getByRole('heading', { name: 'Format wählen' })).toBeVisible();
    await expectAccessible(page, '/format');
  });

  test('Platzhalter', async () => {
    const page = getPage();
    await page.goto('/vorlagen');
    await page.getByRole('link', { name: 'Platzhalter ansehen' }).click();
    await expect(page.getByRole('table', { name: 'Felder' })).toBeVisible();
    await expectAccessible(page, 'Platzhalter');
  });
});

test.describe('the forms: empty, after an empty submit, filled', () => {
  test.describe.configure({ mode: 'serial' });
  const getPage = sharedPage(DEMO_ACCOUNTS.legal);
  test.beforeAll(async () => {
    await loadMatch(getPage(), 'PL-10001');
  });

  const forms: { path: string; fill: (page: Page) => Promise<void> }[] = [
    { path: '/contract/docusign', fill: fillCustomerContract },
    { path: '/contract/docx', fill: (p) => fillDocx(p, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag') },
    {
      path: '/termination',
      fill: (p) =>
        fillTermination(p, {
          company: 'WM Consulting GmbH',
          partner: 'Kunde',
          document: 'Kündigung',
          deadline: 'Fristgerecht',
          signatory: 'Lea Brandt (Leiterin Recht & Verträge)',
        }),
    },
    {
      path: '/offer',
      fill: (p) =>
        fillOffer(p, {
          company: 'WM Consulting GmbH',
          hours: '480',
          days: '60',
          signatory: 'Henrik Albers (Geschäftsführer)',
        }),
    },
    {
      path: '/agreement',
      fill: (p) =>
        fillAgreement(p, {
          agreement: 'Aufgabenbeschreibung',
          company: 'WM Consulting GmbH',
          partner: 'Kunde',
        }),
    },
  ];
  for (const form of forms) {
    test(`${form.path} empty`, async () => {
      const page = getPage();
      await openForm(page, form.path, 'PL-10001');
      await expectAccessible(page, `${form.path} empty`);
    });

    test(`${form.path} after an empty submit`, async () => {
      const page = getPage();
      await openForm(page, form.path, 'PL-10001');
      await submitButton(page).click();
      await expect(redMessage(page)).toBeVisible();
      await expectAccessible(page, `${form.path} after an empty submit`);
    });

    test(`${form.path} filled after an empty submit`, async () => {
      const page = getPage();
      await openForm(page, form.path, 'PL-10001');
      await submitButton(page).click();
      await expect(redMessage(page)).toBeVisible();
      await form.fill(page);
      await expectAccessible(page, `${form.path} filled`);
    });
  }
});
