import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { editedTemplate } from '../apps/server/src/test/template-edit.js';
import { DOCX_MIME_TYPE } from './drive-fake.js';
import { documentRendered, editorReady, firstView, typeAfterLine } from './editor-support.js';
import {
  choose,
  editorOpenedBy,
  fillAgreement,
  fillDocusign,
  fillDocx,
  fillOffer,
  fillTermination,
  loadMatch,
  openForm,
  redMessage,
  submitButton,
  type,
} from './forms-support.js';
import { drawWithFinger, PHONE, sendContract, tapWithFinger } from './phone-support.js';
import {
  allowContractsWithoutCountersignature,
  chooseCountersignatory,
  completionMailPdf,
  drawSignature,
  enterSigningCode,
  fillCustomerContract,
  invitationLink,
  sealedPdfPages,
  signAs,
  signedCaption,
  signingDocument,
} from './signature-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, openSignInPopup, signedIn, signIn, test } from './support.js';

/**
 * Writes the screenshots under docs/screenshots/ (`npm run screenshots`). Skipped in the normal test
 * run, so tests never change files of the repository.
 */
test.skip(!process.env.SCREENSHOTS, 'only with SCREENSHOTS=1 (npm run screenshots)');
test.use({ viewport: { width: 1280, height: 860 } });

const shot = (name: string) => `docs/screenshots/${name}.png`;

test('login page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeVisible();
  await page.screenshot({ path: shot('login') });
});

test('embedded sign-in page with a wrong password', async ({ page }) => {
  const popup = await openSignInPopup(page);
  await popup.setViewportSize({ width: 520, height: 640 });
  await popup.screenshot({ path: shot('idp-sign-in') });
  await popup.getByLabel('E-Mail').fill(DEMO_ACCOUNTS.legal);
  await popup.getByLabel('Passwort').fill('falsch');
  await popup.getByRole('button', { name: 'Anmelden' }).click();
  await expect(popup.getByRole('alert')).toBeVisible();
  await popup.screenshot({ path: shot('idp-sign-in-error') });
});

test('no permission message, the access request, and the administration', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO_ACCOUNTS.none);
  await expect(page.getByRole('status')).toContainText('Team-Operations');
  await page.screenshot({ path: shot('login-no-permission') });
  await page
    .getByRole('textbox', { name: /Nachricht an Team-Operations/ })
    .fill('Ich verstärke ab Montag das Legal-Team.');
  await page.getByRole('button', { name: 'Zugang anfragen' }).click();
  await expect(page.getByRole('button', { name: /^Zugang angefragt am/ })).toBeDisabled();
  await page.screenshot({ path: shot('login-access-requested') });

  const ops = await newUserPage(browser);
  await ops.setViewportSize({ width: 1280, height: 860 });
  await signIn(ops, DEMO_ACCOUNTS.operations);
  await expect(ops.getByRole('row').filter({ hasText: 'Nina Neu' })).toBeVisible();
  await ops.screenshot({ path: shot('verwaltung-requests') });

  await ops.getByRole('tab', { name: 'Mitarbeitende' }).click();
  await expect(ops.getByRole('row').filter({ hasText: 'Olga Operations' })).toBeVisible();
  await ops.setViewportSize({ width: 1280, height: 1500 });
  await ops.screenshot({ path: shot('verwaltung-staff') });
  await ops.setViewportSize({ width: 1280, height: 860 });

  await ops.getByRole('tab', { name: 'Matches importieren' }).click();
  const [chooser] = await Promise.all([
    ops.waitForEvent('filechooser'),
    ops.getByRole('button', { name: 'Match-Datei' }).click(),
  ]);
  await chooser.setFiles({
    name: 'crm-export.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'matchId;kunde;position\nPL-10001;Elbwerk Logistik AG;Entwickler\nPL-88002;<script>alert(1)</script>;Test\nPL-88003;Hafenkontor GmbH;Scrum Master\n',
    ),
  });
  await ops.getByRole('button', { name: 'Datei prüfen' }).click();
  await expect(ops.getByRole('heading', { name: 'Abgelehnte Zeilen' })).toBeVisible();
  await ops.screenshot({ path: shot('verwaltung-import') });

  await ops.getByRole('tab', { name: 'Zugangsanfragen' }).click();
  await choose(ops, 'Stufe für Nina Neu', 'Legal (2)');
  await ops.getByRole('button', { name: 'Freigeben' }).click();
  await ops.getByRole('tab', { name: 'Protokoll' }).click();
  await expect(ops.getByText('Zugang freigegeben')).toBeVisible();
  await ops.screenshot({ path: shot('verwaltung-audit') });
});

