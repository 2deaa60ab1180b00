import {
  companyName,
  countGenerationRequests,
  demoMatch,
  documentText,
  downloadAndClose,
  editorOpenedBy,
  fillAgreement,
  fillDocx,
  fillOffer,
  fillTermination,
  germanDate,
  loadMatch,
  openForm,
  progress,
  submitButton,
  submitForDownload,
} from './forms-support.js';
import { DEMO_ACCOUNTS, expect, sharedPage, test } from './support.js';

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
