import type { FileChooser, Locator, Page } from '@playwright/test';
import { editorReady } from './editor-support.js';
import { demoMatch } from './forms-support.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, expect, newUserPage, signIn, test } from './support.js';

/**
 * What a keyboard user sees of the focused element: an outline (buttons, links, Mantine's focus ring) or,
 * for an input, a border in another colour than without focus. Empty when nothing shows the focus.
 */
async function focusIndicator(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return '';
    // Mantine fades borders in 100 ms: without transitions the styles are read at their end values.
    element.style.transition = 'none';
    const focused = getComputedStyle(element);
    if (focused.outlineStyle !== 'none' && Number.parseFloat(focused.outlineWidth) > 0) {
      return `outline ${focused.outlineWidth} ${focused.outlineStyle}`;
    }
    // Text inputs, and Mantine's inputs drawn on other elements (the file input is a button).
    if (
      element instanceof HTMLInputElement ||
      element instanceof HTMLTextAreaElement ||
      element.classList.contains('mantine-Input-input')
    ) {
      const border = focused.borderColor;
      element.blur();
      const unfocused = getComputedStyle(element).borderColor;
      element.focus();
      element.style.transition = '';
      if (border !== unfocused) return `border ${border}`;
    }
    element.style.transition = '';
    return '';
  });
}

/**
 * A page is on the screen, not only in the address: the address changes before React has drawn the page
 * it names. A Tab in between lands on the page before, whose elements are being taken away — the sign-in
 * button showing no focus while its sign-in runs, a summary of /vorlagen read as it was removed — and the
 * test failed on that rather than on the page it tests.
 */
async function pageShown(page: Page, address: RegExp, heading: string): Promise<void> {
  await expect(page).toHaveURL(address);
  await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
}
const startPageShown = (page: Page) => pageShown(page, /\/start$/, 'Match-ID eingeben');

/**
 * Presses Tab until `target` has the focus, checking at every stop on the way that the focus is visible.
 * Fails when the target is not reached within `limit` presses: then it cannot be reached by keyboard.
 */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return element
        ? `${element.tagName} ${element.getAttribute('aria-label') ?? element.textContent ?? ''}`
        : '';
    });
    // Between the last element and the first, Tab passes the browser's own controls: the page has no focus.
    if (where.startsWith('BODY')) continue;
    expect(await focusIndicator(page), `focus visible on ${where.slice(0, 80)}`).not.toBe('');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`not reached with ${limit} presses of Tab: ${target}`);
}

/**
 * The file chooser the next activation opens. Playwright turns on Chromium's interception of file choosers
 * only when a listener is added, in a message of its own: a key press sent right behind that message can
 * open the chooser before interception is on, and then no event ever comes. Called before the Tab presses
 * that reach the button, the interception is certainly on when Enter opens the chooser.
 */
function fileChooserOpened(page: Page): Promise<FileChooser> {
  return page.waitForEvent('filechooser');
}

/** Chooses `option` in the focused Mantine select with the arrow keys and Enter. */
async function chooseByKeyboard(page: Page, select: Locator, option: string): Promise<void> {
  await expect(select).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const wanted = page.getByRole('option', { name: option, exact: true });
  await expect(wanted).toBeVisible();
  for (let presses = 0; presses < 10; presses++) {
    if ((await wanted.getAttribute('data-combobox-selected')) !== null) break;
    await page.keyboard.press('ArrowDown');
  }
  await expect(wanted).toHaveAttribute('data-combobox-selected');
  await page.keyboard.press('Enter');
  await expect(select).toHaveValue(option);
}