test('start page with a loaded match, and the format page', async ({ page }) => {
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await page.getByLabel('Match-ID').fill('PL-10006');
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await expect(page.getByRole('table', { name: 'Match PL-10006' })).toBeVisible();
  // A viewport as tall as the page: a full-page capture would paint the fixed footer mid-page.
  await page.setViewportSize({ width: 1280, height: 1900 });
  await page.screenshot({ path: shot('start-match') });
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByRole('button', { name: 'Weiter' }).click();
  await expect(page.getByRole('heading', { name: 'Format wählen' })).toBeVisible();
  // The cards come with the templates' catalogue, after the heading.
  await expect(page.getByRole('link', { name: 'DOCX-Kunde-Verträge' })).toBeVisible();
  await page.screenshot({ path: shot('format') });
});

test.describe('the document forms, filled and after an empty submit', () => {
  test.describe.configure({ mode: 'serial' });
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await signIn(page, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
    await loadMatch(page, 'PL-10001');
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  /** The whole page in one viewport (a full-page capture would paint the fixed footer mid-page). */
  async function shotWholePage(name: string) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1280, height: Math.max(860, height) });
    await page.screenshot({ path: shot(name) });
    await page.setViewportSize({ width: 1280, height: 860 });
  }

  const forms: { name: string; title: string; path: string; fill: (page: Page) => Promise<void> }[] = [
    {
      name: 'docusign',
      title: 'DocuSign-Verträge',
      path: '/contract/docusign',
      fill: async (page) => {
        await choose(page, 'Sprache', 'Deutsch');
        await choose(page, 'Gesellschaft', 'WM Consulting GmbH');
        await choose(page, 'Vertragsart', 'Rahmenvertrag');
        await choose(page, 'Vertragspartner', 'Kunde');
        await type(page, 'Anzahl Unterschriftsblöcke Kunde', '2');
        await type(page, 'Unterzeichner Kunde 1 Name', 'Markus Oberländer');
        await type(page, 'Unterzeichner Kunde 1 E-Mail', 'm.oberlaender@elbwerk.example');
        await type(page, 'Unterzeichner Kunde 2 Name', 'Petra Sommer');
        await type(page, 'Unterzeichner Kunde 2 E-Mail', 'p.sommer@elbwerk.example');
        await choose(page, 'Absender', 'Anna Albrecht');
        await choose(page, 'CC', 'Eigener Wert...');
        await type(page, 'CC Name', 'Vertragsarchiv');
        await type(page, 'CC E-Mail', 'archiv@wm-consulting.example');
      },
    },
    {
      name: 'docx',
      title: 'DOCX-Kunde-Verträge',
      path: '/contract/docx',
      fill: (page) => fillDocx(page, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag'),
    },
    {
      name: 'termination',
      title: 'Kündigungen',
      path: '/termination',
      fill: (page) =>
        fillTermination(page, {
          company: 'WM Consulting GmbH',
          partner: 'Kunde',
          document: 'Kündigung',
          deadline: 'Fristgerecht',
          signatory: 'Lea Brandt (Leiterin Recht & Verträge)',
        }),
    },
    {
      name: 'offer',
      title: 'Angebotserstellung',
      path: '/offer',
      fill: (page) =>
        fillOffer(page, {
          company: 'WM Consulting GmbH',
          hours: '480',
          days: '60',
          signatory: 'Henrik Albers (Geschäftsführer)',
        }),
    },
    {
      name: 'agreement',
      title: 'Zusatzvereinbarungen',
      path: '/agreement',
      fill: (page) =>
        fillAgreement(page, {
          agreement: 'Aufgabenbeschreibung',
          company: 'WM Consulting GmbH',
          partner: 'Kunde',
        }),
    },
  ];

  for (const form of forms) {
    test(`form ${form.name}`, async () => {
      // As a user gets there (and so with the breadcrumbs a user sees): /start, Weiter, the format.
      await page.evaluate(() => sessionStorage.clear());
      await page.goto('/start');
      await page.getByRole('button', { name: 'Weiter' }).click();
      await page
        .getByRole('navigation', { name: 'Format wählen' })
        .getByRole('link', { name: form.title })
        .click();
      await expect(page).toHaveURL(new RegExp(`${form.path}$`));
      await expect(page.getByRole('region', { name: 'Match', exact: true })).toContainText('PL-10001');
      await form.fill(page);
      await expect(page.getByText(/^(\d+)\/\1 Felder ausgefüllt$/)).toBeVisible();
      await page.mouse.click(1200, 10);
      await shotWholePage(`form-${form.name}`);

      await page.reload();
      await expect(page.getByRole('region', { name: 'Match', exact: true })).toContainText('PL-10001');
      await submitButton(page).click();
      await expect(redMessage(page)).toBeVisible();
      await shotWholePage(`form-${form.name}-errors`);
    });
  }
});

