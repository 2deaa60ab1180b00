import type { Page, Response } from '@playwright/test';
import PizZip from 'pizzip';
import { expectAccessible } from './axe.js';
import { earlyAndOwnBoxes } from './early-top.js';
import { loadMatch, openForm, submitButton } from './forms-support.js';
import {
  docxBodyText,
  enterReviewCode,
  negotiationPanel,
  openNegotiation,
  partsHolding,
  postReviewComment,
  REVIEWER,
  returnReview,
  reviewComments,
  reviewedContract,
  reviewerInsteadOfSigners,
  reviewLink,
  sendRound,
  startSuggesting,
  suggestAfterLine,
} from './negotiation-support.js';
import { PHONE } from './phone-support.js';
import {
  COUNTERSIGNATORY,
  chooseCountersignatory,
  completionMailPdf,
  fillCustomerContract,
  sealedPdfPages,
  signAs,
} from './signature-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signedIn, test } from './support.js';

/**
 * The negotiation of a contract before it is signed, end to end: legal sends the e-signature draft's
 * document to a person of the counterparty for review; they suggest two changes on a phone and comment;
 * legal accepts one, rejects the other, replies and keeps an internal note, and sends a second round;
 * the counterparty sees what became of their suggestions and the reply, never the note, and returns it
 * unchanged; the agreed version goes through Freigabe to the signers, and the sealed PDF's certificate
 * names both rounds. One document across the steps: the tests run in order and share what they made.
 */

/** WM's margins of PL-10023 (23 %) pass the rules: only the accepted suggestion asks for Freigabe. */
const MATCH = 'PL-10023';
/** Two lines of the WM framework contract that read so alone (e2e/approvals.spec.ts edits them too). */
const ACCEPTED = { line: 'zwischen', text: ' (Fassung der Kundin)' };
const REJECTED = { line: 'Präambel', text: ' und Zielsetzung' };
const COUNTERPARTY_COMMENT = 'Bitte prüfen Sie die Haftungsregelung noch einmal.';
const REPLY = 'Die Haftungsregelung bleibt wie besprochen; Ihre Ergänzung oben übernehmen wir.';
const INTERNAL_NOTE = 'Interne Notiz: Haftungsgrenze nicht unter 250000 EUR verhandeln.';

