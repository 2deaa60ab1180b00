import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { reviewLink } from '../browser/review.mjs';
import { customerFirstVisit, sentEnvelope } from '../browser/signing.mjs';
import { describeMachine } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { summarize } from '../lib/stats.mjs';

/**
 * Lighthouse's default configuration, its mobile profile (a Moto G Power's screen, simulated slow 4G,
 * 4× CPU slowdown), on signing links from the mail folder of a freshly started built server on its
 * embedded defaults (a partner's with the code confirmed, a customer's at its first visit), a review
 * link, and /login. Lighthouse empties the browser's cache and storage before every
 * run: each is a first visit.
 */

const FULL = { runs: 5 };
const QUICK = { runs: 1 };

/** Reported against each page's median, not asserted. */
const BUDGET = {
  signing: { score: 90, lcpMs: 2500, tbtMs: 200 },
  customer: { score: 90, lcpMs: 2500, tbtMs: 200 },
  review: { score: 90, lcpMs: 2500, tbtMs: 200 },
  login: { lcpMs: 2000 },
};

/** Debian's Chromium with the flags of playwright.config.ts; no browser download works here. */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** What superdoc's own chunks are named in the build: the editor, which a signer does not need. */
const EDITOR_CHUNK =
  /^(superdoc(?!-frame)|docx-renderer|docx-editor|editor|runtime-core|rehype|remark|unified)[-.]/;

export default {
  name: 'lighthouse',
  title: 'Lighthouse, mobile',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const dataDir = await mkdtemp(join(tmpdir(), 'bench-lighthouse-'));
    const server = await startServerProcess({
      dataDir,
      logFile: join(dataDir, 'server.log'),
      env: {
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '100000',
        // Another build than apps/web/dist, e.g. a copy that a build running meanwhile cannot replace.
        ...(process.env.WEB_DIST_DIR && { WEB_DIST_DIR: process.env.WEB_DIST_DIR }),
      },
      timeoutMs: 180_000,
    });
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
    });
    const pages = [];
    let chromeVersion = '';
    try {
      const { link } = await sentEnvelope(server.baseUrl, dataDir);
      const customer = await customerFirstVisit(server.baseUrl, dataDir);
      const review = await reviewLink(server.baseUrl, dataDir);
      for (const page of [
        { key: 'signing', label: 'Signing link (`/unterschreiben#…`)', url: link },
        {
          key: 'customer',
          label: "A customer's Rahmenvertrag link, first visit (`/unterschreiben#…`, the code step)",
          url: customer.link,
        },
        { key: 'review', label: 'Review link (`/vertragspruefung#…`)', url: review.link },
        { key: 'login', label: '`/login`', url: new URL('/login', server.baseUrl).href },
      ]) {
        const runs = [];
        for (let run = 0; run < settings.runs; run++) {
          const result = await audit(page.url, chrome.port);
          chromeVersion = result.chromeVersion;
          runs.push(result);
          log(
            `${page.key} run ${run + 1} of ${settings.runs}: score ${result.score}, LCP ${Math.round(result.lcpMs)} ms, ` +
              `TBT ${Math.round(result.tbtMs)} ms, ${kib(result.bytes)} KiB, LCP element ${result.lcpElement}` +
              (result.editorChunks.length > 0 ? `, editor chunks: ${result.editorChunks.join(', ')}` : ''),
          );
          for (const [name, value] of Object.entries(result.diagnostics)) log(`  ${name}: ${value}`);
        }
        pages.push({ ...page, runs });
      }
    } finally {
      chrome.kill();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    return { markdown: report(pages, machine, chromeVersion, settings) };
  },
};

async function audit(url, port) {
  const { lhr } = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const requests = lhr.audits['network-requests'].details?.items ?? [];
  return {
    score: Math.round(lhr.categories.performance.score * 100),
    lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
    tbtMs: lhr.audits['total-blocking-time'].numericValue,
    bytes: lhr.audits['total-byte-weight'].numericValue,
    editorChunks: requests
      .map((request) => new URL(request.url).pathname.split('/').pop())
      .filter((file) => EDITOR_CHUNK.test(file)),
    lcpElement: lcpElementOf(lhr),
    diagnostics: diagnosticsOf(lhr),
    chromeVersion: lhr.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '',
  };
}

/**
 * Where a run's time went, as Lighthouse tells it: FCP, the LCP's phases, the longest chain of requests
 * the page waited on one after the other, and the main thread's work (simulated on the slowed CPU).
 */
function diagnosticsOf(lhr) {
  const ms = (value) => `${Math.round(value ?? 0)} ms`;
  const [, phases] = lhr.audits['largest-contentful-paint-element']?.details?.items ?? [];
  const chain = lhr.audits['critical-request-chains']?.details?.longestChain;
  const longTasks = lhr.audits['long-tasks']?.details?.items ?? [];
  const work = lhr.audits['mainthread-work-breakdown']?.details?.items ?? [];
  const scripts = lhr.audits['bootup-time']?.details?.items ?? [];
  const fileOf = (url) => (URL.canParse(url) ? new URL(url).pathname.split('/').pop() || '/' : url);
  return {
    fcp: ms(lhr.audits['first-contentful-paint'].numericValue),
    lcpPhases: (phases?.items ?? []).map((phase) => `${phase.phase} ${ms(phase.timing)}`).join(', '),
    chain: chain ? `${chain.length} requests, ${ms(chain.duration)}, ${kib(chain.transferSize)} KiB` : '',
    longTasks:
      `${longTasks.length}: ` +
      longTasks
        .slice(0, 4)
        .map((task) => `${fileOf(task.url)} ${ms(task.duration)}`)
        .join(', '),
    mainThread: work
      .slice(0, 4)
      .map((group) => `${group.groupLabel} ${ms(group.duration)}`)
      .join(', '),
    scripts: scripts
      .slice(0, 4)
      .map((script) => `${fileOf(script.url)} ${ms(script.total)}`)
      .join(', '),
  };
}