test('built-in signing: sender view, signing page, history and certificate', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await loadMatch(page, 'PL-10003');
  await openForm(page, '/contract/docusign', 'PL-10003');
  await fillCustomerContract(page);
  const [senderView] = await Promise.all([page.waitForEvent('popup'), submitButton(page).click()]);
  await senderView.setViewportSize({ width: 1280, height: 1700 });
  await expect(senderView.getByLabel('Name', { exact: true })).toHaveCount(3);
  await senderView.getByLabel('Nachricht').fill('Hallo zusammen, bitte bis Freitag unterschreiben. Danke!');
  await chooseCountersignatory(senderView);
  await documentRendered(senderView);
  await senderView.waitForTimeout(1500);
  await senderView.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await senderView.screenshot({ path: shot('signature-sender-view') });
  const sent = Date.now();
  await senderView.getByRole('button', { name: 'Senden' }).click();
  await expect(senderView.getByText('Versendet').first()).toBeVisible();

  const signer = await newUserPage(browser);
  await signer.setViewportSize({ width: 1280, height: 1700 });
  await signer.goto(await invitationLink('klara@kunde.example', sent));
  await expect(signer.getByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' })).toBeVisible();
  await signer.screenshot({ path: shot('signature-code-step') });
  // People outside the company open it on their phones: the same step at a phone's width.
  await signer.setViewportSize({ width: 360, height: 740 });
  await signer.screenshot({ path: shot('signature-code-step-phone') });
  await signer.setViewportSize({ width: 1280, height: 1700 });
  await enterSigningCode(signer, 'klara@kunde.example', sent);
  await signer.getByLabel(/Ich stimme zu/).check();
  await drawSignature(signer);
  await documentRendered(signer);
  await signer.waitForTimeout(1500);
  await signer.screenshot({ path: shot('signature-signing-page') });
  await signer.getByRole('button', { name: 'Unterschreiben' }).click();
  await expect(signer.getByText(/Vielen Dank, du hast unterschrieben/)).toBeVisible();
  await signer.context().close();

  // Karl's turn: the sender view offers to remind him; the overview shows the envelope half signed.
  await senderView.reload();
  await expect(senderView.getByRole('button', { name: 'Karl Zweit erinnern' })).toBeVisible();
  await documentRendered(senderView);
  await senderView.getByRole('table', { name: 'Empfänger' }).scrollIntoViewIfNeeded();
  await senderView.screenshot({ path: shot('signature-sender-view-sent') });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/signaturen');
  await expect(page.getByRole('table', { name: 'Umschläge' })).toBeVisible();
  await expect(page.getByText('Teilweise unterschrieben').first()).toBeVisible();
  await page.screenshot({ path: shot('signaturen') });
  await signAs(browser, 'karl@kunde.example', 'Karl Zweit', false, sent);

  await senderView.reload();
  await expect(senderView.getByText('Abgeschlossen').first()).toBeVisible();
  await documentRendered(senderView);
  await senderView.waitForTimeout(1500);
  await senderView.screenshot({ path: shot('signature-completed') });
  await page.goto('/start');
  await loadMatch(page, 'PL-10003');
  const history = page.getByRole('table', { name: 'Dokumente dieses Matches' });
  await expect(history.getByText('Abgeschlossen')).toBeVisible();
  // Sealed just after the last signature: the history offers the signed PDF once it is made.
  await expect(async () => {
    if (!(await history.getByRole('button', { name: 'Signiertes PDF' }).isVisible())) {
      await page.reload();
      await loadMatch(page, 'PL-10003');
    }
    await expect(history.getByRole('button', { name: 'Signiertes PDF' })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  await history.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('start-history') });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    history.getByRole('button', { name: 'Zertifikat' }).first().click(),
  ]);
  // The certificate's first page as an image (poppler's pdftoppm, where installed).
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '80',
    '-singlefile',
    (await download.path()) as string,
    'docs/screenshots/signature-certificate',
  ]);

  // PDF prüfen with the sealed PDF of the completion mail.
  const mailed = await completionMailPdf('klara@kunde.example', sent);
  await page.goto('/pruefen');
  await page.locator('input[type="file"]').setInputFiles({
    name: mailed.filename,
    mimeType: 'application/pdf',
    buffer: mailed.content,
  });
  await expect(page.getByText('Unverändert und von uns versiegelt')).toBeVisible();
  await page.screenshot({ path: shot('pruefen'), fullPage: true });

  await page.goto('/vorlagen/platzhalter');
  await expect(page.getByRole('table', { name: 'Felder' })).toBeVisible();
  await page.screenshot({ path: shot('platzhalter') });
});

