import type { Page } from '@playwright/test';
import {
  countGenerationRequests,
  fillDocusign,
  loadMatch,
  openForm,
  progress,
  redMessage,
  submitButton,
} from './forms-support.js';
import { DEMO_ACCOUNTS, expect, sharedPage, test } from './support.js';

test.describe('legal: the e-signature form', () => {
  const getPage = sharedPage(DEMO_ACCOUNTS.legal);

  test('e-signature form: legal chooses the partner type; English with WP is "Ungültige Auswahl"', async () => {
    const page = getPage();
    await loadMatch(page, 'PL-10001');
    await openForm(page, '/contract/docusign', 'PL-10001');
    await expect(page.getByRole('combobox', { name: 'Vertragspartner', exact: true })).toBeVisible();
    await expect(page.getByText('0/5 Felder ausgefüllt')).toBeVisible();
    await fillDocusign(page, {
      language: 'Englisch',
      company: 'WP Projects GmbH',
      contract: 'Rahmenvertrag',
      partner: 'Projektpartner',
      sender: 'Anna Albrecht',
    });
    const sent = countGenerationRequests(page);
    await submitButton(page).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Ungültige Auswahl' })).toBeVisible();
    await expect(redMessage(page)).toHaveCount(0);
    await expect(progress(page)).toHaveCount(0);
    sent.stop();
    expect(sent.requests).toEqual([]);
  });
});

test.describe('consultant: the e-signature form', () => {
  test.describe.configure({ mode: 'serial' });
  const getPage = sharedPage(DEMO_ACCOUNTS.consultant);
  const fill = (page: Page) =>
    fillDocusign(page, {
      language: 'Deutsch',
      company: 'WM Consulting GmbH',
      contract: 'Rahmenvertrag',
      sender: 'Anna Albrecht',
    });

  test('no partner type to choose: always the project partner', async () => {
    const page = getPage();
    await loadMatch(page, 'PL-10001');
    await openForm(page, '/contract/docusign', 'PL-10001');
    await expect(page.getByText('Vertragspartner: Projektpartner')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Vertragspartner' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Anzahl Unterschriftsblöcke Kunde' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Projektpartner Name' })).toBeVisible();
    await expect(page.getByText('0/5 Felder ausgefüllt')).toBeVisible();
  });

  test('a consultant’s partner contract becomes an envelope whose sender view opens in a new tab', async () => {
    const page = getPage();
    await openForm(page, '/contract/docusign', 'PL-10001');
    await fill(page);
    await expect(page.getByText('5/5 Felder ausgefüllt')).toBeVisible();
    const sent = countGenerationRequests(page);
    const [popup] = await Promise.all([page.waitForEvent('popup'), submitButton(page).click()]);
    await expect(popup).toHaveURL(/\/signatur\/[0-9a-f-]{36}$/);
    await expect(popup.getByRole('heading', { name: /Bitte unterschreiben/ })).toBeVisible();
    await expect(popup.getByLabel('Name', { exact: true })).toHaveValue('Jana Kowalski');
    await expect(popup.getByLabel('E-Mail', { exact: true })).toHaveValue('jana.kowalski@example.org');
    await expect(page.getByText('100 % – Fertig')).toBeVisible();
    expect(sent.requests).toHaveLength(1);
    sent.stop();
    await popup.close();
  });

  test('the URL the server returns opens in a new tab', async () => {
    const page = getPage();
    const origin = new URL(page.url()).origin;
    await page.route('**/backend/generateDocusign/**', (route) =>
      route.fulfill({ status: 200, json: { data: `${origin}/fake-envelope` } }),
    );
    try {
      await openForm(page, '/contract/docusign', 'PL-10001');
      await fill(page);
      const [popup] = await Promise.all([page.waitForEvent('popup'), submitButton(page).click()]);
      await expect(popup).toHaveURL(`${origin}/fake-envelope`);
      await expect(page.getByText('100 % – Fertig')).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Neuer Tab blockiert' })).toHaveCount(0);
      await popup.close();
    } finally {
      await page.unroute('**/backend/generateDocusign/**');
    }
  });

  test('a blocked new tab: the dialog offers the current tab', async () => {
    // A tab of its own (same sign-in): the blocker script stays on a page for all its loads.
    const page = await getPage().context().newPage();
    try {
      await page.addInitScript(() => {
        const open = window.open.bind(window);
        // A popup blocker refuses new tabs; opening in this tab stays possible.
        window.open = (url?: string | URL, target?: string, features?: string) =>
          target === '_self' ? open(url, target, features) : null;
      });
      await page.goto('/start');
      const origin = new URL(page.url()).origin;
      await page.route('**/backend/generateDocusign/**', (route) =>
        route.fulfill({ status: 200, json: { data: `${origin}/fake-envelope` } }),
      );
      await openForm(page, '/contract/docusign', 'PL-10001');
      await fill(page);
      await submitButton(page).click();
      const dialog = page.getByRole('dialog', { name: 'Neuer Tab blockiert' });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText('Pop-ups');
      await dialog.getByRole('button', { name: 'Im aktuellen Tab öffnen' }).click();
      await expect(page).toHaveURL(`${origin}/fake-envelope`);
    } finally {
      await page.close();
    }
  });
});
