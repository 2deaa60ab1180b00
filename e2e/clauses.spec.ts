import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import {
  clauseApi,
  fillVariant,
  publishReviewed,
  reviewVersion,
  statusOf,
  tabTo,
  type VariantInput,
  variantGroup,
  versionReview,
  versionRow,
} from './clauses-support.js';
import { demoMatch } from './forms-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signedIn, test } from './support.js';

/**
 * The clause library on /klauseln, end to end: legal creates a clause with two variants in German and
 * English, saves a version whose rule cannot be read and then a corrected one, compares it with the
 * published text, tries it on a deal, publishes it and rolls back; and creates a clause by keyboard alone.
 * Keys of their own: no other spec reads or places these clauses.
 */

const KEY = 'haftung-e2e';
const NAME = 'Haftung (E2E)';
const SWISS: VariantInput = {
  name: 'Schweiz',
  rule: 'land = CH',
  de: 'Die Haftung gegenüber {partnerName} richtet sich nach Art. 97 ff. OR.',
  en: 'The liability towards {partnerName} is governed by Art. 97 et seq. CO.',
};
const STANDARD: VariantInput = {
  name: 'Standard',
  de: '{partnerName} haftet nur für Vorsatz und grobe Fahrlässigkeit. Ansprüche verjähren nach zwölf Monaten.',
  en: '{partnerName} is liable only for intent and gross negligence. Claims become time-barred after twelve months.',
};
/** Version 3's change of the standard text, word for word. */
const SHORTER = {
  de: STANDARD.de.replace('zwölf', 'sechs'),
  en: STANDARD.en.replace('twelve', 'six'),
};
const MATCH = 'PL-10001';

