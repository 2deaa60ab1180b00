import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  CONTRACT_MATCH,
  documentEditable,
  marksSet,
  openFilledContractForm,
  signIn,
  startBrowserApp,
  submitForEditor,
  USER,
} from '../browser/app.mjs';
import { sentEnvelope, VIEWER_SHOWN } from '../browser/signing.mjs';
import { describeMachine } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { root } from '../lib/server.mjs';

/**
 * Size of the JavaScript and CSS the SPA's pages really load: Chromium opens them against
 * the built server and the files it fetches are weighed as the build wrote them, plain and in the .gz
 * and .br the server sends (apps/web/vite.config.ts, apps/server/src/routes/spa.ts).
 */

const ASSETS = join(root, 'apps/web/dist/assets');

/** kB as Vite reports them: 1000 bytes. */
const BUDGET = { page: '/login', gzipKb: 150 };

export default {
  name: 'size',
  title: 'Size of the JavaScript',

  async run({ machine, log }) {
    const app = await startBrowserApp();
    const loads = {};
    try {
      const page = await app.newPage();
      // Routing turns Chromium's HTTP cache off: every page fetches all it needs, as on a first visit.
      await page.context().route('**/*', (route) => route.continue());
      const recorder = recordAssets(page.context());

      loads.login = await recorder.during(async () => {
        await page.goto('/login');
        await page.getByRole('button', { name: 'Mit Demo-SSO anmelden' }).waitFor();
        await page.waitForLoadState('networkidle');
      });
      await signIn(page, USER);
      loads.start = await recorder.during(async () => {
        await page.goto('/start');
        await page.getByLabel('Match-ID').waitFor();
        await page.waitForLoadState('networkidle');
      });
      loads.form = await recorder.during(async () => {
        await openFilledContractForm(page);
        await page.waitForLoadState('networkidle');
      });
      loads.editor = await recorder.during(async () => {
        const editor = await submitForEditor(page);
        await documentEditable(editor);
        await editor.waitForLoadState('networkidle');
        await editor.close();
      });
      // A signer's first visit: a browser of its own, nothing cached, the contract's text shown.
      const { link } = await sentEnvelope(app.baseUrl, app.dataDir);
      const signer = await app.newPage();
      await signer.context().route('**/*', (route) => route.continue());
      loads.signing = await recordAssets(signer.context()).during(async () => {
        await signer.goto(link);
        await marksSet(signer, [VIEWER_SHOWN]);
        await signer.waitForLoadState('networkidle');
      });
      log(`built app on ${app.baseUrl}, Chromium ${app.chromiumVersion}`);
    } finally {
      await app.close();
    }

    const initial = new Set([...loads.login.keys(), ...loads.start.keys()]);
    const pages = [
      { label: '/login', files: [...loads.login.keys()] },
      { label: '/start (signed in)', files: [...loads.start.keys()] },
      { label: '/login and /start together', files: [...initial] },
      {
        label: 'form page /contract/docx, beyond /start',
        files: [...loads.form.keys()].filter((file) => !initial.has(file)),
      },
      {
        label: 'editor tab with a document, beyond /start',
        files: [...loads.editor.keys()].filter((file) => !initial.has(file)),
      },
      { label: 'signing link (a first visit)', files: [...loads.signing.keys()] },
    ].map((p) => ({
      ...p,
      js: weigh(p.files.filter((f) => f.endsWith('.js'))),
      css: weigh(p.files.filter((f) => f.endsWith('.css'))),
    }));

    for (const { label, js } of pages) log(`${label}: ${js.files} JavaScript file(s), ${kb(js.gzip)} gzip`);
    const encodings = new Map([...Object.values(loads)].flatMap((load) => [...load]));
    return { markdown: report({ pages, loads, encodings, machine, chromiumVersion: app.chromiumVersion }) };
  },
};

/**
 * The built assets (`/assets/…`) a browser context fetches while `action` runs, with the
 * Content-Encoding the server answered each with: file name → encoding.
 */
function recordAssets(context) {
  let current = null;
  context.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (current && path.startsWith('/assets/') && /\.(js|css)$/.test(path)) {
      current.set(basename(path), response.headers()['content-encoding'] ?? 'identity');
    }
  });
  return {
    async during(action) {
      current = new Map();
      try {
        await action();
        return current;
      } finally {
        current = null;
      }
    },
  };
}