// ── Contract pages of sealed PDFs: rendered only by a server with LibreOffice (`npm run screenshots` puts
// it on PATH where installed) ─────────────────────────────────────────────────────────────────────────
/** Page `number` (from 1) of `pdf` as docs/screenshots/<name>.png at 90 dpi: an A4 page 744 pixels wide. */
function pdfPageShot(pdf: Uint8Array, number: number, name: string): void {
  const file = join(mkdtempSync(join(tmpdir(), 'vg-screenshot-')), 'sealed.pdf');
  writeFileSync(file, pdf);
  const page = String(number);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '90',
    '-f',
    page,
    '-l',
    page,
    '-singlefile',
    file,
    `docs/screenshots/${name}`,
  ]);
}

test('sealed PDFs: a contract page countersigned by the company, and one the seal stands for it', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  // Both customers sign, then the company's managing director; the completion mail carries the sealed PDF.
  const sent = await sendContract(browser, 'PL-10004', fillCustomerContract);
  await signAs(browser, 'klara@kunde.example', 'Klara Kunde', true, sent);
  await signAs(browser, 'karl@kunde.example', 'Karl Zweit', false, sent);
  await signAs(browser, 'henrik.albers@wm-consulting.example', 'Henrik Albers', true, sent);
  const countersigned = (await completionMailPdf('klara@kunde.example', sent)).content;
  const { contract } = await sealedPdfPages(countersigned);
  if (contract.length === 0) {
    test.info().annotations.push({
      type: 'contract page screenshots not written',
      description:
        'The server found no LibreOffice (soffice on PATH): its sealed PDFs have no contract pages.',
    });
    return;
  }
  const companyBlock = contract.findIndex((text) =>
    signedCaption('Henrik Albers, Geschäftsführer').test(text),
  );
  expect(companyBlock).toBeGreaterThanOrEqual(0);
  pdfPageShot(countersigned, companyBlock + 1, 'signature-countersigned-contract-page');

  // Where the administrators allow it, a partner contract goes out without countersignature: the seal
  // stands for the company in its block.
  await allowContractsWithoutCountersignature(browser, true);
  let partnerSent = 0;
  try {
    const legal = await newUserPage(browser);
    await signedIn(legal, DEMO_ACCOUNTS.legal);
    await loadMatch(legal, 'PL-10005');
    await openForm(legal, '/contract/docusign', 'PL-10005');
    await fillDocusign(legal, {
      language: 'Deutsch',
      company: 'WE Engineering GmbH',
      contract: 'Rahmenvertrag',
      partner: 'Projektpartner',
      sender: 'Lena Legal',
    });
    const [senderView] = await Promise.all([legal.waitForEvent('popup'), submitButton(legal).click()]);
    await senderView.getByRole('combobox', { name: 'Gegenzeichnung (Firma)' }).click();
    await senderView
      .getByRole('option', { name: 'Ohne Gegenzeichnung (das Siegel steht für die Firma)' })
      .click();
    partnerSent = Date.now();
    await senderView.getByRole('button', { name: 'Senden' }).click();
    await expect(senderView.getByText('Versendet').first()).toBeVisible();
    await legal.context().close();
    await signAs(browser, 'jana.kowalski@example.org', 'Jana Kowalski', true, partnerSent);
  } finally {
    await allowContractsWithoutCountersignature(browser, false);
  }
  const sealed = (await completionMailPdf('jana.kowalski@example.org', partnerSent)).content;
  const sealedPages = (await sealedPdfPages(sealed)).contract;
  const sealedBlock = sealedPages.findIndex((text) =>
    text.includes('Für die Firma: elektronisch versiegelt'),
  );
  expect(sealedBlock).toBeGreaterThanOrEqual(0);
  pdfPageShot(sealed, sealedBlock + 1, 'signature-sealed-contract-page');
});