test.describe('clause library: a clause written, checked, compared, tried, published and rolled back', () => {
  test.describe.configure({ mode: 'serial' });

  let legal: Page;
  test.beforeAll(async ({ browser }) => {
    legal = await newUserPage(browser);
    await signedIn(legal, DEMO_ACCOUNTS.legal);
  });
  test.afterAll(async () => {
    await legal?.context().close();
  });

  test('legal creates a clause with a Swiss and a standard variant; its first version is a draft', async () => {
    test.setTimeout(60_000);
    await legal.getByRole('link', { name: 'Klauseln', exact: true }).click();
    await expect(legal).toHaveURL(/\/klauseln$/);
    await expect(legal.getByRole('heading', { level: 1, name: 'Klauseln' })).toBeVisible();
    await legal.getByRole('button', { name: 'Neue Klausel' }).click();
    const form = legal.getByRole('region', { name: 'Neue Klausel' });
    await expect(form.getByRole('heading', { name: 'Neue Klausel' })).toBeFocused();

    await form.getByRole('textbox', { name: 'Schlüssel', exact: true }).fill(KEY);
    await expect(form.getByText(`Die Vorlage setzt die Klausel mit {@klausel:${KEY}} ein`)).toBeVisible();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(NAME);
    await form.getByRole('checkbox', { name: 'Änderungen brauchen Freigabe' }).check();
    // The form starts with one variant, „Standard“: it becomes the Swiss one, the standard one follows.
    await fillVariant(form, 1, SWISS);
    await form.getByRole('button', { name: 'Variante hinzufügen' }).click();
    await expect(variantGroup(form, 2).getByRole('textbox', { name: 'Name der Variante' })).toBeFocused();
    await fillVariant(form, 2, STANDARD);
    await expect(variantGroup(form, 1)).toHaveAccessibleName('Variante 1: Schweiz');
    await expect(variantGroup(form, 2)).toHaveAccessibleName('Variante 2: Standard');
    // With two variants every one of them can be moved and removed: all those buttons are enabled.
    await expectAccessible(legal, 'the clause list with the new-clause form of two variants');
    await form
      .getByRole('textbox', { name: 'Kommentar zur ersten Version' })
      .fill('Haftung nach Vorgabe der Rechtsabteilung');

    const created = legal.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === '/backend/clauses',
    );
    await form.getByRole('button', { name: 'Klausel anlegen' }).click();
    expect((await created).status()).toBe(201);
    await expect(legal).toHaveURL(new RegExp(`/klauseln/${KEY}$`));
    await expect(legal.getByRole('heading', { level: 1, name: NAME })).toBeVisible();
    await expect(legal.getByText(`{@klausel:${KEY}}`, { exact: true })).toBeVisible();

    await expect(versionRow(legal, 1)).toHaveCount(1);
    await expect(statusOf(legal, 1, 'Entwurf')).toBeVisible();
    const review = versionReview(legal, 1);
    await expect(review.getByText('Keine Probleme gefunden', { exact: false })).toBeVisible();
    const content = review.getByRole('region', { name: 'Inhalt' });
    await expect(content.getByRole('heading', { name: 'Variante 1: Schweiz' })).toBeVisible();
    await expect(content.getByText('land = CH', { exact: true })).toBeVisible();
    await expect(content.getByRole('heading', { name: 'Variante 2: Standard' })).toBeVisible();
    await expect(content.getByText(STANDARD.de)).toBeVisible();
    await expect(content.getByText(STANDARD.en)).toBeVisible();
    await expect(legal.getByRole('checkbox', { name: 'Änderungen brauchen Freigabe' })).toBeChecked();
    // The pointer stayed where „Klausel anlegen“ was and may rest on a control of this page: moved off
    // it, so that axe sees no hover state.
    await legal.getByRole('heading', { level: 1, name: NAME }).hover();
    await expectAccessible(legal, 'a clause with its first version, a draft');
  });

  test('a version with a misspelt rule shows its problem and cannot be published; a corrected one can', async () => {
    test.setTimeout(45_000);
    // From version 1, under review: the Swiss rule misspelt.
    await legal.getByRole('button', { name: 'Neue Version' }).click();
    const editor = legal.getByRole('region', { name: 'Neue Version' });
    await expect(
      editor.getByText('Ausgangspunkt ist der Inhalt von Version 1.', { exact: false }),
    ).toBeVisible();
    await variantGroup(editor, 1).getByRole('textbox', { name: 'Regel' }).fill('lnad = CH');
    await editor.getByRole('textbox', { name: 'Was ändert sich?' }).fill('Regel für die Schweiz');
    await editor.getByRole('button', { name: 'Version speichern und prüfen' }).click();
    await expect(editor).toBeHidden();

    const faulty = versionReview(legal, 2);
    await expect(legal).toHaveURL(/[?&]version=2$/);
    const problems = faulty
      .getByRole('alert')
      .filter({ hasText: 'so kann die Version nicht veröffentlicht werden' });
    await expect(problems).toContainText('Ein Problem');
    await expect(problems).toContainText('Variante „Schweiz“, Regel:');
    await expect(problems).toContainText('Unbekanntes Feld „lnad“');
    await expect(statusOf(legal, 2, 'Entwurf')).toBeVisible();
    await expect(statusOf(legal, 2, '1 Problem')).toBeVisible();
    // No way to publish it on the page, nor a trial; and the server refuses it, naming the problem.
    const publishing = faulty.getByRole('region', { name: 'Veröffentlichen' });
    await expect(
      publishing.getByText('Erst eine Version ohne Probleme kann veröffentlicht werden.'),
    ).toBeVisible();
    await expect(faulty.getByRole('button', { name: /veröffentlichen/i })).toHaveCount(0);
    await expect(faulty.getByRole('button', { name: 'Ausprobieren' })).toHaveCount(0);
    const refused = await (await clauseApi(legal)).publish(KEY, 2, 'trotzdem', null);
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('Unbekanntes Feld „lnad“');

    // Corrected from version 2: the rule as it should be, and a shorter limitation period.
    await legal.getByRole('button', { name: 'Neue Version' }).click();
    await expect(
      editor.getByText('Ausgangspunkt ist der Inhalt von Version 2.', { exact: false }),
    ).toBeVisible();
    await variantGroup(editor, 1).getByRole('textbox', { name: 'Regel' }).fill('land = CH');
    const standard = variantGroup(editor, 2);
    await standard.getByRole('textbox', { name: 'Deutscher Text' }).fill(SHORTER.de);
    await standard.getByRole('textbox', { name: 'Englischer Text' }).fill(SHORTER.en);
    await editor.getByRole('textbox', { name: 'Was ändert sich?' }).fill('Verjährung sechs Monate');
    await editor.getByRole('button', { name: 'Version speichern und prüfen' }).click();
    await expect(editor).toBeHidden();
    const corrected = versionReview(legal, 3);
    await expect(legal).toHaveURL(/[?&]version=3$/);
    await expect(corrected.getByText('Keine Probleme gefunden', { exact: false })).toBeVisible();
    await expect(statusOf(legal, 3, 'Entwurf')).toBeVisible();
    await expect(versionRow(legal, 3).getByText(/Problem/)).toHaveCount(0);
  });

  test('version 1 published; version 3 compared with it, tried on a deal, published; then rolled back to 1', async () => {
    test.setTimeout(60_000);
    await reviewVersion(legal, 1);
    await publishReviewed(legal, 1, 'Veröffentlichen', 'Erste Fassung freigegeben');
    await expect(statusOf(legal, 1, 'veröffentlicht')).toBeVisible();

    // What version 3 changes against the published version 1: one word per language of „Standard“.
    const review = await reviewVersion(legal, 3);
    const changes = review.getByRole('region', { name: 'Was sich ändert' });
    await expect(
      changes.getByText('Der Text dieser Version gegenüber Version 1, je Variante und Sprache.'),
    ).toBeVisible();
    const german = changes.getByRole('region', { name: 'Variante „Standard“, Deutsch' });
    await expect(german.locator('del')).toHaveText('gestrichen: zwölf');
    await expect(german.locator('ins')).toHaveText('eingefügt: sechs');
    const english = changes.getByRole('region', { name: 'Variante „Standard“, Englisch' });
    await expect(english.locator('del')).toHaveText('gestrichen: twelve');
    await expect(english.locator('ins')).toHaveText('eingefügt: six');
    await expect(
      changes.getByText('Unverändert: Variante „Schweiz“, Deutsch; Variante „Schweiz“, Englisch.'),
    ).toBeVisible();

    // Tried on a deal in Hamburg: no rule for Switzerland holds, every document gets „Standard“.
    const trial = review.getByRole('region', { name: 'An einem Deal ausprobieren' });
    await trial.getByRole('textbox', { name: 'Match-ID' }).fill(MATCH);
    await trial.getByRole('button', { name: 'Ausprobieren' }).click();
    const tried = trial.getByRole('table', { name: `Mit ${MATCH}:` });
    await expect(tried).toBeVisible();
    const contract = tried.getByRole('row').filter({ hasText: 'docx-de-wm-rv' });
    await expect(contract).toHaveCount(1);
    await expect(contract).toContainText('Standard (Version 3)');
    await expect(contract).toContainText('Gilt immer');
    await expect(contract).toContainText(SHORTER.de.replace('{partnerName}', demoMatch(MATCH).kunde));
    await expect(tried.getByText(/^Schweiz \(Version/)).toHaveCount(0);
    await expect(tried.getByText('{partnerName}', { exact: false })).toHaveCount(0);

    await publishReviewed(legal, 3, 'Veröffentlichen', 'Verjährung von der Rechtsabteilung freigegeben');
    await expect(statusOf(legal, 3, 'veröffentlicht')).toBeVisible();
    await expect(statusOf(legal, 1, 'ersetzt')).toBeVisible();
    await expect(versionRow(legal, 3)).toContainText('„Verjährung von der Rechtsabteilung freigegeben“');

    // Back to version 1: published again, version 3 replaced.
    await reviewVersion(legal, 1);
    await publishReviewed(legal, 1, 'Version 1 wieder veröffentlichen', 'Zurück zu zwölf Monaten');
    await expect(statusOf(legal, 1, 'veröffentlicht')).toBeVisible();
    await expect(statusOf(legal, 3, 'ersetzt')).toBeVisible();

    await legal.getByRole('link', { name: 'Alle Klauseln' }).click();
    const row = legal.getByRole('table', { name: 'Klauseln' }).getByRole('row').filter({ hasText: KEY });
    await expect(row).toContainText('Version 1');
    await expect(row).toContainText(/seit \d/);
    await expectAccessible(legal, 'the clause list with a published clause');
  });
});

