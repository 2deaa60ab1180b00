import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from '@playwright/test';
import { root } from '../lib/server.mjs';
import { startServerProcess } from '../lib/server-process.mjs';

/**
 * Debian's Chromium with the flags of playwright.config.ts (no browser download works here), so that
 * the benchmark sees the app as the browser tests do.
 */
const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

/**
 * A phone as Chromium's mobile emulation makes one, as e2e/phone-support.ts does: 360 × 740 CSS pixels,
 * touch, twice the pixels. Its CPU and network are the machine's (the Lighthouse suite slows those down).
 */
export const PHONE = {
  viewport: { width: 360, height: 740 },
  hasTouch: true,
  isMobile: true,
  deviceScaleFactor: 2,
};

/** Every demo account's password (README, Demo accounts). */
const DEMO_PASSWORD = 'demo';

/** Who uses the app in the browser benchmarks: legal may generate every document. */
export const USER = 'legal@demo.local';
/** The match of the contract the benchmarks generate. */
export const CONTRACT_MATCH = 'PL-10005';
/**
 * What the editor tab marks once the document shows (its first view, or superdoc if that is first), once
 * the editor's code with superdoc has loaded, and once superdoc is ready to edit the document
 * (apps/web/src/features/editor/editor-timing.ts).
 */
export const DOCUMENT_SHOWN = 'editor:document-shown';
export const EDITOR_CODE_REQUESTED = 'editor:code-requested';
export const EDITOR_CODE_LOADED = 'editor:code-loaded';
export const DOCUMENT_EDITABLE = 'editor:document-editable';
/** What the SPA measures for superdoc opening a DOCX, in the editor and the viewer (apps/web/src/lib/superdoc.ts). */
export const SUPERDOC_OPENING = 'superdoc:opening';
/** What the SPA measures for the first view rendering a DOCX (apps/web/src/components/docx-first-view). */
export const FIRST_VIEW_RENDERING = 'first-view:rendering';

/** How long a step of the flow may take before the run stops: far above any figure worth reporting. */
const STEP_TIMEOUT_MS = 60_000;

/** How long to wait for a build of the SPA that is under way to finish before copying it. */
const BUILD_SETTLE_MS = 180_000;

/** The built SPA's files, each with its size: equal twice, no build changed it in between. */
async function listing(dir) {
  const files = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const entries = await Promise.all(
    files
      .filter((file) => file.isFile())
      .map(async (file) => {
        const path = join(file.parentPath, file.name);
        return `${path.slice(dir.length)} ${(await stat(path)).size}`;
      }),
  );
  return entries.sort().join('\n');
}

/**
 * A copy of the built SPA (apps/web/dist) as it is now, in `target`: a build during the run (of the same
 * working tree) would otherwise swap the files under the pages being measured. Copied again until no
 * build changed the files while they were copied.
 */
async function copyOfBuiltSpa(target) {
  const dist = join(root, 'apps/web/dist');
  const deadline = Date.now() + BUILD_SETTLE_MS;
  while (Date.now() < deadline) {
    const before = await listing(dist);
    if (before.includes('/index.html ')) {
      await rm(target, { recursive: true, force: true });
      await cp(dist, target, { recursive: true });
      if ((await listing(dist)) === before && (await listing(target)) === before) return target;
    }
    await sleep(5_000);
  }
  throw new Error(`${dist} kept changing (a build under way?) for ${BUILD_SETTLE_MS / 1000} s`);
}

/**
 * The built app as production runs it: the built server (a fresh embedded database, the built SPA of
 * apps/web/dist) as its own process, and headless Chromium against it. The server looks LibreOffice up on
 * its PATH (documents/pdf-rendition.ts) and spawns nothing else: `libreOffice: false` gives it a PATH
 * with only Node's own folder, as on a server without LibreOffice.
 */
export async function startBrowserApp({ libreOffice = true } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-browser-'));
  const webDistDir = await copyOfBuiltSpa(join(dataDir, 'web'));
  const server = await startServerProcess({
    dataDir,
    logFile: join(dataDir, 'server.log'),
    env: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000',
      WEB_DIST_DIR: webDistDir,
      ...(libreOffice ? {} : { PATH: dirname(process.execPath) }),
    },
  });
  let browser;
  try {
    browser = await chromium.launch(CHROMIUM);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    baseUrl: server.baseUrl,
    /** The server's DATA_DIR: its embedded mailer writes the mail it sends into `mail/` there. */
    dataDir,
    chromiumVersion: browser.version(),
    /**
     * A page in a browser context of its own: another person on another machine, with an empty cache;
     * `device` emulates a phone (PHONE).
     */
    async newPage(device = {}) {
      const context = await browser.newContext({
        baseURL: server.baseUrl,
        locale: 'de-DE',
        timezoneId: 'Europe/Berlin',
        ...device,
      });
      context.setDefaultTimeout(STEP_TIMEOUT_MS);
      return context.newPage();
    },
    async close() {
      await browser.close();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in on /login through the embedded provider's popup, as a user does (e2e/support.ts). */
export async function signIn(page, email) {
  await page.goto('/login');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Mit Demo-SSO anmelden' }).click(),
  ]);
  // Listen before submitting: the popup may close before a later listener would be attached.
  const closed = popup.waitForEvent('close');
  await popup.getByLabel('E-Mail').fill(email);
  await popup.getByLabel('Passwort').fill(DEMO_PASSWORD);
  await popup.getByRole('button', { name: 'Anmelden' }).click();
  await closed;
  await page.waitForURL(/\/start$/);
}

/** Confirms `matchId` on /start and waits for its table. */
export async function confirmMatch(page, matchId) {
  await page.getByLabel('Match-ID').fill(matchId);
  await page.getByRole('button', { name: 'Bestätigen' }).click();
  await page.getByRole('table', { name: `Match ${matchId}` }).waitFor();
}

/** Picks `option` in the Mantine select labelled `label` (e2e/forms-support.ts). */
async function choose(page, label, option) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * A complete DOCX contract form for CONTRACT_MATCH, ready to submit: legal's German framework contract
 * of e2e/editor.spec.ts, which the built-in editor opens in a new tab.
 */
export async function openFilledContractForm(page) {
  await page.goto('/start');
  await confirmMatch(page, CONTRACT_MATCH);
  await page.goto('/contract/docx');
  await page.getByRole('region', { name: 'Match', exact: true }).getByText(CONTRACT_MATCH).waitFor();
  await choose(page, 'Sprache', 'Deutsch');
  await choose(page, 'Gesellschaft', 'WM Consulting GmbH');
  await choose(page, 'Vertragsart', 'Rahmenvertrag');
}

/** Submits the form and answers the tab the built-in editor opens the document in. */
export async function submitForEditor(page) {
  const [editor] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Dokument erstellen' }).click(),
  ]);
  return editor;
}

/** Waits until the page has set every one of the performance marks `names`. */
export async function marksSet(page, names) {
  await page.waitForFunction(
    (marks) => marks.every((name) => performance.getEntriesByName(name, 'mark').length > 0),
    names,
  );
}

/** Waits until the editor tab can edit the document (and so has shown it). */
export async function documentEditable(editor) {
  await marksSet(editor, [DOCUMENT_SHOWN, DOCUMENT_EDITABLE]);
}
