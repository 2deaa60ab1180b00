import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { cpuSnapshot, describeMachine, othersShare } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { interleaved, memoryOf } from '../lib/measure.mjs';
import { importServer, packageVersion, root, serverRequire } from '../lib/server.mjs';
import { factor, mb, ms, summarize } from '../lib/stats.mjs';
import { carboneTemplate, carboneVersion, renderWithCarbone } from './carbone.mjs';
import { documentText, firstDifference } from './docx-text.mjs';

/**
 * Rendering benchmark: per document family, our renderer as production runs it against
 * Carbone rendering the same contract and against the floor, all in one run; then one family under
 * parallel requests.
 */

const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** One representative key per document family of the catalogue. */
const FAMILIES = [
  { title: 'Contract, German, customer', key: 'docx-de-wm-rv' },
  { title: 'Contract, English, project partner', key: 'en-we-pp-rv' },
  { title: 'Termination', key: 'kuendigung-wm-k-termination-gerecht' },
  { title: 'Offer', key: 'angebot-wm' },
  { title: 'Additional agreement', key: 'zusatz-wm-pp-descr' },
];

const ENGINES = {
  pool: 'ours: worker pool (production)',
  inProcess: 'ours: in-process, no pool',
  carbone: `Carbone ${carboneVersion}`,
  floor: 'floor: unzip + rezip',
};

const FULL = {
  passes: 3,
  warmupRounds: 5,
  minRounds: 30,
  maxRounds: 150,
  seconds: 16,
  memoryRenders: 20,
  concurrencySeconds: 12,
};
const QUICK = {
  passes: 1,
  warmupRounds: 3,
  minRounds: 5,
  maxRounds: 10,
  seconds: 2,
  memoryRenders: 5,
  concurrencySeconds: 2,
};

/** Requests in flight at once: one user, two at the same moment, a busy morning. */
const CONCURRENCY = [1, 2, 8];
/** The engines timed under concurrency: ours as production renders, and Carbone. */
const CONCURRENT_ENGINES = ['pool', 'carbone'];

const BUDGET = 2;

