import { expect, type Page, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { expectAccessible } from './axe.js';
import { documentRendered, editorReady, firstShownDocument, typeAfterLine } from './editor-support.js';
import {
  editorOpenedBy,
  fillAgreement,
  fillDocx,
  fillOffer,
  fillTermination,
  loadMatch,
  openForm,
  redMessage,
  submitButton,
} from './forms-support.js';
import {
  drawSignature,
  enterSigningCode,
  fillCustomerContract,
  invitationLink,
} from './signature-support.js';
import { DEMO_ACCOUNTS, newUserPage, openSignInPopup, signIn } from './support.js';

/**
 * axe-core (WCAG 2.2 A and AA) on every page in the states a user meets: no serious or critical
 * violation anywhere. The administration has its own run (accessibility-administration.spec.ts).
 */

test('sign-in: /login, the provider page and its error', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeVisible();
  await expectAccessible(page, '/login');
  const popup = await openSignInPopup(page);
  await expectAccessible(popup, 'the provider sign-in page');
  await popup.getByLabel('E-Mail').fill(DEMO_ACCOUNTS.legal);
  await popup.getByLabel('Passwort').fill('falsch');
  await popup.getByRole('button', { name: 'Anmelden' }).click();
  await expect(popup.getByRole('alert')).toBeVisible();
  await expectAccessible(popup, 'the provider sign-in page with its error');
  await popup.close();
  await expect(page.getByRole('alert')).toBeVisible();
  await expectAccessible(page, '/login with the popup-closed message');
});