test('a clause is created with the keyboard alone', async ({ page }) => {
  test.setTimeout(45_000);
  const key = 'vertraulichkeit-e2e';
  await signedIn(page, DEMO_ACCOUNTS.legal);
  await page.goto('/klauseln');
  await expect(page.getByRole('heading', { level: 1, name: 'Klauseln' })).toBeVisible();

  await tabTo(page, page.getByRole('button', { name: 'Neue Klausel' }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('region', { name: 'Neue Klausel' });
  await expect(form.getByRole('heading', { name: 'Neue Klausel' })).toBeFocused();

  // Each text is entered as one keyboard input, as an input method sends it (insertText): typed key by
  // key, the form re-rendered per character and that took most of the test's time on a busy machine.
  await tabTo(page, form.getByRole('textbox', { name: 'Schlüssel', exact: true }));
  await page.keyboard.insertText(key);
  await page.keyboard.press('Tab');
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
  await page.keyboard.insertText('Vertraulichkeit');
  await page.keyboard.press('Tab');
  const approval = form.getByRole('checkbox', { name: 'Änderungen brauchen Freigabe' });
  await expect(approval).toBeFocused();
  await page.keyboard.press('Space');
  await expect(approval).toBeChecked();

  // The first variant keeps its name „Standard“ and gets its texts.
  const first = variantGroup(form, 1);
  await tabTo(page, first.getByRole('textbox', { name: 'Deutscher Text' }));
  await page.keyboard.insertText('{partnerName} behandelt alle Informationen vertraulich.');
  await page.keyboard.press('Tab');
  await expect(first.getByRole('textbox', { name: 'Englischer Text' })).toBeFocused();
  await page.keyboard.insertText('{partnerName} treats all information as confidential.');

  // A second one for Switzerland, moved before the standard one (which has no rule, so comes last).
  await tabTo(page, form.getByRole('button', { name: 'Variante hinzufügen' }));
  await page.keyboard.press('Enter');
  const second = variantGroup(form, 2);
  await expect(second.getByRole('textbox', { name: 'Name der Variante' })).toBeFocused();
  await page.keyboard.insertText('Schweiz');
  await page.keyboard.press('Tab');
  await expect(second.getByRole('textbox', { name: 'Regel' })).toBeFocused();
  await page.keyboard.insertText('land = CH');
  await page.keyboard.press('Tab');
  await page.keyboard.insertText('{partnerName} wahrt das Geschäftsgeheimnis nach Art. 162 StGB.');
  await page.keyboard.press('Tab');
  await page.keyboard.insertText('{partnerName} keeps business secrets under Art. 162 SCC.');
  await tabTo(page, second.getByRole('button', { name: 'Variante 2 nach oben' }));
  await page.keyboard.press('Enter');
  await expect(variantGroup(form, 1)).toHaveAccessibleName('Variante 1: Schweiz');
  await expect(variantGroup(form, 2)).toHaveAccessibleName('Variante 2: Standard');
  // The moved variant's other button keeps the focus: its „nach oben“ is disabled now.
  await expect(form.getByRole('button', { name: 'Variante 1 nach unten' })).toBeFocused();

  await tabTo(page, form.getByRole('textbox', { name: 'Kommentar zur ersten Version' }));
  await page.keyboard.insertText('Vertraulichkeit für alle Verträge');
  await tabTo(page, form.getByRole('button', { name: 'Klausel anlegen' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(new RegExp(`/klauseln/${key}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Vertraulichkeit' })).toBeVisible();
  await expect(statusOf(page, 1, 'Entwurf')).toBeVisible();
  const review = versionReview(page, 1);
  await expect(review.getByText('Keine Probleme gefunden', { exact: false })).toBeVisible();
  const content = review.getByRole('region', { name: 'Inhalt' });
  await expect(content.getByRole('heading', { name: 'Variante 1: Schweiz' })).toBeVisible();
  await expect(content.getByRole('heading', { name: 'Variante 2: Standard' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Änderungen brauchen Freigabe' })).toBeChecked();
});