// ── The signing page on a phone (360 × 740, touch, device scale factor 2) ────────────────────────────
test('signing page on a phone: the contract as text, and the signing form with a finger-drawn signature', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const sent = await sendContract(browser, 'PL-10004', fillCustomerContract);
  const context = await browser.newContext(PHONE);
  const phone = await context.newPage();
  await phone.goto(await invitationLink('klara@kunde.example', sent));
  await enterSigningCode(phone, 'klara@kunde.example', sent);
  await expect(signingDocument(phone)).toContainText('Rahmenvertrag', { timeout: 15_000 });
  await phone.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await phone.screenshot({ path: shot('signature-signing-page-phone') });
  await tapWithFinger(phone, phone.getByRole('checkbox', { name: /Ich stimme zu/ }));
  await drawWithFinger(phone);
  await phone.getByRole('button', { name: 'Unterschreiben' }).scrollIntoViewIfNeeded();
  await phone.screenshot({ path: shot('signature-signing-page-phone-form') });
});
// ── end of the signing page on a phone ──────────────────────────────────────────────────────────────

test('Freigabe: the sender view that needs an approval, /freigaben with a request under review, and the rules', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // PL-10006's rates make a thin margin for WM (config/demo-matches.json).
  await signedIn(page, DEMO_ACCOUNTS.consultant);
  await loadMatch(page, 'PL-10006');
  await openForm(page, '/contract/docusign', 'PL-10006');
  await fillDocusign(page, {
    language: 'Deutsch',
    company: 'WM Consulting GmbH',
    contract: 'Rahmenvertrag',
    sender: 'Anna Albrecht',
  });
  const [senderView] = await Promise.all([page.waitForEvent('popup'), submitButton(page).click()]);
  await senderView.setViewportSize({ width: 1280, height: 1900 });
  await expect(senderView.getByRole('button', { name: 'Zur Freigabe senden' })).toBeVisible();
  await chooseCountersignatory(senderView);
  await documentRendered(senderView);
  await senderView.waitForTimeout(1500);
  await senderView.evaluate(() => window.scrollTo(0, 0));
  await senderView.screenshot({ path: shot('signature-approval-needed') });
  await senderView.getByRole('button', { name: 'Zur Freigabe senden' }).click();
  await expect(senderView.getByText('Wartet auf Freigabe').first()).toBeVisible();

  const leader = await newUserPage(browser);
  await leader.setViewportSize({ width: 1280, height: 860 });
  await signedIn(leader, DEMO_ACCOUNTS.leader);
  await leader.goto('/freigaben');
  const row = leader
    .getByRole('table', { name: 'Anfragen' })
    .getByRole('row')
    .filter({ hasText: 'PL-10006' });
  await expect(row.first()).toBeVisible();
  await leader.screenshot({ path: shot('freigaben') });
  await row
    .first()
    .getByRole('button', { name: /^Anfrage prüfen: / })
    .click();
  await leader.setViewportSize({ width: 1280, height: 1900 });
  await documentRendered(leader);
  await leader.waitForTimeout(1500);
  await leader.screenshot({ path: shot('freigaben-review') });
  await leader.context().close();

  const legal = await newUserPage(browser);
  await legal.setViewportSize({ width: 1280, height: 1300 });
  await signedIn(legal, DEMO_ACCOUNTS.legal);
  await legal.goto('/verwaltung');
  await expect(legal.getByRole('textbox', { name: 'Schwellenwert WM (%)' })).toHaveValue('15');
  await legal.screenshot({ path: shot('verwaltung-freigaben') });
});