export default {
  name: 'rendering',
  title: 'Rendering',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const { CATALOGUE } = await import('@vertragsgenerator/domain');
    const { createRendererPool } = await importServer('templates/renderer.js');
    const { compileTemplate } = await importServer('templates/docx-template.js');
    const { loadCompanyData } = await importServer('templates/companies.js');
    const { richestDemoMatch, sampleTemplateData } = await importServer('templates/samples.js');
    const { default: renderInThisThread } = await importServer('templates/render-worker.js');
    const PizZip = serverRequire('pizzip');
    assertProductionDeflate(PizZip);

    const templatesDir = join(root, 'templates');
    const companyData = await loadCompanyData(join(root, 'config'));
    const match = await richestDemoMatch(join(root, 'config/demo-matches.json'));
    const today = new Date();
    // The production default (apps/server/src/config/config.ts) unless RENDER_THREADS says otherwise.
    const { defaultRenderThreads } = await importServer('config/config.js');
    const threads = Number(process.env.RENDER_THREADS) || defaultRenderThreads(availableParallelism());
    const pool = createRendererPool({ threads });
    const { Piscina } = serverRequire('piscina');
    const hopPool = new Piscina({
      filename: new URL('./hop-worker.mjs', import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
    });
    const scratch = await mkdtemp(join(tmpdir(), 'bench-carbone-'));

    const prepared = [];
    const results = [];
    let concurrency;
    let othersLoad = Number.NaN;
    try {
      for (const family of FAMILIES) {
        const entry = CATALOGUE.get(family.key);
        if (!entry) throw new Error(`${family.key} is not in the catalogue`);
        const data = sampleTemplateData(entry, match, companyData, today);
        const bytes = await readFile(join(templatesDir, entry.template));
        // A template as production hands it to the pool: one version, its bytes and their SHA-256.
        const template = { name: entry.template, version: 1, sha256: sha256Hex(bytes), content: bytes };
        const task = { template: { sha256: template.sha256, content: bytes }, data };

        // What production answers: the reference every other engine must reproduce.
        const production = (await pool.render(template, data)).content;
        const inThisThread = await renderInThisThread(task);
        if (!inThisThread.ok) throw new Error(`${family.key}: ${JSON.stringify(inThisThread.problems)}`);
        const expected = documentText(PizZip, production);

        const carbone = await carboneCopy({
          family,
          compileTemplate,
          bytes,
          data,
          expected,
          PizZip,
          scratch,
          log,
        });
        const rewritten = partsRewrittenByRenderer(compileTemplate, bytes, data);
        const floor = () => {
          const zip = new PizZip(bytes);
          for (const name of rewritten) zip.file(name, zip.files[name].asText());
          return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
        };
        const hop = () => hopPool.run({ data, size: production.length });

        const engines = {
          pool: () => pool.render(template, data),
          inProcess: () => renderInThisThread(task),
          carbone: () => renderWithCarbone(carbone.file, data),
          floor,
        };
        const templateParts = Object.values(new PizZip(bytes).files).filter((file) => !file.dir).length;
        prepared.push({
          family,
          entry,
          expected,
          engines,
          cases: Object.entries({ ...engines, hop }).map(([id, run]) => ({ id, run })),
          samples: new Map(),
          carboneMode: carbone.mode,
          rewritten,
          templateParts,
        });
        log(
          `${family.title}: ${family.key} (templates/${entry.template}); Carbone copy renders the same text`,
        );
      }

      // Passes over all families, so that a busy minute of the machine does not land on one family only.
      const cpuAtStart = cpuSnapshot();
      for (let pass = 1; pass <= settings.passes; pass++) {
        for (const family of prepared) {
          const samples = await interleaved(family.cases, {
            warmupRounds: settings.warmupRounds,
            minRounds: Math.ceil(settings.minRounds / settings.passes),
            maxRounds: Math.ceil(settings.maxRounds / settings.passes),
            seconds: settings.seconds / settings.passes,
          });
          for (const [id, values] of samples)
            family.samples.set(id, [...(family.samples.get(id) ?? []), ...values]);
        }
        log(`pass ${pass} of ${settings.passes} done`);
      }
      othersLoad = othersShare(cpuAtStart, cpuSnapshot());

      for (const { family, entry, engines, samples, carboneMode, rewritten, templateParts } of prepared) {
        const timing = Object.fromEntries([...samples].map(([id, values]) => [id, summarize(values)]));
        const memory = {};
        for (const [id, run] of Object.entries(engines)) {
          memory[id] = await memoryOf(run, settings.memoryRenders);
        }
        results.push({ family, entry, timing, memory, carboneMode, rewritten, templateParts });
        log(
          `${family.title}: ours ${ms(timing.pool.median)} ms · Carbone ${ms(timing.carbone.median)} ms · ` +
            `floor ${ms(timing.floor.median)} ms · Carbone ÷ ours ${factor(timing.carbone.median, timing.pool.median)}`,
        );
      }

      concurrency = await underConcurrency(prepared[0], { settings, PizZip, log });
    } finally {
      await pool.close();
      await hopPool.destroy();
      await rm(scratch, { recursive: true, force: true });
    }

    return { markdown: report({ results, concurrency, machine, threads, settings, match, othersLoad }) };
  },
};

/**
 * One family with `c` requests in flight at once, for each `c` of CONCURRENCY: `c` callers each render
 * one document after the other (a new one as soon as the last is answered) until the time is up.
 * Before timing, `c` renders at once must each give the document rendered alone: Carbone keeps state
 * per render only, and this checks it.
 */
