import { readdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe.js';
import {
  editedDocument,
  editorReady,
  firstShownDocument,
  typeAfterLine,
  versionLine,
} from './editor-support.js';
import { demoMatch, editorOpenedBy, fillDocx, loadMatch, openForm, submitButton } from './forms-support.js';
import { DEMO_ACCOUNTS, expect, newUserPage, signIn, test } from './support.js';

test.describe('built-in editor', () => {
  test('legal edits a generated contract: saved as version 2 and kept on reload, its download asks for a Freigabe; an outdated tab gets the conflict', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await newUserPage(browser);
    const match = demoMatch('PL-10005');
    const fileName = `${match.matchId} Rahmenvertrag Kunde ${match.kunde}.docx`;
    const sentence = 'Diese Zeile kam im Online-Editor dazu.';
    await signIn(page, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
    await loadMatch(page, match.matchId);
    await openForm(page, '/contract/docx', match.matchId);
    await fillDocx(page, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag');

    // Generating opens the stored document in the editor, in a new tab; axe checks it while superdoc
    // opens the document behind its first view, and once superdoc shows it.
    const editor = await editorOpenedBy(page, () => submitButton(page).click());
    await expect(editor.getByRole('heading', { level: 1 })).toHaveText(fileName);
    await expect(firstShownDocument(editor)).toBeVisible({ timeout: 15_000 });
    await expectAccessible(editor, 'the editor while superdoc opens the document', { exceptSuperdoc: true });
    await editorReady(editor);
    await expectAccessible(editor, 'the editor', { exceptSuperdoc: true });
    await expect(versionLine(editor)).toHaveText(`Match: ${match.matchId} · Version: 1`);
    await expect(editedDocument(editor)).toContainText(match.kunde);
    // superdoc's toolbar shows German tooltips, and screen readers hear German names.
    const bold = editor.getByRole('button', { name: 'Fett', exact: true });
    await bold.hover();
    await expect(editor.getByText('Fett', { exact: true })).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Bold' })).toHaveCount(0);
    await expect(editor.getByRole('toolbar', { name: 'Werkzeugleiste' })).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Aufzählung: weitere Optionen' })).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Weitere Werkzeuge' })).toBeVisible();

    // A second tab on version 1, before anyone saved.
    const outdated = await page.context().newPage();
    await outdated.goto(editor.url());
    await editorReady(outdated);

    await typeAfterLine(editor, 'zwischen', ` ${sentence}`);
    await expect(editor.getByText('Ungespeicherte Änderungen')).toBeVisible();
    await editor.getByRole('button', { name: 'Speichern' }).click();
    await expect(editor.getByText('Gespeichert als Version 2')).toBeVisible();
    await expect(editor.getByText('Ungespeicherte Änderungen')).toHaveCount(0);
    await expect(versionLine(editor)).toHaveText(`Match: ${match.matchId} · Version: 2`);
    const versions = editor.getByRole('table', { name: 'Versionen' });
    await expect(versions.getByRole('row')).toHaveCount(3);
    await expect(versions.getByRole('row').nth(1)).toContainText(`2neuestegeöffnet${DEMO_ACCOUNTS.legal}`);
    await expect(versions.getByRole('row').nth(2)).toContainText(`1${DEMO_ACCOUNTS.legal}`);

    // Edited (and without rates), the contract leaves only with an approval: the download asks for it
    // (e2e/approvals.spec.ts follows a request to the file). The sentence is in the stored version: the
    // editor shows it after a reload.
    await expect(editor.getByRole('button', { name: 'Zur Freigabe senden' })).toBeVisible();
    await expect(editor.getByText('Text nach der Erstellung geändert')).toBeVisible();
    await expectAccessible(editor, 'the editor with two versions and its Freigabe', { exceptSuperdoc: true });
    await editor.reload();
    await editorReady(editor);
    await expect(versionLine(editor)).toHaveText(`Match: ${match.matchId} · Version: 2`);
    await expect(editedDocument(editor)).toContainText(sentence);

    // The outdated tab may not overwrite version 2: it gets the conflict and loads version 2.
    await typeAfterLine(outdated, 'zwischen', ' Veraltete Änderung.');
    await outdated.getByRole('button', { name: 'Speichern' }).click();
    const conflict = outdated.getByRole('dialog', { name: 'Neuere Version vorhanden' });
    await expect(conflict).toContainText(`von ${DEMO_ACCOUNTS.legal} gespeichert (Version 2`);
    await expect(conflict).toContainText('ungespeicherten Änderungen verloren');
    await expectAccessible(outdated, 'the conflict dialog', { exceptSuperdoc: true });
    await conflict.getByRole('button', { name: 'Neu laden' }).click();
    await expect(conflict).toBeHidden();
    await editorReady(outdated);
    await expect(versionLine(outdated)).toHaveText(`Match: ${match.matchId} · Version: 2`);
    await expect(editedDocument(outdated)).toContainText(sentence);
    await expect(editedDocument(outdated)).not.toContainText('Veraltete Änderung.');

    // The history on /start shows the document at version 2 and opens it in the editor.
    await page.goto('/start');
    await loadMatch(page, match.matchId);
    const history = page.getByRole('table', { name: 'Dokumente dieses Matches' });
    const row = history.getByRole('row').filter({ hasText: fileName });
    await expect(row.getByRole('cell').nth(4)).toHaveText('2');
    const [reopened] = await Promise.all([
      page.waitForEvent('popup'),
      row.getByRole('link', { name: 'Öffnen', exact: true }).click(),
    ]);
    await expect(reopened).toHaveURL(editor.url());
    await editorReady(reopened);
  });

  test('a double click saves once; an older version opens read-only, with the way back to the newest', async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const page = await newUserPage(browser);
    await signIn(page, DEMO_ACCOUNTS.legal);
    await expect(page).toHaveURL(/\/start$/);
    await loadMatch(page, 'PL-10005');
    await openForm(page, '/contract/docx', 'PL-10005');
    await fillDocx(page, 'Englisch', 'WE Engineering GmbH', 'Einzelauftrag');
    const editor = await editorOpenedBy(page, () => submitButton(page).click());
    await editorReady(editor);
    await typeAfterLine(editor, 'between', ' Version two.');
    // A double click saves once.
    const saves: string[] = [];
    editor.on('request', (request) => {
      if (request.method() === 'PUT') saves.push(request.url());
    });
    await editor.getByRole('button', { name: 'Speichern' }).dblclick();
    await expect(editor.getByText('Gespeichert als Version 2')).toBeVisible();
    await expect(editor.getByRole('table', { name: 'Versionen' }).getByRole('row')).toHaveCount(3);
    expect(saves).toHaveLength(1);

    const versions = editor.getByRole('table', { name: 'Versionen' });
    await versions.getByRole('row').nth(2).getByRole('button', { name: 'Öffnen' }).click();
    await expect(editor.getByText(/^Du siehst Version 1\./)).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Speichern' })).toBeDisabled();
    await expect(editedDocument(editor).locator('.superdoc-text-run').first()).toBeVisible({
      timeout: 20_000,
    });
    await expect(editedDocument(editor)).not.toContainText('Version two.');

    await editor.getByRole('button', { name: 'Neueste Version öffnen' }).click();
    await editorReady(editor);
    await expect(editedDocument(editor)).toContainText('Version two.');
  });
});