test('built-in editor: a generated contract with its versions, and a save conflict', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await loadMatch(page, 'PL-10001');
  await openForm(page, '/contract/docx', 'PL-10001');
  await fillDocx(page, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag');
  // superdoc's chunk is held back until the first view, which shows the document meanwhile, is taken.
  const superdocChunk = /\/assets\/superdoc-[\w-]{8}\.js$/;
  let releaseSuperdoc = () => {};
  const superdocHeld = new Promise<void>((resolve) => {
    releaseSuperdoc = resolve;
  });
  await page.context().route(superdocChunk, async (route) => {
    await superdocHeld;
    await route.continue();
  });
  const editor = await editorOpenedBy(page, () => submitButton(page).click());
  // Tall enough for the editor (70 % of the height) and the version list below it.
  await editor.setViewportSize({ width: 1280, height: 1650 });
  await expect(firstView(editor)).toContainText('Rahmenvertrag');
  await editor.screenshot({ path: shot('editor-first-view') });
  // From here on the route lets every request through at once.
  releaseSuperdoc();
  await editorReady(editor);
  const outdated = await page.context().newPage();
  await outdated.goto(editor.url());
  await editorReady(outdated);

  await typeAfterLine(editor, 'zwischen', ' (Fassung nach Abstimmung mit dem Kunden)');
  await editor.getByRole('button', { name: 'Speichern' }).click();
  await expect(editor.getByRole('table', { name: 'Versionen' }).getByRole('row')).toHaveCount(3);
  await editor.getByRole('button', { name: 'Schließen' }).click();
  await editor.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await editor.waitForTimeout(1000);
  await editor.screenshot({ path: shot('editor') });

  await typeAfterLine(outdated, 'zwischen', ' (eigene Änderung)');
  await outdated.getByRole('button', { name: 'Speichern' }).click();
  await expect(outdated.getByRole('dialog', { name: 'Neuere Version vorhanden' })).toBeVisible();
  await outdated.waitForTimeout(500);
  await outdated.screenshot({ path: shot('editor-conflict') });
});

test('template library: the list, a version with a misspelt placeholder, and a corrected one under review', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await page.goto('/vorlagen');
  await expect(page.getByRole('table', { name: 'Vorlagen' })).toBeVisible();
  await page.screenshot({ path: shot('vorlagen') });

  const offer = readFileSync('templates/angebot-de.docx');
  const upload = async (content: Buffer, comment: string) => {
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'angebot-de.docx', mimeType: DOCX_MIME_TYPE, buffer: content });
    await page.getByRole('textbox', { name: 'Was ändert sich?' }).fill(comment);
    await page.getByRole('button', { name: 'Hochladen und prüfen' }).click();
  };
  await page.goto('/vorlagen/angebot-de');
  await upload(editedTemplate(offer, [['{angebotStundensatz}', '{angebotStundensaz}']]), 'Stundensatz fett');
  await expect(page.getByText('Gemeint: {angebotStundensatz}?')).toBeVisible();
  await page.screenshot({ path: shot('vorlage-problem'), fullPage: true });

  await upload(
    editedTemplate(offer, [
      ['An dieses Angebot halten wir uns vier Wochen', 'An dieses Angebot halten wir uns sechs Wochen'],
    ]),
    'Bindefrist sechs Wochen',
  );
  await expect(page.getByRole('region', { name: 'Was sich ändert' }).locator('ins')).toBeVisible();
  await page.getByRole('textbox', { name: /Match-ID/ }).fill('PL-10011');
  await page.getByRole('button', { name: 'Ausprobieren' }).click();
  await expect(page.getByRole('table', { name: 'Mit PL-10011:' })).toBeVisible();
  await page.screenshot({ path: shot('vorlage-pruefung'), fullPage: true });
});
