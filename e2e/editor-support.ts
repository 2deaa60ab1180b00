import { expect, type Page } from '@playwright/test';

/**
 * How long superdoc may take to open a document in a test. It needs 1–3 s alone; with the other lane's
 * browser opening one at the same moment on two cores, 15 s and more were seen.
 */
const SUPERDOC_OPENING_MS = 45_000;

/** Waits until superdoc shows the document and the page lets the user save it. */
export async function editorReady(editor: Page): Promise<void> {
  await expect(editor.getByRole('button', { name: 'Speichern' })).toBeEnabled({
    timeout: SUPERDOC_OPENING_MS,
  });
}

/** The document's first view, which stands for superdoc's rendering while superdoc opens it. */
export const firstView = (page: Page) => page.getByRole('document', { name: /^Dokument: Vorschau/ });

/**
 * The document as it shows first: its first view, or superdoc's rendering if that came first. Playwright
 * counts inert elements among the roles, so superdoc's element is taken only once it is no longer inert.
 */
export const firstShownDocument = (page: Page) =>
  firstView(page).or(page.locator('[role="document"][aria-label="Dokument"]:not([inert])')).first();

/**
 * Waits until the page shows its document for good: superdoc's rendering, no longer inert behind the
 * first view, the signing page's text of it, or the browser's PDF frame.
 */
export async function documentRendered(page: Page): Promise<void> {
  await expect(
    page.locator('[role="document"]:not([inert]) .superdoc, .docx-reflow section, iframe').first(),
  ).toBeVisible({ timeout: SUPERDOC_OPENING_MS });
}

/** The document as superdoc paints it, page by page. */
export const editedDocument = (editor: Page) =>
  editor.getByRole('document', { name: 'Dokument', exact: true });

/**
 * Types `text` at the end of the line that reads exactly `line`, as a user does: a click into the
 * painted page puts the cursor there, and the keyboard goes to superdoc's hidden editing surface.
 */
export async function typeAfterLine(editor: Page, line: string, text: string): Promise<void> {
  await editedDocument(editor)
    .locator('.superdoc-text-run', { hasText: new RegExp(`^${line}$`) })
    .click();
  await editor.keyboard.press('End');
  await editor.keyboard.type(text);
}

/** The editor's own line under the title: `Match: PL-… · Version: N`. */
export const versionLine = (editor: Page) => editor.getByText(/^Match: .* · Version: \d+$/);
