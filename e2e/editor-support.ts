import { expect, type Page } from '@playwright/test';

/** Waits until superdoc shows the document and the page lets the user save it. */
export async function editorReady(editor: Page): Promise<void> {
  await expect(editor.getByRole('button', { name: 'Speichern' })).toBeEnabled({ timeout: 20_000 });
}

/**
 * The document as it shows first: its first view while superdoc opens it, or superdoc's rendering if
 * that came first (both name themselves „Dokument …“).
 */
export const firstShownDocument = (page: Page) =>
  page
    .getByRole('document', { name: /^Dokument: Vorschau/ })
    .or(page.getByRole('document', { name: 'Dokument', exact: true }))
    .first();

/** Waits until superdoc has replaced the first view of the document. */
export async function firstViewReplaced(page: Page): Promise<void> {
  await expect(page.getByRole('document', { name: /^Dokument: Vorschau/ })).toHaveCount(0, {
    timeout: 20_000,
  });
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