async function underConcurrency({ family, engines, expected }, { settings, PizZip, log }) {
  const largest = Math.max(...CONCURRENCY);
  for (const id of CONCURRENT_ENGINES) {
    const documents = await Promise.all(Array.from({ length: largest }, () => engines[id]()));
    for (const document of documents) {
      const problem = firstDifference(expected, documentText(PizZip, document.content ?? document));
      if (problem)
        throw new Error(`${family.key}: ${ENGINES[id]} renders other text in parallel: ${problem}`);
    }
  }
  log(`${family.title}: ${largest} renders at once give the same text as one, for ours and Carbone`);

  const figures = new Map();
  for (let pass = 0; pass < settings.passes; pass++) {
    for (const concurrency of CONCURRENCY) {
      // Rotated per pass, so that neither engine always runs right after the other's burst.
      const order = pass % 2 === 0 ? CONCURRENT_ENGINES : [...CONCURRENT_ENGINES].reverse();
      for (const id of order) {
        const key = `${id}@${concurrency}`;
        const run = await inFlight(engines[id], concurrency, settings.concurrencySeconds / settings.passes);
        const total = figures.get(key) ?? { documents: 0, wallMs: 0, latencies: [] };
        figures.set(key, {
          documents: total.documents + run.latencies.length,
          wallMs: total.wallMs + run.wallMs,
          latencies: [...total.latencies, ...run.latencies],
        });
      }
    }
  }

  const rows = CONCURRENCY.map((concurrency) => {
    const of = (id) => {
      const { documents, wallMs, latencies } = figures.get(`${id}@${concurrency}`);
      return { perSecond: documents / (wallMs / 1000), latency: summarize(latencies) };
    };
    return { concurrency, pool: of('pool'), carbone: of('carbone') };
  });
  for (const { concurrency, pool, carbone } of rows) {
    log(
      `${concurrency} in flight: ours ${pool.perSecond.toFixed(1)} documents/s, ${ms(pool.latency.median)} ms · ` +
        `Carbone ${carbone.perSecond.toFixed(1)} documents/s, ${ms(carbone.latency.median)} ms`,
    );
  }
  return { family, rows };
}