/**
 * The file names the build gave the editor's and the viewer's chunks, superdoc's and the first view's
 * renderers among them (apps/web/dist/assets).
 */
const LAZY_CHUNKS = /^(?:editor|docx-editor|docx-renderer|superdoc|render-first-view)-[\w-]+\.(?:js|css)$/;

function assetName(url: string): string {
  return new URL(url).pathname.split('/').pop() ?? '';
}

/** Records the names of every script and style sheet the page requests from now on. */
function recordAssets(page: Page): string[] {
  const names: string[] = [];
  page.on('request', (request) => {
    if (['script', 'stylesheet'].includes(request.resourceType())) names.push(assetName(request.url()));
  });
  return names;
}

test('/login and /start load neither the editor nor the viewer, the editor page does', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  // The check below only means something if the build still names the chunks this way.
  const built = readdirSync('apps/web/dist/assets');
  for (const prefix of ['editor-', 'docx-editor-', 'docx-renderer-', 'superdoc-', 'render-first-view-']) {
    expect(built.some((name) => name.startsWith(prefix) && name.endsWith('.js'))).toBe(true);
  }

  const page = await newUserPage(browser);
  const assets = recordAssets(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeVisible();
  await signIn(page, DEMO_ACCOUNTS.legal);
  await expect(page).toHaveURL(/\/start$/);
  await loadMatch(page, 'PL-10007');
  // Everything /start shows, down to the (still empty) document history.
  const history = page.getByRole('region', { name: 'Dokumente dieses Matches' });
  await expect(history.getByText('Für dieses Match wurden noch keine Dokumente erstellt.')).toBeVisible();
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.filter((name) => LAZY_CHUNKS.test(name))).toEqual([]);

  // The same recording catches them where they belong.
  await openForm(page, '/contract/docx', 'PL-10007');
  await fillDocx(page, 'Deutsch', 'WM Consulting GmbH', 'Rahmenvertrag');
  const editor = await editorOpenedBy(page, () => submitButton(page).click());
  const editorAssets = recordAssets(editor);
  await editor.reload();
  await editorReady(editor);
  for (const prefix of ['editor-', 'docx-editor-', 'superdoc-', 'render-first-view-']) {
    expect(editorAssets.some((name) => name.startsWith(prefix))).toBe(true);
  }
});