/** The element Lighthouse saw as the largest contentful paint, as its label (for the log). */
function lcpElementOf(lhr) {
  const [elements] = lhr.audits['largest-contentful-paint-element']?.details?.items ?? [];
  const node = elements?.items?.[0]?.node;
  return node ? `${node.nodeLabel ?? ''} (${node.selector ?? ''})`.slice(0, 120) : 'unknown';
}

const kib = (bytes) => Math.round(bytes / 1024).toLocaleString('en');

/** The run whose score is the median (the lower middle one of an even count). */
function medianRun(page) {
  const sorted = [...page.runs].sort((a, b) => a.score - b.score);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function report(pages, machine, chromeVersion, settings) {
  const median = (page, key) => summarize(page.runs.map((run) => run[key])).median;
  const rows = pages.map((page) => [
    page.label,
    String(Math.round(median(page, 'score'))),
    `${(median(page, 'lcpMs') / 1000).toFixed(2)} s`,
    `${Math.round(median(page, 'tbtMs'))} ms`,
    `${kib(median(page, 'bytes'))} KiB`,
    page.runs.map((run) => run.score).join(', '),
    [...new Set(page.runs.flatMap((run) => run.editorChunks))].join(', ') || 'none',
  ]);
  const signing = pages.find((page) => page.key === 'signing');
  const login = pages.find((page) => page.key === 'login');
  const met = (ok) => (ok ? 'met' : '**missed**');
  const withinBudget = (page, budget) =>
    median(page, 'score') >= budget.score &&
    median(page, 'lcpMs') <= budget.lcpMs &&
    median(page, 'tbtMs') <= budget.tbtMs;
  const signingMet = withinBudget(signing, BUDGET.signing);
  const customer = pages.find((page) => page.key === 'customer');
  const review = pages.find((page) => page.key === 'review');
  return [
    '## Lighthouse, mobile',
    '',
    `Measured on ${describeMachine(machine)}, Chromium ${chromeVersion}, median of ${settings.runs} runs per page.`,
    '',
    table(
      ['page', 'performance', 'LCP', 'TBT', 'transferred', 'scores of the runs', 'editor chunks loaded'],
      rows,
    ),
    '',
    'Where the time went in the run of each page with the median score (simulated):',
    '',
    table(
      ['page', 'FCP', 'LCP phases', 'longest request chain', 'long tasks', 'main thread', 'scripts'],
      pages.map((page) => {
        const { diagnostics } = medianRun(page);
        return [
          page.label,
          diagnostics.fcp,
          diagnostics.lcpPhases,
          diagnostics.chain,
          diagnostics.longTasks,
          diagnostics.mainThread,
          diagnostics.scripts,
        ];
      }),
    ),
    '',
    `**Budget: the signing link scores ≥ ${BUDGET.signing.score}, LCP ≤ ${BUDGET.signing.lcpMs / 1000} s, ` +
      `TBT ≤ ${BUDGET.signing.tbtMs} ms — ${met(signingMet)}.** ` +
      `**Budget: a customer's first visit the same — ${met(withinBudget(customer, BUDGET.customer))}.** ` +
      `**Budget: the review link the same, without superdoc's chunks until the customer starts to suggest — ` +
      `${met(withinBudget(review, BUDGET.review) && review.runs.every((run) => run.editorChunks.length === 0))}.** ` +
      `**Budget: /login LCP ≤ ${BUDGET.login.lcpMs / 1000} s — ${met(median(login, 'lcpMs') <= BUDGET.login.lcpMs)}.** ` +
      '(Reported, not asserted.)',
    '',
    "Method: Lighthouse's default configuration, its mobile profile (simulated slow 4G, 4× CPU slowdown), " +
      'performance only, against the built server (`apps/server/dist`, the SPA of `apps/web/dist`) freshly started ' +
      "on its embedded defaults. The signing link is a project partner's, taken from the invitation in the " +
      "embedded mailer's mail folder; the partner's code is confirmed first, so the page shows the contract. A customer's link of a " +
      'Rahmenvertrag, the longest contract, is measured as its first visit finds it: the code step. ' +
      "The review link is a customer's of a Rahmenvertrag legal sent for review, its code confirmed the same way. " +
      'Lighthouse empties the cache before each run: every run is a first visit. "Transferred" is its total ' +
      'byte weight; "editor chunks" lists superdoc\'s chunks the page requested, which a signer (and a reviewer who only reads) does not need. ' +
      'The simulated figures depend on the CPU the run had: on a shared machine, compare pages within one run.',
  ].join('\n');
}
