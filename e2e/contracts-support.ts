import type { Page } from '@playwright/test';
import { editorOpenedBy, fillDocx, loadMatch, openForm, submitButton } from './forms-support.js';
import { expect } from './support.js';

/** A small PDF as a counterparty's scanner makes one; the server checks its header. */
const SIGNED_PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/**
 * Generates `contract` of WE for `matchId` on /contract/docx, and records it in the editor as signed
 * elsewhere by `signer` on `signedOn`; answers the record's page, opened through „Zum Vertrag“.
 */
export async function recordSignedElsewhere(
  page: Page,
  matchId: string,
  contract: 'Rahmenvertrag' | 'Einzelauftrag',
  signedOn: string,
  signer: string,
): Promise<Page> {
  await loadMatch(page, matchId);
  await openForm(page, '/contract/docx', matchId);
  await fillDocx(page, 'Deutsch', 'WE Engineering GmbH', contract);
  // The editor page opens without superdoc: its opening would hold the tab's main thread for many seconds
  // on a busy machine, and the dialog needs none of it (e2e/editor.spec.ts tests the editor itself).
  const superdoc = /\/assets\/docx-editor-[^/]*\.js$/;
  await page.context().route(superdoc, (route) => route.abort());
  const editor = await editorOpenedBy(page, () => submitButton(page).click());
  await expect(editor.getByRole('heading', { level: 1 })).toContainText(`${matchId} ${contract}`);
  await editor.getByRole('button', { name: 'Als unterschrieben erfassen' }).click();
  const dialog = editor.getByRole('dialog', { name: 'Als unterschrieben erfassen' });
  await dialog.locator('input[type="file"]').setInputFiles({
    name: `${matchId} unterschrieben.pdf`,
    mimeType: 'application/pdf',
    buffer: SIGNED_PDF,
  });
  await dialog.getByLabel('Datum der Unterschrift').fill(signedOn);
  await dialog.getByRole('textbox', { name: 'Unterschrieben von' }).fill(signer);
  await dialog.getByRole('button', { name: 'Erfassen' }).click();
  await dialog.getByRole('link', { name: 'Zum Vertrag' }).click();
  await expect(editor).toHaveURL(/\/vertraege\/[0-9a-f-]{36}$/);
  await page.context().unroute(superdoc);
  return editor;
}
