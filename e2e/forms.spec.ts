import type { Page } from '@playwright/test';
import {
  choose,
  companyName,
  countGenerationRequests,
  demoMatch,
  documentText,
  downloadAndClose,
  editorOpenedBy,
  fillAgreement,
  fillDocusign,
  fillDocx,
  fillOffer,
  fillTermination,
  germanDate,
  loadMatch,
  openForm,
  redMessage,
  submitButton,
  submitForDownload,
} from './forms-support.js';
import { DEMO_ACCOUNTS, expect, signIn, test } from './support.js';

/** One sign-in per role: the tests of a describe run in order on one shared page. */
function sharedPage(email: string): () => Page {
  let page: Page | undefined;
  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext()).newPage();
    await signIn(page, email);
    await expect(page).toHaveURL(/\/start$/);
  });
  test.afterAll(async () => {
    await page?.context().close();
  });
  return () => {
    if (!page) throw new Error('not signed in');
    return page;
  };
}

const progress = (page: Page) =>
  page.getByRole('progressbar', { name: 'Fortschritt der Dokumenterstellung' });

test.describe('legal: the DOCX forms', () => {
  test.describe.configure({ mode: 'serial' });
  const getPage = sharedPage(DEMO_ACCOUNTS.legal);

  test('DOCX customer contract: English, WE, Einzelauftrag → the document of the match', async () => {
    const page = getPage();
    const match = demoMatch('PL-10001');
    await loadMatch(page, match.matchId);
    await openForm(page, '/contract/docx', match.matchId);
    await expect(page.getByRole('region', { name: 'Match', exact: true })).toContainText(match.kunde);
    await expect(page.getByRole('link', { name: 'Zurück zur Match-ID-Eingabe' })).toHaveAttribute(
      'href',
      '/start',
    );
    await expect(page.getByText('0/3 Felder ausgefüllt')).toBeVisible();

    await fillDocx(page, 'Englisch', 'WE Engineering GmbH', 'Einzelauftrag');
    await expect(page.getByText('3/3 Felder ausgefüllt')).toBeVisible();
    const download = await submitForDownload(page);
    expect(download.suggestedFilename()).toBe(
      `${match.matchId} Einzelauftrag (englisch) Kunde ${match.kunde}.docx`,
    );
    await expect(progress(page)).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByText('100 % – Fertig')).toBeVisible();
    await expect(progress(page)).toHaveAttribute('aria-valuetext', '100 % – Fertig');

    const text = await documentText(download);
    expect(text).toContain(match.kunde);
    expect(text).toContain(germanDate(match.startdatum));
    expect(text).toContain(companyName('we'));
    expect(text).not.toContain(companyName('wm'));
  });

  test('termination: names, position from the match, signatory; & and < survive', async () => {
    const page = getPage();
    // Names with & and <…> (XML-escaped in the document).
    const match = demoMatch('PL-10006');
    await loadMatch(page, match.matchId);
    await openForm(page, '/termination', match.matchId);
    await expect(page.getByRole('textbox', { name: 'Position' })).toHaveValue(match.position);
    await fillTermination(page, {
      company: 'WM Consulting GmbH',
      partner: 'Projektpartner',
      document: 'Kündigung',
      deadline: 'Fristlos',
      signatory: 'Lea Brandt (Leiterin Recht & Verträge)',
    });
    await expect(page.getByText('6/6 Felder ausgefüllt')).toBeVisible();
    const download = await submitForDownload(page);
    expect(download.suggestedFilename()).toBe(
      `${match.matchId} Fristlose Kündigung Projektpartner ${match.ppGesellschaft}.docx`,
    );
    const text = await documentText(download);
    expect(text).toContain(match.ppGesellschaft);
    expect(text).toContain(match.kunde);
    expect(text).toContain(match.position);
    expect(text).toContain(companyName('wm'));
    expect(text).toContain('Lea Brandt');
    // The termination template shows no start date (templates/kuendigung-de.docx has no {startdatum}).
  });

  test('offer: hours, days and signatory; the customer and start date of the match', async () => {
    const page = getPage();
    const match = demoMatch('PL-10002');
    await loadMatch(page, match.matchId);
    await openForm(page, '/offer', match.matchId);
    // Offers exist for wm and we only.
    await page.getByRole('combobox', { name: 'Gesellschaft', exact: true }).click();
    await expect(page.getByRole('option')).toHaveText(['WM Consulting GmbH', 'WE Engineering GmbH']);
    await page.keyboard.press('Escape');
    await fillOffer(page, {
      company: 'WE Engineering GmbH',
      hours: '160',
      days: '20',
      signatory: 'Sabine Kroll (Prokuristin)',
    });
    const download = await submitForDownload(page);
    expect(download.suggestedFilename()).toBe(`${match.matchId} Angebot Kunde ${match.kunde}.docx`);
    const text = await documentText(download);
    expect(text).toContain(match.kunde);
    expect(text).toContain(germanDate(match.startdatum));
    expect(text).toContain(companyName('we'));
    expect(text).toContain('Sabine Kroll');
    expect(text).toContain('160');
  });

  test('agreement: hours agreement of WP with the project partner', async () => {
    const page = getPage();
    const match = demoMatch('PL-10003');
    await loadMatch(page, match.matchId);
    await openForm(page, '/agreement', match.matchId);
    await fillAgreement(page, {
      agreement: 'Stunden',
      company: 'WP Projects GmbH',
      partner: 'Projektpartner',
    });
    // A double click generates once.
    const sent = countGenerationRequests(page);
    const download = await downloadAndClose(await editorOpenedBy(page, () => submitButton(page).dblclick()));
    await expect(page.getByText('100 % – Fertig')).toBeVisible();
    sent.stop();
    expect(sent.requests).toHaveLength(1);
    expect(download.suggestedFilename()).toBe(
      `${match.matchId} Zusatzvereinbarung Stunden Projektpartner ${match.ppGesellschaft}.docx`,
    );
    const text = await documentText(download);
    expect(text).toContain(match.ppGesellschaft);
    expect(text).toContain(germanDate(match.startdatum));
    expect(text).toContain(companyName('wp'));
  });

  test('validation on the DOCX form: red message, counter, aria-invalid, nothing sent', async () => {
    const page = getPage();
    await openForm(page, '/contract/docx', 'PL-10003');
    const sent = countGenerationRequests(page);
    await submitButton(page).click();
    await expect(redMessage(page)).toBeVisible();
    await expect(page.getByText('0/3 Felder ausgefüllt')).toBeVisible();
    for (const label of ['Sprache', 'Gesellschaft', 'Vertragsart']) {
      await expect(page.getByRole('combobox', { name: label, exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
    }
    // Live: a chosen value loses its mark and counts.
    await choose(page, 'Sprache', 'Deutsch');
    await expect(page.getByRole('combobox', { name: 'Sprache', exact: true })).not.toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await expect(page.getByText('1/3 Felder ausgefüllt')).toBeVisible();
    await submitButton(page).click();
    await expect(redMessage(page)).toBeVisible();
    await expect(progress(page)).toHaveCount(0);
    sent.stop();
    expect(sent.requests).toEqual([]);
  });

  test('validation on the termination form: the prefilled position counts, a blank one is marked', async () => {
    const page = getPage();
    const match = demoMatch('PL-10003');
    await openForm(page, '/termination', match.matchId);
    const sent = countGenerationRequests(page);
    await submitButton(page).click();
    await expect(redMessage(page)).toBeVisible();
    await expect(page.getByText('1/6 Felder ausgefüllt')).toBeVisible();
    for (const label of [
      'Gesellschaft',
      'Vertragspartner',
      'Dokumentart',
      'Kündigungsart',
      'Unterzeichner',
    ]) {
      await expect(page.getByRole('combobox', { name: label, exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
    }
    const position = page.getByRole('textbox', { name: 'Position' });
    await expect(position).toHaveValue(match.position);
    await expect(position).not.toHaveAttribute('aria-invalid', 'true');
    await position.fill('   ');
    await expect(position).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('0/6 Felder ausgefüllt')).toBeVisible();
    // A confirmation has no deadline: the field goes and the total shrinks.
    await choose(page, 'Dokumentart', 'Kündigungsbestätigung');
    await expect(page.getByRole('combobox', { name: 'Kündigungsart' })).toHaveCount(0);
    await expect(page.getByText('1/5 Felder ausgefüllt')).toBeVisible();
    await submitButton(page).click();
    await expect(redMessage(page)).toBeVisible();
    sent.stop();
    expect(sent.requests).toEqual([]);
  });

  test('retries on a 5xx: two failures, then the document', async () => {
    const page = getPage();
    const match = demoMatch('PL-10001');
    await loadMatch(page, match.matchId);
    await openForm(page, '/contract/docx', match.matchId);
    await fillDocx(page, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag');
    let calls = 0;
    await page.route('**/backend/generateDocx/**', async (route) => {
      calls++;
      if (calls <= 2) {
        await route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ error: 'unavailable', message: 'Überlastet' }),
        });
      } else {
        await route.continue();
      }
    });
    const sent = countGenerationRequests(page);
    try {
      const editorPromise = page.waitForEvent('popup', { timeout: 15_000 });
      await submitButton(page).click();
      await expect(page.getByText('(Versuch 2 von 4)')).toBeVisible();
      await expect(submitButton(page)).toBeDisabled();
      await expect(page.getByText('(Versuch 3 von 4)')).toBeVisible({ timeout: 5_000 });
      const download = await downloadAndClose(await editorPromise);
      expect(download.suggestedFilename()).toBe(`${match.matchId} Rahmenvertrag Kunde ${match.kunde}.docx`);
      expect(await documentText(download)).toContain(match.kunde);
      await expect(page.getByText(/100 % – Fertig/)).toBeVisible();
      // The server's 503 wording is not shown: the document came after all.
      await expect(page.getByText('Überlastet')).toHaveCount(0);
      expect(calls).toBe(3);
      expect(sent.requests).toHaveLength(3);
    } finally {
      sent.stop();
      await page.unroute('**/backend/generateDocx/**');
    }
  });

  test('a 4xx ends at once with the server’s message, exactly one request', async () => {
    const page = getPage();
    await openForm(page, '/contract/docx', 'PL-10001');
    await fillDocx(page, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag');
    await page.route('**/backend/generateDocx/**', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'invalid_input', message: 'Testfehler vom Server' }),
      }),
    );
    const sent = countGenerationRequests(page);
    try {
      await submitButton(page).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Testfehler vom Server' })).toBeVisible({
        timeout: 1_500,
      });
      await expect(page.getByText(/Versuch/)).toHaveCount(0);
      await expect(submitButton(page)).toBeEnabled();
      // Longer than a retry's wait: no second attempt follows.
      await page.waitForTimeout(2_300);
      expect(sent.requests).toHaveLength(1);
    } finally {
      sent.stop();
      await page.unroute('**/backend/generateDocx/**');
    }
  });

  test('e-signature form: legal chooses the partner type; English with WP is "Ungültige Auswahl"', async () => {
    const page = getPage();
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

test.describe('leader: offer', () => {
  test.describe.configure({ mode: 'serial' });
  const getPage = sharedPage(DEMO_ACCOUNTS.leader);

  test('an offer of WM for the match', async () => {
    const page = getPage();
    // A deal whose margins pass the approval rules: the offer goes out without a second pair of eyes.
    const match = demoMatch('PL-10016');
    await loadMatch(page, match.matchId);
    await openForm(page, '/offer', match.matchId);
    await fillOffer(page, {
      company: 'WM Consulting GmbH',
      hours: '320',
      days: '40',
      signatory: 'Henrik Albers (Geschäftsführer)',
    });
    await expect(page.getByText('4/4 Felder ausgefüllt')).toBeVisible();
    const download = await submitForDownload(page);
    expect(download.suggestedFilename()).toBe(`${match.matchId} Angebot Kunde ${match.kunde}.docx`);
    const text = await documentText(download);
    expect(text).toContain(match.kunde);
    expect(text).toContain(germanDate(match.startdatum));
    expect(text).toContain(companyName('wm'));
    expect(text).toContain('Henrik Albers');
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