test('keyboard only: sign in, enter a match, open a form, fill it, generate, reach the document', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const match = demoMatch('PL-10004');
  const page = await newUserPage(browser);
  await page.goto('/login');

  // The identity provider's window: its form is filled and sent with the keyboard too.
  await tabTo(page, page.getByRole('button', { name: 'Mit Demo-SSO anmelden' }));
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
  const email = popup.getByLabel('E-Mail');
  await expect(email).toBeVisible();
  await tabTo(popup, email);
  await popup.keyboard.type(DEMO_ACCOUNTS.legal);
  await tabTo(popup, popup.getByLabel('Passwort'));
  await popup.keyboard.type(DEMO_PASSWORD);
  const closed = popup.waitForEvent('close');
  await popup.keyboard.press('Enter');
  await closed;
  await startPageShown(page);

  await tabTo(page, page.getByLabel('Match-ID'));
  await page.keyboard.type(match.matchId);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: `Match ${match.matchId}` })).toContainText(match.kunde);
  await tabTo(page, page.getByRole('button', { name: 'Weiter' }));
  await page.keyboard.press('Enter');
  await pageShown(page, /\/format$/, 'Format wählen');

  await tabTo(page, page.getByRole('link', { name: 'DOCX-Kunde-Verträge' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/contract\/docx$/);
  // The address changes before the form's code has arrived; until then /format is still drawn.
  const submit = page.getByRole('button', { name: 'Dokument erstellen' });
  await expect(submit).toBeVisible();

  // Sent empty: the focus goes to the first red field, which says what is wrong with it.
  await tabTo(page, submit);
  await page.keyboard.press('Enter');
  const language = page.getByRole('combobox', { name: 'Sprache', exact: true });
  await expect(language).toBeFocused();
  await expect(language).toHaveAttribute('aria-invalid', 'true');
  await expect(language).toHaveAccessibleDescription('Bitte wähle einen Wert.');

  await chooseByKeyboard(page, language, 'Deutsch');
  const company = page.getByRole('combobox', { name: 'Gesellschaft', exact: true });
  await tabTo(page, company);
  await chooseByKeyboard(page, company, 'WM Consulting GmbH');
  const contract = page.getByRole('combobox', { name: 'Vertragsart', exact: true });
  await tabTo(page, contract);
  await chooseByKeyboard(page, contract, 'Rahmenvertrag');
  await expect(page.getByText('3/3 Felder ausgefüllt')).toBeVisible();

  await tabTo(page, submit);
  const [editor] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
  await expect(editor).toHaveURL(/\/dokumente\/[0-9a-f-]{36}$/);
  await expect(editor.getByRole('heading', { level: 1 })).toHaveText(
    `${match.matchId} Rahmenvertrag Kunde ${match.kunde}.docx`,
  );
  await editorReady(editor);
  // The generation's progress was announced in a live region of the form.
  await expect(page.getByRole('status').filter({ hasText: '100 % – Fertig' })).toBeVisible();

  // In the editor tab, too, the way to the stored file is reachable by keyboard.
  await tabTo(editor, editor.getByRole('button', { name: 'Herunterladen', exact: true }).first());
  const [download] = await Promise.all([editor.waitForEvent('download'), editor.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toBe(`${match.matchId} Rahmenvertrag Kunde ${match.kunde}.docx`);
});

test('keyboard only: Offene Signaturen filtered and searched, a PDF checked', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = await newUserPage(browser);
  await signIn(page, DEMO_ACCOUNTS.legal);
  await startPageShown(page);

  await tabTo(page, page.getByRole('link', { name: 'Signaturen' }));
  await page.keyboard.press('Enter');
  await pageShown(page, /\/signaturen$/, 'Offene Signaturen');
  const status = page.getByRole('combobox', { name: 'Status' });
  await tabTo(page, status);
  await page.keyboard.press('ArrowDown');
  const all = page.getByRole('option', { name: /^Alle \(\d+\)$/ });
  await expect(all).toBeVisible();
  for (
    let presses = 0;
    presses < 10 && (await all.getAttribute('data-combobox-selected')) === null;
    presses++
  ) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/signaturen\?status=all$/);
  await tabTo(page, page.getByRole('searchbox', { name: 'Suche' }));
  await page.keyboard.type('PL-99999');
  await expect(page.getByText('Keine Umschläge zu „PL-99999“ gefunden.')).toBeVisible();

  await tabTo(page, page.getByRole('link', { name: 'PDF prüfen' }), 60);
  await page.keyboard.press('Enter');
  await pageShown(page, /\/pruefen$/, 'PDF prüfen');
  const chooserOpened = fileChooserOpened(page);
  await tabTo(page, page.getByRole('button', { name: /PDF-Datei/ }));
  await page.keyboard.press('Enter');
  const chooser = await chooserOpened;
  await chooser.setFiles({
    name: 'notiz.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('keine PDF-Datei'),
  });
  await expect(page.getByText(/Diese Datei ist kein PDF/)).toBeVisible();
});

test('keyboard only: a template version uploaded, checked and published', async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await newUserPage(browser);
  await signIn(page, DEMO_ACCOUNTS.legal);
  await startPageShown(page);

  await tabTo(page, page.getByRole('link', { name: 'Vorlagen' }));
  await page.keyboard.press('Enter');
  await pageShown(page, /\/vorlagen$/, 'Vorlagen');
  await tabTo(page, page.getByRole('link', { name: 'Vorlage kuendigung-de.docx öffnen' }));
  await page.keyboard.press('Enter');
  await pageShown(page, /\/vorlagen\/kuendigung-de$/, 'kuendigung-de.docx');

  // The same text again: publishing it changes no document of the other tests.
  const chooserOpened = fileChooserOpened(page);
  await tabTo(page, page.getByRole('button', { name: /Word-Datei/ }));
  await page.keyboard.press('Enter');
  const chooser = await chooserOpened;
  await chooser.setFiles('templates/kuendigung-de.docx');
  await tabTo(page, page.getByRole('textbox', { name: 'Was ändert sich?' }));
  await page.keyboard.type('Unverändert, neu gespeichert');
  await tabTo(page, page.getByRole('button', { name: 'Hochladen und prüfen' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Keine Probleme gefunden', { exact: false })).toBeVisible();
  await expect(page.getByText(/^Der Text ist unverändert/)).toBeVisible();
  await expect(page.getByRole('table', { name: /^Mit PL-/ })).toBeVisible();

  await tabTo(page, page.getByRole('button', { name: 'Veröffentlichen' }), 80);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: /Kommentar/ })).toBeFocused();
  await page.keyboard.type('Nur neu gespeichert');
  await tabTo(page, dialog.getByRole('button', { name: 'Veröffentlichen' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Version \d+ ist veröffentlicht\.$/)).toBeVisible();
});