/** `concurrency` callers rendering back to back for `seconds`; the last renders started still count. */
async function inFlight(run, concurrency, seconds) {
  const latencies = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const caller = async () => {
    do {
      const start = performance.now();
      await run();
      latencies.push(performance.now() - start);
    } while (performance.now() < deadline);
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return { latencies, wallMs: performance.now() - started };
}

/**
 * The Carbone copy of the family's template (see carbone.mjs), checked to render the same text as ours
 * paragraph for paragraph before anything is timed: otherwise the comparison would not be fair.
 */
async function carboneCopy({ family, compileTemplate, bytes, data, expected, PizZip, scratch, log }) {
  const problems = [];
  for (const mode of ['loop', 'fixed']) {
    const file = join(scratch, `${family.key}-${mode}.docx`);
    await writeFile(file, carboneTemplate(compileTemplate, bytes, data, mode));
    const problem = firstDifference(expected, documentText(PizZip, await renderWithCarbone(file, data)));
    if (!problem) return { file, mode };
    log(`  the Carbone copy in ${mode} mode renders other text than ours: ${problem}`);
    problems.push(`${mode}: ${problem}`);
  }
  throw new Error(`${family.key}: no Carbone copy renders the same text as ours (${problems.join('; ')})`);
}

/**
 * The floor must zip with the DEFLATE production zips with: docx-template.js replaces pizzip's bundled
 * pako with node:zlib when it is imported, on the one pizzip module the server and this bench share.
 * Fails if the floor would time pako instead (another pizzip copy, or the patch gone or not yet loaded).
 */
function assertProductionDeflate(PizZip) {
  const pako = serverRequire('pizzip/js/flate.js');
  const deflate = PizZip.compressions.DEFLATE;
  const problem =
    deflate === pako || deflate.compress === pako.compress
      ? "is still pizzip's bundled pako"
      : !String(deflate.compress).includes('deflateRawSync')
        ? `is not node:zlib's deflateRawSync: ${String(deflate.compress)}`
        : undefined;
  if (problem) {
    throw new Error(
      `The floor's PizZip DEFLATE ${problem}; production (apps/server/dist/templates/docx-template.js) ` +
        'deflates with node:zlib, so the floor would not zip as the renderer does.',
    );
  }
  const sample = new TextEncoder().encode('<w:p><w:r><w:t>floor</w:t></w:r></w:p>'.repeat(50));
  if (Buffer.compare(inflateRawSync(deflate.compress(sample, {})), sample) !== 0) {
    throw new Error("The floor's PizZip DEFLATE does not round-trip through node:zlib's inflateRawSync.");
  }
}

/**
 * The zip entries the renderer decompresses and compresses again (the parts docxtemplater reads or
 * writes); pizzip copies every other entry still compressed.
 */
function partsRewrittenByRenderer(compileTemplate, bytes, data) {
  const zip = compileTemplate(bytes).render(data).getZip();
  return Object.keys(zip.files).filter(
    (name) => !zip.files[name].dir && typeof zip.files[name]._data?.getCompressedContent !== 'function',
  );
}

/**
 * Where each family's time goes and, from the same figures, why the budget is met or missed: written
 * from the measurements, so that the text cannot go stale when the renderer changes.
 */
function whereTheTimeGoes(results) {
  const lines = [
    '### Where the time goes',
    '',
    'The renderer keeps the parsed template per version (by SHA-256) in its worker and renders it again for every ' +
      'document (`renderParsed`), and pizzip deflates with node:zlib instead of its bundled pako ' +
      '(apps/server/src/templates/docx-template.ts, render-worker.ts); the floor zips with that same ' +
      'zlib DEFLATE (checked before timing). "Pool overhead" is ours (pool) minus ours (in-process); ' +
      '"thread hop" is the round trip of a piscina task that does nothing but take the same data and ' +
      'answer as many bytes as the document has (bench/rendering/hop-worker.mjs); "filling" is ' +
      'in-process minus floor, the template work beyond the zip. "Budget" is Carbone ÷ ' +
      `${BUDGET}, the slowest median ours may have.`,
    '',
    table(
      ['family', 'ours (pool)', 'budget', 'pool overhead', 'thread hop', 'in-process', 'floor', 'filling'],
      results.map(({ family, timing }) => [
        family.title,
        `${ms(timing.pool.median)} ms`,
        `${ms(timing.carbone.median / BUDGET)} ms`,
        `${ms(timing.pool.median - timing.inProcess.median)} ms`,
        `${ms(timing.hop.median)} ms`,
        `${ms(timing.inProcess.median)} ms`,
        `${ms(timing.floor.median)} ms`,
        `${ms(timing.inProcess.median - timing.floor.median)} ms`,
      ]),
    ),
    '',
  ];

  const speedup = ({ timing }) => timing.carbone.median / timing.pool.median;
  const missed = results.filter((r) => speedup(r) < BUDGET);
  const tightest = [...results].sort((a, b) => speedup(a) - speedup(b))[0];
  const p10Misses = results.filter((r) => r.timing.carbone.p10 / r.timing.pool.p10 < BUDGET);

  if (missed.length === 0) {
    const { family, timing } = tightest;
    lines.push(
      `Every family meets the budget in this run. The tightest is ${family.title} at ` +
        `${factor(timing.carbone.median, timing.pool.median)}: ours ${ms(timing.pool.median)} ms against ` +
        `a budget of ${ms(timing.carbone.median / BUDGET)} ms.` +
        (p10Misses.length > 0
          ? ` Compared at p10, ${p10Misses.map((r) => r.family.title).join(', ')} ` +
            `${p10Misses.length === 1 ? 'stays' : 'stay'} under ${BUDGET}×, so the margin there is thin.`
          : ` At p10, too, every family is at least ${BUDGET}× faster.`) +
        ' No further renderer change is needed for the budget.',
    );
  } else {
    for (const { family, timing } of missed) {
      const budget = timing.carbone.median / BUDGET;
      const overhead = timing.pool.median - timing.inProcess.median;
      const cause =
        timing.floor.median >= budget
          ? `the floor alone takes ${ms(timing.floor.median)} ms, so no docxtemplater renderer zipping with ` +
            'pizzip can meet it'
          : timing.inProcess.median <= budget
            ? `in-process it would (${ms(timing.inProcess.median)} ms): the pool’s ${ms(overhead)} ms ` +
              `(the bare thread hop ${ms(timing.hop.median)} ms) is what tips it over`
            : `in-process it takes ${ms(timing.inProcess.median)} ms too, ` +
              `${ms(timing.inProcess.median - timing.floor.median)} ms of it filling beyond the ` +
              `${ms(timing.floor.median)} ms floor: the renderer’s own work is too slow`;
      lines.push(
        `- ${family.title} misses: ours ${ms(timing.pool.median)} ms against a budget of ${ms(budget)} ms ` +
          `(${factor(timing.carbone.median, timing.pool.median)}); ${cause}.`,
      );
    }
  }
  return lines;
}

const perSecond = (value) => (Number.isFinite(value) ? value.toFixed(1) : '–');

/** How an engine's figures moved from 1 request in flight to the most. */
function change(engine, one, most, concurrency) {
  return (
    `From 1 to ${concurrency} in flight ${engine} went from ${perSecond(one.perSecond)} to ` +
    `${perSecond(most.perSecond)} documents/s (${factor(most.perSecond, one.perSecond)}) and from ` +
    `${ms(one.latency.median)} to ${ms(most.latency.median)} ms per document.`
  );
}

function concurrencySection({ family, rows }, threads, settings) {
  const one = rows.find((row) => row.concurrency === 1);
  const most = rows.at(-1);
  return [
    '',
    `### Parallel requests (${family.title}, \`${family.key}\`)`,
    '',
    `Documents per second over the whole run and the median time of one document, with 1, 2 and ${most.concurrency} ` +
      'requests in flight at once (each caller starts the next document when its last one is answered).',
    '',
    table(
      [
        'in flight',
        'ours: documents/s',
        'ours: per document (p10 – p90)',
        'Carbone: documents/s',
        'Carbone: per document (p10 – p90)',
        'ours ÷ Carbone, documents/s',
      ],
      rows.map(({ concurrency, pool, carbone }) => [
        String(concurrency),
        perSecond(pool.perSecond),
        `${ms(pool.latency.median)} ms (${ms(pool.latency.p10)} – ${ms(pool.latency.p90)})`,
        perSecond(carbone.perSecond),
        `${ms(carbone.latency.median)} ms (${ms(carbone.latency.p10)} – ${ms(carbone.latency.p90)})`,
        factor(pool.perSecond, carbone.perSecond),
      ]),
    ),
    '',
    `Ours renders in the worker pool's ${threads} thread(s), off the main thread; requests beyond that ` +
      `wait in the pool's queue. ${change('ours', one.pool, most.pool, most.concurrency)} Carbone renders ` +
      'in the main thread: parallel calls only interleave at its awaits (file reads, callbacks) on one ' +
      'event loop, never on more than one core, and that thread serves nothing else while it works. ' +
      `${change('Carbone', one.carbone, most.carbone, most.concurrency)} Before timing, ` +
      `${most.concurrency} renders at once of each engine were checked to give the same text as one alone; ` +
      `${settings.concurrencySeconds} s per engine and level, in ${settings.passes} pass(es) that alternate ` +
      'which engine goes first.',
  ];
}

function report({ results, concurrency, machine, threads, settings, match, othersLoad }) {
  const meets = ({ timing }) => timing.carbone.median / timing.pool.median >= BUDGET;
  const metCount = results.filter(meets).length;
  const verdict =
    metCount === results.length
      ? 'met for every family'
      : metCount === 0
        ? 'missed for every family'
        : `met for ${metCount} of ${results.length} families, missed for ${results
            .filter((r) => !meets(r))
            .map((r) => r.family.title)
            .join(', ')}`;
  const versions = ['docxtemplater', 'pizzip', 'piscina'].map((name) => `${name} ${packageVersion(name)}`);
  const lines = [
    '## Rendering: our renderer, Carbone and the floor',
    '',
    `Measured ${describeMachine(machine)}. Other processes used ` +
      `${Number.isFinite(othersLoad) ? `${(othersLoad * 100).toFixed(0)} %` : 'an unknown share'} of the ` +
      'CPU time during the timed passes (the higher, the noisier).',
    `Libraries: ${versions.join(', ')}, carbone ${carboneVersion}. Worker pool: ${threads} thread(s), ` +
      `the production default on this machine. Demo match ${match.matchId} (config/demo-matches.json).`,
    '',
    `**Budget: at least ${BUDGET}× faster than Carbone per document — ` +
      `${verdict}** (ours = the worker pool, as production renders; ratios of medians, ` +
      '"same at p10" compares the fastest tenth of each, the least disturbed by other load).',
    '',
    '### Summary (median per document)',
    '',
    table(
      [
        'family',
        'key',
        'ours (pool)',
        'Carbone',
        'floor',
        'Carbone ÷ ours',
        'same at p10',
        'ours ÷ floor',
        `≥ ${BUDGET}×`,
      ],
      results.map(({ family, timing }) => {
        const speedup = timing.carbone.median / timing.pool.median;
        return [
          family.title,
          `\`${family.key}\``,
          `${ms(timing.pool.median)} ms`,
          `${ms(timing.carbone.median)} ms`,
          `${ms(timing.floor.median)} ms`,
          factor(timing.carbone.median, timing.pool.median),
          factor(timing.carbone.p10, timing.pool.p10),
          factor(timing.pool.median, timing.floor.median),
          speedup >= BUDGET ? 'yes' : '**no**',
        ];
      }),
    ),
    '',
    ...whereTheTimeGoes(results),
    ...concurrencySection(concurrency, threads, settings),
  ];

  for (const { family, entry, timing, carboneMode, rewritten, templateParts } of results) {
    lines.push(
      '',
      `### ${family.title}: \`${family.key}\` (templates/${entry.template})`,
      '',
      table(
        ['engine', 'median', 'p10 – p90', 'runs', 'Carbone ÷ this', 'this ÷ floor'],
        Object.entries(ENGINES).map(([id, label]) => [
          label,
          `${ms(timing[id].median)} ms`,
          `${ms(timing[id].p10)} – ${ms(timing[id].p90)} ms`,
          String(timing[id].n),
          factor(timing.carbone.median, timing[id].median),
          factor(timing[id].median, timing.floor.median),
        ]),
      ),
      '',
      `Carbone template: ${carboneMode === 'loop' ? 'signature blocks as a Carbone loop' : 'signature blocks by index'}; ` +
        `floor rewrites ${rewritten.length} of ${templateParts} zip entries, as the renderer does.`,
    );
  }

  if (results.every((r) => Object.values(r.memory).every(Boolean))) {
    lines.push(
      '',
      `### Memory (${settings.memoryRenders} documents per engine, after the timings)`,
      '',
      'RSS peak above the level after a full GC (the whole process, worker threads included) / ' +
        'main-thread heap still reachable after another full GC.',
      '',
      table(
        ['family', ...Object.values(ENGINES)],
        results.map(({ family, memory }) => [
          family.title,
          ...Object.keys(ENGINES).map((id) => `${mb(memory[id].rssPeak)} / ${mb(memory[id].heapRetained)}`),
        ]),
      ),
    );
  }

  lines.push(
    '',
    '### How measured',
    '',
    'Each family renders one key with the demo match that fills the most fields, its template data built ' +
      'by the server’s own `templateDataFor` as the API builds it. All engines of a family run in one ' +
      'process and are interleaved: every round runs each case once, in an order rotated per round. ' +
      `The families are measured in ${settings.passes} pass${settings.passes === 1 ? '' : 'es'} spread over the run, each pass after ` +
      `${settings.warmupRounds} warm-up rounds; a family gets up to ${settings.maxRounds} rounds, fewer ` +
      `(at least ${settings.minRounds}) when its ${settings.seconds} s are up. A time is wall-clock from ` +
      'the call to the finished DOCX bytes in memory. *Ours (pool)* is `createRendererPool` from ' +
      'apps/server/dist, warm as in production (the template version’s bytes handed over with every ' +
      'document, parsed once per version and kept in the worker, every document a new render of it), so ' +
      'it includes the hand-off to the worker thread and ' +
      'the copy of the result back; *in-process* calls the same worker function in the main thread, ' +
      'with its own cache. *Carbone* runs in the main thread (no thread hop: its best case) on a Carbone-syntax ' +
      'copy of the same template, made at bench time by rendering our template with docxtemplater where ' +
      'each text field’s value is its Carbone tag `{d.field}` and each section condition has its real ' +
      'value for the key. The sections are thus pre-resolved exactly as ours resolves them, and Carbone ' +
      'does less template logic than we do (no conditions); it still reads and unzips the template, ' +
      'finds and fills every tag with XML escaping, repeats the signature blocks itself ' +
      '(`[i]`/`[i+1]` loop) and zips. Before timing, Carbone’s output must have the same text as ours, ' +
      'paragraph for paragraph, in body, header and footer. *Floor*: PizZip loads the template, reads ' +
      'and writes back unchanged the entries the renderer rewrites, and zips with DEFLATE as the renderer ' +
      'does (node:zlib, the server’s pizzip patched by docx-template.js; the run stops if it is not): ' +
      'the zip work any docxtemplater renderer pays. Ratios are of medians from the same run.',
  );
  return lines.join('\n');
}