/** Bytes of `files` as built, and as sent gzip- or brotli-encoded (the plain file where none is smaller). */
function weigh(files) {
  const size = (path) => statSync(path).size;
  const sent = (path, extension) =>
    existsSync(`${path}${extension}`) ? size(`${path}${extension}`) : size(path);
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    const path = join(ASSETS, file);
    raw += size(path);
    gzip += sent(path, '.gz');
    brotli += sent(path, '.br');
  }
  return { files: files.length, raw, gzip, brotli };
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

function report({ pages, loads, encodings, machine, chromiumVersion }) {
  const budgetPage = pages[0];
  const met = budgetPage.js.gzip <= BUDGET.gzipKb * 1000;
  const largest = readdirSync(ASSETS)
    .filter((file) => file.endsWith('.js'))
    .sort((a, b) => statSync(join(ASSETS, b)).size - statSync(join(ASSETS, a)).size)[0];
  const usedEncodings = [...new Set(encodings.values())].join(', ');
  const loadedBy = (file) =>
    [
      ['/login', loads.login],
      ['/start', loads.start],
      ['form', loads.form],
      ['editor', loads.editor],
      ['signing', loads.signing],
    ]
      .filter(([, load]) => load.has(file))
      .map(([label]) => label)
      .join(', ');
  const files = [...encodings.keys()].sort(
    (a, b) => statSync(join(ASSETS, b)).size - statSync(join(ASSETS, a)).size,
  );

  return [
    '## Size of the JavaScript the pages load',
    '',
    `Measured ${describeMachine(machine)}, Chromium ${chromiumVersion} against the built server and ` +
      `the last build of apps/web/dist. 1 kB = 1000 bytes, as Vite reports sizes.`,
    '',
    `**Budget: initial JavaScript of ${BUDGET.page} ≤ ${BUDGET.gzipKb} kB gzip — ` +
      `${met ? 'met' : '**missed**'}** (${kb(budgetPage.js.gzip)} gzip, ${kb(budgetPage.js.brotli)} brotli, ` +
      `${kb(budgetPage.js.raw)} as built). The editor stays out of the initial load and the signing page: ` +
      `the largest chunk of the build, \`${largest}\` (superdoc, ${kb(statSync(join(ASSETS, largest)).size)}), ` +
      `is loaded by ${loadedBy(largest) || 'no page measured'}.`,
    '',
    table(
      ['page', 'JS files', 'JS as built', 'JS gzip', 'JS brotli', 'CSS as built', 'CSS gzip', 'CSS brotli'],
      pages.map(({ label, js, css }) => [
        label,
        String(js.files),
        kb(js.raw),
        `**${kb(js.gzip)}**`,
        kb(js.brotli),
        kb(css.raw),
        kb(css.gzip),
        kb(css.brotli),
      ]),
    ),
    '',
    '### Every file loaded',
    '',
    table(
      ['file', 'loaded by', 'as built', 'gzip', 'brotli', 'sent to Chromium as'],
      files.map((file) => {
        const { raw, gzip, brotli } = weigh([file]);
        return [`\`${file}\``, loadedBy(file), kb(raw), kb(gzip), kb(brotli), encodings.get(file)];
      }),
    ),
    '',
    '### How measured',
    '',
    'Chromium (headless, HTTP cache off) opens /login, signs legal in through the embedded provider, ' +
      `opens /start afresh, then the DOCX form of ${CONTRACT_MATCH} and submits it, which opens the ` +
      'document in the built-in editor in a new tab; a browser context of its own then opens the link of a ' +
      "project partner's contract sent through the API (the code confirmed, as bench/browser does); every " +
      'JavaScript and CSS file under /assets/ that a step fetches counts for that step, until the network ' +
      'is idle (the editor tab and the signing page: once the document shows). Sizes are those of the built files and of the .gz (zlib level 9) and .br (brotli quality ' +
      '10) the build writes beside them, which the server sends by Accept-Encoding. ' +
      `Chromium got: ${usedEncodings}.`,
  ].join('\n');
}
