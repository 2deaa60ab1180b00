import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { pdfSignatureParts } from '../apps/server/src/signature/seal/pdf-signature-parts.js';
import { openssl, pdfsig } from '../apps/server/src/test/pdf-tools.js';
import { TSA_BASE_URL } from '../playwright.config.js';
import { expectAccessible } from './axe.js';
import { documentRendered, firstShownDocument } from './editor-support.js';
import { demoMatch, loadMatch, openForm, submitButton } from './forms-support.js';
import {
  COUNTERSIGNATORY,
  completionMailPdf,
  drawSignature,
  enterSigningCode,
  fillCustomerContract,
  invitationLink,
  mailedSigningCode,
  pdfText,
  sealedPdfPages,
  signAs,
  signedCaption,
} from './signature-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signIn, test } from './support.js';

/**
 * The document a page opens with: the DOCX's first view, or, on a server with LibreOffice, the PDF made
 * of it in the browser's frame.
 */
const openingDocument = (page: Page) => firstShownDocument(page).or(page.locator('iframe')).first();

/** WM Consulting's managing director in config/signatories.json: their mails go to the mail folder too. */

test.describe('built-in signing, end to end', () => {
  test('legal sends a customer contract to two customers and a CC, with the company countersigning; all sign in order; the certificate lists them', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await newUserPage(browser);
    const match = demoMatch('PL-10002');
    await signIn(page, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
    await loadMatch(page, match.matchId);
    await openForm(page, '/contract/docusign', match.matchId);

    await fillCustomerContract(page);

    // The sender view opens in a new tab with the recipients of the form, in signing order.
    const [senderView] = await Promise.all([page.waitForEvent('popup'), submitButton(page).click()]);
    await expect(senderView).toHaveURL(/\/signatur\/[0-9a-f-]{36}$/);
    await expect(openingDocument(senderView)).toBeVisible({ timeout: 15_000 });
    await expectAccessible(senderView, 'the sender view while its document opens', { exceptSuperdoc: true });
    await documentRendered(senderView);
    const names = senderView.getByLabel('Name', { exact: true });
    await expect(names).toHaveCount(3);
    await expect(names.nth(0)).toHaveValue('Klara Kunde');
    await expect(names.nth(1)).toHaveValue('Karl Zweit');
    await expect(names.nth(2)).toHaveValue('Conny Copy');
    await senderView.getByLabel('Nachricht').fill('Bitte bis Freitag unterschreiben.');
    // The company's signatory countersigns after both customers; the company's two are offered, and on
    // a server whose administrators kept the default a contract cannot go out without one.
    const countersignatory = senderView.getByRole('combobox', { name: 'Gegenzeichnung (Firma)' });
    await countersignatory.click();
    await expect(senderView.getByRole('option')).toHaveText([
      'Henrik Albers – Geschäftsführer',
      'Lea Brandt – Leiterin Recht & Verträge',
    ]);
    await senderView.getByRole('option', { name: `${COUNTERSIGNATORY.name} – Geschäftsführer` }).click();
    await expectAccessible(senderView, 'the sender view with the countersignatory chosen', {
      exceptSuperdoc: true,
    });
    const sent = Date.now();
    await senderView.getByRole('button', { name: 'Senden' }).click();
    await expect(senderView.getByText('Versendet').first()).toBeVisible();
    await expect(senderView.getByRole('button', { name: 'Klara Kunde erinnern' })).toBeVisible();
    await expectAccessible(senderView, 'the sender view of a sent envelope', { exceptSuperdoc: true });

    // The code step on a phone's width: nothing to scroll sideways, axe finds nothing, a wrong code
    // is answered in German at the field.
    const phone = await newUserPage(browser);
    await phone.setViewportSize({ width: 360, height: 740 });
    await phone.goto(await invitationLink('klara@kunde.example', sent));
    await expect(phone.getByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' })).toBeVisible();
    await expect(phone.getByText('Wir haben dir einen Code an k***@kunde.example geschickt.')).toBeVisible();
    await expect(phone.getByRole('button', { name: /^Code erneut senden \(in \d+ s\)$/ })).toBeDisabled();
    await expectAccessible(phone, 'the code step of the signing page');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const code = await mailedSigningCode('klara@kunde.example', sent);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await phone.getByRole('textbox', { name: 'Code aus der E-Mail (6 Ziffern)' }).fill(wrong);
    await phone.getByRole('button', { name: 'Bestätigen' }).click();
    await expect(phone.getByRole('alert')).toHaveText('Der Code stimmt nicht. Du hast noch 4 Versuche.');
    await expectAccessible(phone, 'the code step with a wrong code');
    await phone.context().close();

    // Klara signs with axe looking at every state of the signing page; the others sign as signAs does.
    const klara = await newUserPage(browser);
    const link = await invitationLink('klara@kunde.example', sent);
    await klara.goto(link);
    await enterSigningCode(klara, 'klara@kunde.example', sent);
    await expect(openingDocument(klara)).toBeVisible({ timeout: 15_000 });
    await expectAccessible(klara, 'the signing page while its document opens', { exceptSuperdoc: true });
    await documentRendered(klara);
    await expectAccessible(klara, 'the signing page', { exceptSuperdoc: true });
    await expect(klara.getByLabel('Dein vollständiger Name')).toHaveValue('Klara Kunde');
    await klara.getByLabel(/Ich stimme zu, dieses Dokument elektronisch zu unterschreiben/).check();
    await drawSignature(klara);
    await expectAccessible(klara, 'the signing page with a drawn signature', { exceptSuperdoc: true });
    await klara.getByRole('button', { name: 'Unterschreiben' }).click();
    await expect(klara.getByText(/Vielen Dank, du hast unterschrieben/)).toBeVisible();
    await expectAccessible(klara, 'the signing page after signing');
    await klara.goto(`${new URL(link).origin}/unterschreiben#${'A'.repeat(43)}`);
    await expect(klara.getByRole('alert').first()).toBeVisible();
    await expectAccessible(klara, 'a signing link that is not valid');
    await klara.context().close();
    await signAs(browser, 'karl@kunde.example', 'Karl Zweit', false, sent);
    // Only now is the company's signatory invited: from the mail folder, with their own code.
    await signAs(browser, COUNTERSIGNATORY.email, COUNTERSIGNATORY.name, true, sent);

    // The history on /start shows the completed envelope and offers its certificate.
    await page.goto('/start');
    await loadMatch(page, match.matchId);
    const history = page.getByRole('table', { name: 'Dokumente dieses Matches' });
    await expect(history.getByText('Abgeschlossen')).toBeVisible();
    await expectAccessible(page, 'the match history');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      history.getByRole('button', { name: 'Zertifikat' }).first().click(),
    ]);
    const certificate = await pdfText(readFileSync((await download.path()) as string));
    for (const expected of [
      'Klara Kunde',
      'klara@kunde.example',
      'Karl Zweit',
      'karl@kunde.example',
      COUNTERSIGNATORY.name,
      COUNTERSIGNATORY.email,
      'Gegenzeichnung (Firma)',
    ]) {
      expect(certificate).toContain(expected);
    }
    expect(certificate.replace(/\s+/g, ' ')).toMatch(
      /Identität bestätigt per E-Mail-Code an klara@kunde\.example am .* von IP/,
    );

    // The server seals the completed envelope just after the last signature: its signed PDF is offered
    // once it is made, and an outside tool finds the seal valid over the whole file.
    const signedPdf = history.getByRole('button', { name: 'Signiertes PDF' }).first();
    await expect(async () => {
      if (!(await signedPdf.isVisible())) {
        await page.reload();
        await loadMatch(page, match.matchId);
      }
      await expect(signedPdf).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    const [sealed] = await Promise.all([page.waitForEvent('download'), signedPdf.click()]);
    expect(sealed.suggestedFilename()).toMatch(/ - unterschrieben\.pdf$/);
    const bytes = readFileSync((await sealed.path()) as string);
    const report = await pdfsig(bytes);
    expect(report).toMatch(/Total document signed/);
    expect(report).toMatch(/Signature Validation: Signature is Valid\./);
    expect(await pdfText(bytes)).toContain('Klara Kunde');

    // What every signer gets: the completion mail with the sealed PDF, which an outside tool finds
    // valid, and invalid once one byte of it is changed.
    const mailed = await completionMailPdf('klara@kunde.example', sent);
    expect(mailed.filename).toMatch(/ - unterschrieben\.pdf$/);
    const mailedReport = await pdfsig(mailed.content);
    expect(mailedReport).toMatch(/Signature #1:[\s\S]*Signature Validation: Signature is Valid\./);
    // PAdES B-LTA with the test TSA: a document timestamp by it over the whole file, which openssl
    // verifies against the TSA's CA, after the seal, its timestamp and the validation data.
    expect(mailedReport).toMatch(
      /Signature #2:[\s\S]*Test-TSA Vertragsgenerator[\s\S]*Total document signed/,
    );
    const parts = pdfSignatureParts(mailed.content);
    const documentTimestamp = parts.at(-1);
    if (parts.length !== 2 || !documentTimestamp)
      throw new Error('expected the seal and a document timestamp');
    const caPem = await (await fetch(`${TSA_BASE_URL}/ca.pem`)).text();
    const verified = await openssl(
      ['ts', '-verify', '-data', 'signed.bin', '-in', 'token.der', '-token_in', '-CAfile', 'ca.pem'],
      { 'signed.bin': documentTimestamp.signedBytes, 'token.der': documentTimestamp.cms, 'ca.pem': caPem },
    );
    expect(verified.output).toMatch(/Verification: OK/);
    expect(mailed.content.toString('latin1')).toMatch(/\/DSS/);
    // Its certificate pages (after the contract's, where LibreOffice rendered them) name the customer
    // and the company's countersignatory, each with the code they confirmed; nothing stands in for the
    // company's signature.
    const { contract, certificate: certificatePages, blocks } = await sealedPdfPages(mailed.content);
    const certificateText = certificatePages.join(' ');
    expect(certificateText).toContain('Klara Kunde');
    expect(certificateText).toContain('Gegenzeichnung (Firma)');
    expect(certificateText).toMatch(
      new RegExp(`Identität bestätigt per E-Mail-Code an ${COUNTERSIGNATORY.email.replace(/\./g, '\\.')} am`),
    );
    expect(certificateText).toContain(COUNTERSIGNATORY.name);
    expect(certificateText).not.toContain('Für die Firma: elektronisch versiegelt');
    // Both sides' blocks of the contract pages carry their signatures: each customer's in a block of
    // the Auftraggeber, the countersignatory's with their function in the company's, the Auftragnehmer.
    if (contract.length > 0) {
      const company = blocks.filter((block) => block.startsWith('Für den Auftragnehmer'));
      const customers = blocks.filter((block) => block.startsWith('Für den Auftraggeber'));
      expect(
        company.filter((block) => signedCaption(`${COUNTERSIGNATORY.name}, Geschäftsführer`).test(block)),
      ).toHaveLength(1);
      expect(customers.filter((block) => signedCaption('Klara Kunde').test(block))).toHaveLength(1);
      expect(customers.filter((block) => signedCaption('Karl Zweit').test(block))).toHaveLength(1);
      expect(contract.join(' ')).not.toContain('elektronisch versiegelt');
    } else {
      test.info().annotations.push({
        type: 'contract pages not checked',
        description:
          'The sealed PDF has no contract pages: the server found no LibreOffice (soffice on PATH) to render ' +
          'them, so only the certificate pages were checked, not the signature blocks.',
      });
    }
    // The company's signatory gets the sealed PDF like every signer.
    await completionMailPdf(COUNTERSIGNATORY.email, sent);
    const changed = Buffer.from(mailed.content);
    // A byte of the binary comment after `%PDF-1.x`: the file stays a readable PDF.
    const at = changed.indexOf('\n%') + 2;
    changed[at] = (changed[at] as number) ^ 1;
    expect(await pdfsig(changed)).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
    const changedTimestamp = pdfSignatureParts(changed).at(-1);
    if (!changedTimestamp) throw new Error('the changed copy lost its document timestamp');
    const broken = await openssl(
      ['ts', '-verify', '-data', 'signed.bin', '-in', 'token.der', '-token_in', '-CAfile', 'ca.pem'],
      { 'signed.bin': changedTimestamp.signedBytes, 'token.der': changedTimestamp.cms, 'ca.pem': caPem },
    );
    expect(broken.output).not.toMatch(/Verification: OK/);

    // PDF prüfen: the mailed PDF is ours and unchanged, the changed one is not.
    await page.getByRole('link', { name: 'PDF prüfen' }).click();
    await expect(page).toHaveURL(/\/pruefen$/);
    await expectAccessible(page, 'PDF prüfen');
    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles({
      name: mailed.filename,
      mimeType: 'application/pdf',
      buffer: mailed.content,
    });
    await expect(page.getByText('Unverändert und von uns versiegelt')).toBeVisible();
    await expect(page.getByText(/PAdES B-LTA/)).toBeVisible();
    const signers = page.getByRole('table', { name: 'Unterschriften' });
    await expect(signers.getByText('Klara Kunde')).toBeVisible();
    await expect(signers.getByText('Karl Zweit')).toBeVisible();
    await expect(signers.getByText(COUNTERSIGNATORY.name)).toBeVisible();
    await fileInput.setInputFiles({ name: 'geaendert.pdf', mimeType: 'application/pdf', buffer: changed });
    await expect(page.getByText('Verändert', { exact: true })).toBeVisible();
    await expectAccessible(page, 'PDF prüfen with its answer');

    // Offene Signaturen: the envelope among the completed ones.
    await page.getByRole('link', { name: 'Signaturen' }).click();
    await expect(page).toHaveURL(/\/signaturen$/);
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: /^Abgeschlossen/ }).click();
    await page.getByRole('searchbox', { name: 'Suche' }).fill('karl@kunde.example');
    const overview = page.getByRole('table', { name: 'Umschläge' });
    const row = overview.getByRole('row').filter({ hasText: match.matchId }).first();
    await expect(row).toContainText('Abgeschlossen');
    await expect(row).toContainText('3 von 3 unterschrieben');
    await expect(row.getByRole('button', { name: /Signiertes PDF herunterladen/ })).toBeVisible();
    await expectAccessible(page, 'Offene Signaturen');
  });
});