test('/start empty, after a wrong ID, with a match and its hints, the problem report, /format', async ({
  page,
}) => {
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await expectAccessible(page, '/start empty');
  await page.getByLabel('Match-ID').fill('99999');
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expectAccessible(page, '/start after a wrong ID');
  await loadMatch(page, 'PL-10006');
  await expectAccessible(page, '/start with a match and hints');
  await page.getByRole('button', { name: 'Problem melden' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'the problem report');
  await page.keyboard.press('Escape');
  await page.goto('/format');
  await expect(page.getByRole('heading', { name: 'Format wählen' })).toBeVisible();
  await expectAccessible(page, '/format');
});

test.describe('the forms: empty, after an empty submit, filled', () => {
  test.describe.configure({ mode: 'serial' });
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await newUserPage(browser);
    await signIn(page, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
    await loadMatch(page, 'PL-10001');
  });
  test.afterAll(async () => {
    await page.context().close();
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
    test(form.path, async () => {
      await openForm(page, form.path, 'PL-10001');
      await expectAccessible(page, `${form.path} empty`);
      await submitButton(page).click();
      await expect(redMessage(page)).toBeVisible();
      await expectAccessible(page, `${form.path} after an empty submit`);
      await form.fill(page);
      await expectAccessible(page, `${form.path} filled`);
    });
  }
});

test('the editor with its version list and the conflict dialog', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await loadMatch(page, 'PL-10001');
  await openForm(page, '/contract/docx', 'PL-10001');
  await fillDocx(page, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag');
  const editor = await editorOpenedBy(page, () => submitButton(page).click());
  await expect(firstShownDocument(editor)).toBeVisible({ timeout: 15_000 });
  await expectAccessible(editor, 'the editor while superdoc opens the document', { exceptSuperdoc: true });
  await editorReady(editor);
  await expectAccessible(editor, 'the editor', { exceptSuperdoc: true });
  const outdated = await page.context().newPage();
  await outdated.goto(editor.url());
  await editorReady(outdated);
  await typeAfterLine(editor, 'zwischen', ' (geändert)');
  await editor.getByRole('button', { name: 'Speichern' }).click();
  await expect(editor.getByRole('table', { name: 'Versionen' }).getByRole('row')).toHaveCount(3);
  await expectAccessible(editor, 'the editor with two versions', { exceptSuperdoc: true });
  await typeAfterLine(outdated, 'zwischen', ' (eigene Änderung)');
  await outdated.getByRole('button', { name: 'Speichern' }).click();
  await expect(outdated.getByRole('dialog', { name: 'Neuere Version vorhanden' })).toBeVisible();
  await expectAccessible(outdated, 'the conflict dialog', { exceptSuperdoc: true });
});

test('the sender view, the signing page, its end pages, and the match history', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await loadMatch(page, 'PL-10003');
  await openForm(page, '/contract/docusign', 'PL-10003');
  await fillCustomerContract(page);
  const [senderView] = await Promise.all([page.waitForEvent('popup'), submitButton(page).click()]);
  await expect(senderView.getByLabel('Name', { exact: true })).toHaveCount(3);
  await expect(firstShownDocument(senderView)).toBeVisible({ timeout: 15_000 });
  await expectAccessible(senderView, 'the sender view while superdoc opens the document', {
    exceptSuperdoc: true,
  });
  await documentRendered(senderView);
  await expectAccessible(senderView, 'the sender view', { exceptSuperdoc: true });
  const sent = Date.now();
  await senderView.getByRole('button', { name: 'Senden' }).click();
  await expect(senderView.getByText('Versendet').first()).toBeVisible();
  await expect(senderView.getByRole('button', { name: 'Klara Kunde erinnern' })).toBeVisible();
  await expectAccessible(senderView, 'the sender view of a sent envelope', { exceptSuperdoc: true });

  const signer = await newUserPage(browser);
  const link = await invitationLink('klara@kunde.example', sent);
  await signer.goto(link);
  await enterSigningCode(signer, 'klara@kunde.example', sent);
  await expect(firstShownDocument(signer)).toBeVisible({ timeout: 15_000 });
  await expectAccessible(signer, 'the signing page while superdoc opens the document', {
    exceptSuperdoc: true,
  });
  await expect(signer.getByLabel(/Ich stimme zu/)).toBeVisible();
  await documentRendered(signer);
  await expectAccessible(signer, 'the signing page', { exceptSuperdoc: true });
  await signer.getByLabel(/Ich stimme zu/).check();
  await drawSignature(signer);
  await expectAccessible(signer, 'the signing page with a drawn signature', { exceptSuperdoc: true });
  await signer.getByRole('button', { name: 'Unterschreiben' }).click();
  await expect(signer.getByText(/Vielen Dank, du hast unterschrieben/)).toBeVisible();
  await expectAccessible(signer, 'the signing page after signing');
  await signer.goto(`${new URL(link).origin}/unterschreiben#${'A'.repeat(43)}`);
  await expect(signer.getByRole('alert').first()).toBeVisible();
  await expectAccessible(signer, 'a signing link that is not valid');

  await page.goto('/start');
  await loadMatch(page, 'PL-10003');
  await expect(page.getByRole('table', { name: 'Dokumente dieses Matches' })).toBeVisible();
  await expectAccessible(page, 'the match history');

  await page.goto('/signaturen?status=all');
  await expect(page.getByRole('table', { name: 'Umschläge' })).toBeVisible();
  await expectAccessible(page, 'Offene Signaturen');

  await page.goto('/pruefen');
  await expectAccessible(page, 'PDF prüfen');
  const unsigned = await PDFDocument.create();
  unsigned.addPage();
  await page.locator('input[type="file"]').setInputFiles({
    name: 'ohne-siegel.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(await unsigned.save()),
  });
  await expect(page.getByText('Kein Siegel', { exact: true })).toBeVisible();
  await expectAccessible(page, 'PDF prüfen with its answer');

  await page.getByRole('link', { name: 'Vorlagen' }).click();
  await page.getByRole('link', { name: 'Platzhalter ansehen' }).click();
  await expect(page.getByRole('table', { name: 'Felder' })).toBeVisible();
  await expectAccessible(page, 'Platzhalter');
});
