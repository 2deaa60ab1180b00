import {
  choose,
  countGenerationRequests,
  demoMatch,
  documentText,
  downloadAndClose,
  fillDocx,
  loadMatch,
  openForm,
  progress,
  redMessage,
  submitButton,
} from './forms-support.js';
import { DEMO_ACCOUNTS, expect, sharedPage, test } from './support.js';

test.describe('legal: a form refused, and a server that fails', () => {
  test.describe.configure({ mode: 'serial' });
  const getPage = sharedPage(DEMO_ACCOUNTS.legal);

  test('validation on the DOCX form: red message, counter, aria-invalid, nothing sent', async () => {
    const page = getPage();
    await loadMatch(page, 'PL-10003');
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
});