test.describe('negotiation: two rounds with the counterparty, then signing', () => {
  test.describe.configure({ mode: 'serial' });

  /** What one step leaves for the next. */
  const made = { envelopeUrl: '', editorUrl: '', firstRoundSent: 0, secondRoundSent: 0 };
  let legal: Page;

  test.beforeAll(async ({ browser }) => {
    legal = await newUserPage(browser);
    await signedIn(legal, DEMO_ACCOUNTS.legal);
  });
  test.afterAll(async () => {
    await legal?.context().close();
  });
  // The editor page holds superdoc: it should not run beside the counterparty's steps.
  test.afterEach(async () => {
    await legal?.goto('about:blank');
  });

  test('legal sends the draft of an e-signature contract to the counterparty for review', async () => {
    test.setTimeout(90_000);
    await loadMatch(legal, MATCH);
    await openForm(legal, '/contract/docusign', MATCH);
    await fillCustomerContract(legal);
    const [senderView] = await Promise.all([legal.waitForEvent('popup'), submitButton(legal).click()]);
    await expect(senderView).toHaveURL(/\/signatur\/[0-9a-f-]{36}$/);
    // A draft: it could go out as it is, and is not sent.
    await expect(senderView.getByRole('button', { name: 'Senden', exact: true })).toBeEnabled();
    made.envelopeUrl = senderView.url();
    await senderView.close();

    await legal.goto(made.envelopeUrl);
    await legal.getByRole('link', { name: 'Zur Prüfung an die Gegenseite' }).click();
    await expect(legal).toHaveURL(/\/dokumente\/[0-9a-f-]{36}#verhandlung$/);
    made.editorUrl = legal.url();
    const panel = negotiationPanel(legal);
    await expect(panel.getByRole('heading', { level: 2, name: 'Verhandlung' })).toBeVisible();
    await panel.getByRole('button', { name: 'Zur Prüfung senden', exact: true }).click();
    await reviewerInsteadOfSigners(panel);
    made.firstRoundSent = await sendRound(panel, {
      title: 'Zur Prüfung an die Gegenseite',
      submit: 'Zur Prüfung senden',
      round: 1,
      message: 'Guten Tag Frau Prüfer, anbei der Rahmenvertrag zur Prüfung.',
    });
    const round = panel.getByRole('region', { name: 'Runde 1' });
    await expect(round.getByText('Gesendet', { exact: true })).toBeVisible();
    await expect(round.getByText(REVIEWER.email)).toBeVisible();
    await expectAccessible(legal, 'the editor page with a round out for review', { exceptSuperdoc: true });
  });

  test('the counterparty reads it on a phone, suggests two changes, comments and sends it back', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext(PHONE);
    const phone = await context.newPage();
    await phone.goto(await reviewLink(REVIEWER.email, made.firstRoundSent));
    await enterReviewCode(phone, REVIEWER.email, made.firstRoundSent);
    await expect(reviewedContract(phone)).toContainText('Rahmenvertrag', { timeout: 15_000 });
    await expect(
      phone.getByText('Guten Tag Frau Prüfer, anbei der Rahmenvertrag zur Prüfung.'),
    ).toBeVisible();
    const widths = await phone.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      screen: window.innerWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    await expectAccessible(phone, 'the review page on a phone');
    // The page's top shows before its code has loaded, in the place and size the page then gives it.
    const header = await earlyAndOwnBoxes(
      phone,
      'review-app',
      [phone.locator('h1.review-skeleton-title'), phone.locator('p.review-skeleton-intro')],
      [phone.getByRole('heading', { level: 1 }), phone.getByText(/bittet Sie, diesen Vertrag zu prüfen/)],
    );
    expect(header.early.every((box) => box !== null)).toBe(true);
    expect(header.own).toEqual(header.early);

    await startSuggesting(phone);
    await suggestAfterLine(phone, ACCEPTED.line, ACCEPTED.text);
    await suggestAfterLine(phone, REJECTED.line, REJECTED.text);
    await postReviewComment(phone, COUNTERPARTY_COMMENT);
    await returnReview(
      phone,
      'Sie senden Ihre Änderungsvorschläge aus dem Editor und Ihre Kommentare zurück.',
    );
    await context.close();
  });

  test('legal accepts one suggestion, rejects the other, replies, notes internally and sends round 2', async () => {
    test.setTimeout(90_000);
    const panel = await openNegotiation(legal, made.editorUrl);
    await expect(
      panel.getByRole('region', { name: 'Runde 1' }).getByText('Zurückgesendet', { exact: true }),
    ).toBeVisible();
    const suggestions = panel.getByRole('region', { name: 'Vorschläge der Gegenseite (Runde 1)' });
    const items = suggestions.getByRole('list', { name: 'Vorschläge' }).getByRole('listitem');
    await expect(items.first()).toBeVisible();
    expect(await items.count()).toBeGreaterThanOrEqual(2);
    for (const item of await items.all()) await expect(item).toContainText(`${REVIEWER.name} am `);
    const accepted = items.filter({ hasText: ACCEPTED.text.trim() });
    const rejected = items.filter({ hasText: REJECTED.text.trim() });
    await expect(accepted).toHaveCount(1);
    await expect(rejected).toHaveCount(1);

    await accepted.getByRole('button', { name: 'Annehmen' }).click();
    await expect(accepted.getByText(/^Angenommen von Lena Legal am /)).toBeVisible();
    // The rest at once; the buttons wait until the editor knows the version the acceptance made.
    await suggestions.getByRole('button', { name: 'Alle ablehnen' }).click();
    await expect(rejected.getByText(/^Abgelehnt von Lena Legal am /)).toBeVisible();
    await expect(suggestions.getByRole('button', { name: /^(Annehmen|Ablehnen)$/ })).toHaveCount(0);
    await expect(panel.getByText(/^Alle Vorschläge sind entschieden/)).toBeVisible();

    // A reply the counterparty reads, and a note only the company sees.
    const comments = panel.getByRole('region', { name: 'Kommentare' });
    const thread = comments.getByRole('listitem').filter({ hasText: COUNTERPARTY_COMMENT });
    await thread.getByRole('button', { name: `Antworten auf ${REVIEWER.name}` }).click();
    const reply = thread.getByRole('form', { name: `Antwort auf ${REVIEWER.name}` });
    await reply.getByRole('textbox', { name: 'Deine Antwort' }).fill(REPLY);
    await expect(reply.getByRole('radio', { name: 'Für die Gegenseite' })).toBeChecked();
    await reply.getByRole('button', { name: 'Senden', exact: true }).click();
    await expect(thread.getByText(REPLY)).toBeVisible();
    const newComment = comments.getByRole('region', { name: 'Neuer Kommentar' });
    await newComment.getByRole('textbox', { name: 'Kommentar', exact: true }).fill(INTERNAL_NOTE);
    await newComment.getByRole('radio', { name: 'Intern' }).check();
    await newComment.getByRole('button', { name: 'Kommentar speichern' }).click();
    const note = comments.getByRole('listitem').filter({ hasText: INTERNAL_NOTE });
    await expect(note.getByText('Intern', { exact: true })).toBeVisible();

    await panel.getByRole('button', { name: 'Nächste Runde senden' }).click();
    made.secondRoundSent = await sendRound(panel, {
      title: 'Runde 2 an die Gegenseite',
      submit: 'Nächste Runde senden',
      round: 2,
    });
  });

  test('in round 2 the counterparty sees the outcomes and the reply, no internal note, and returns it unchanged', async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const page = await newUserPage(browser);
    // The version sent in round 2, as the page loads it after the code.
    const documentAnswer = page.waitForResponse(
      (response: Response) =>
        new URL(response.url()).pathname === '/backend/review/document' &&
        response.request().method() === 'GET',
    );
    await page.goto(await reviewLink(REVIEWER.email, made.secondRoundSent));
    await enterReviewCode(page, REVIEWER.email, made.secondRoundSent);
    await expect(page.getByText('Runde 2', { exact: true })).toBeVisible();
    await expect(reviewedContract(page)).toContainText('Rahmenvertrag', { timeout: 15_000 });

    const earlier = page.getByRole('region', { name: 'Ihre Vorschläge aus früheren Runden' });
    const outcomes = earlier.getByRole('listitem');
    await expect(outcomes.filter({ hasText: ACCEPTED.text.trim() })).toContainText('Angenommen');
    await expect(outcomes.filter({ hasText: REJECTED.text.trim() })).toContainText('Abgelehnt');
    await expect(earlier.getByText('Angenommen', { exact: true })).toHaveCount(1);

    const comments = reviewComments(page);
    await expect(comments.getByText(COUNTERPARTY_COMMENT)).toBeVisible();
    await expect(comments.getByText(REPLY)).toBeVisible();
    await expect(comments.getByText('Lena Legal (WM Consulting GmbH)')).toBeVisible();
    await expect(page.getByText(INTERNAL_NOTE)).toHaveCount(0);
    expect(await page.content()).not.toContain(INTERNAL_NOTE);

    // The file they receive: the accepted suggestion is its text, the rejected one is not, and no part of
    // it carries the note.
    const answer = await documentAnswer;
    expect(answer.status()).toBe(200);
    const zip = new PizZip(await answer.body());
    const text = docxBodyText(zip);
    expect(text).toContain(ACCEPTED.text.trim());
    expect(text).not.toContain(REJECTED.text.trim());
    expect(partsHolding(zip, INTERNAL_NOTE)).toEqual([]);
    expect(partsHolding(zip, 'Haftungsgrenze')).toEqual([]);

    await expectAccessible(page, 'the review page in round 2');
    await returnReview(page, 'Sie senden Ihre Kommentare zurück, ohne Änderungen am Vertrag.');
  });

  test('legal sends the agreed version for signature; after Freigabe both sides sign; the certificate names the rounds', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const panel = await openNegotiation(legal, made.editorUrl);
    await expect(
      panel.getByRole('region', { name: 'Runde 2' }).getByText('Zurückgesendet', { exact: true }),
    ).toBeVisible();
    await expect(
      panel.getByText('Die Gegenseite hat in dieser Runde keine Änderungen vorgeschlagen.'),
    ).toBeVisible();
    await panel.getByRole('button', { name: 'Zur Unterschrift senden' }).click();
    const dialog = legal.getByRole('dialog', { name: 'Fassung vereinbaren' });
    await dialog.getByRole('button', { name: 'Zur Unterschrift senden' }).click();
    await expect(legal).toHaveURL(made.envelopeUrl);

    // The accepted suggestion changed the text after generation: Freigabe stands before the signers.
    const ask = legal.getByRole('button', { name: 'Zur Freigabe senden' });
    await expect(ask).toBeVisible();
    await expect(legal.getByText('Text nach der Erstellung geändert')).toBeVisible();
    await chooseCountersignatory(legal, COUNTERSIGNATORY.name);
    await ask.click();
    await expect(legal.getByText('Wartet auf Freigabe').first()).toBeVisible();

    const leader = await newUserPage(browser);
    await signedIn(leader, DEMO_ACCOUNTS.leader);
    await leader.goto('/freigaben');
    await leader.getByRole('searchbox', { name: 'Suche' }).fill(MATCH);
    const row = leader.getByRole('table', { name: 'Anfragen' }).getByRole('row').filter({ hasText: MATCH });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: /^Anfrage prüfen: / }).click();
    const detail = leader.getByRole('region', { name: /^Freigabe: / });
    await expect(
      detail
        .getByRole('region', { name: 'Änderungen im Text' })
        .locator('ins')
        .filter({ hasText: 'Fassung der Kundin' }),
    ).toHaveCount(1);
    const approved = Date.now();
    await detail.getByRole('button', { name: 'Freigeben' }).click();
    await expect(detail.getByText(/^Entschieden von .* am /)).toBeVisible();
    await leader.context().close();

    await signAs(browser, 'klara@kunde.example', 'Klara Kunde', false, approved);
    await signAs(browser, 'karl@kunde.example', 'Karl Zweit', false, approved);
    await signAs(browser, COUNTERSIGNATORY.email, COUNTERSIGNATORY.name, false, approved);

    const sealed = await completionMailPdf('klara@kunde.example', approved);
    const { contract, certificate } = await sealedPdfPages(sealed.content);
    const certificateText = certificate.join(' ');
    expect(certificateText).toContain('Verhandlung (2 Runden)');
    expect(certificateText).toContain('Runde 1 gesendet');
    expect(certificateText).toContain('Runde 2 zurück');
    // Nor does the signed PDF carry the note, on its contract pages (where LibreOffice made them) or after.
    expect([...contract, ...certificate].join(' ')).not.toContain('Haftungsgrenze');
  });
});
