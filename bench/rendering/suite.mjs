import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot, othersShare } from '../lib/machine.mjs';
import { interleaved, memoryOf } from '../lib/measure.mjs';
import { importServer, root, serverRequire } from '../lib/server.mjs';
import { factor, ms, summarize } from '../lib/stats.mjs';
import { carboneTemplate, renderWithCarbone } from './carbone.mjs';
import { documentText, firstDifference } from './docx-text.mjs';
import { changedPartsFloor, unzipRezipFloor } from './floors.mjs';
import { ENGINES, report } from './report.mjs';

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

export default {
  name: 'rendering',
  title: 'Rendering',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const { CATALOGUE } = await import('@vertragsgenerator/domain');
    const { createRendererPool } = await importServer('templates/renderer.js');
    const { compileTemplate, fillParsed, parseTemplate } = await importServer('templates/docx-template.js');
    const { loadCompanyData } = await importServer('templates/companies.js');
    const { richestDemoMatch, sampleTemplateData } = await importServer('templates/samples.js');
    const docxZip = await importServer('templates/docx-zip.js');
    const layouts = await importServer('templates/document-layout.js');
    const { renderDocument: renderInThisThread } = await importServer('templates/render-worker.js');
    const PizZip = serverRequire('pizzip');

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

    const measured = [];
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
        const expected = documentText(PizZip, production);
        // A new shape in this thread: the render thread's layout, then filled as the pool fills it.
        const { lines } = layouts.shapeOf(layouts.xmlSafe(data));
        const entries = docxZip.readTemplateZip(bytes);
        const newShape = () => {
          const outcome = renderInThisThread(task);
          if (!outcome.ok || !outcome.layout)
            throw new Error(`${family.key}: no layout (${JSON.stringify(outcome)})`);
          return layouts.fillLayout(layouts.prepareLayout(outcome.layout, entries), lines);
        };
        const inThisThread = newShape();
        const differs = firstDifference(expected, documentText(PizZip, inThisThread));
        if (differs)
          throw new Error(`${family.key}: a new shape in this thread writes other text: ${differs}`);
        // Every document of ours has other text than the last: the same shape, names that differ.
        const sameShape = [data, otherNames(data, 'B'), otherNames(data, 'C')];
        const shapeKey = (of) => layouts.shapeOf(layouts.xmlSafe(of)).key;
        if (sameShape.some((other) => shapeKey(other) !== shapeKey(data))) {
          throw new Error(`${family.key}: the renamed data is of another shape`);
        }
        let next = 0;
        // The filling alone, the part of ours after the shape is known: a prepared layout filled and zipped.
        const prepared = layouts.prepareLayout(renderInThisThread(task).layout, entries);
        const fillLayout = () => layouts.fillLayout(prepared, lines);

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
        const floor = unzipRezipFloor({ PizZip, compileTemplate, bytes, data });
        const changedFloor = changedPartsFloor({ docxZip, PizZip, bytes, rendered: production });
        const problem = firstDifference(expected, documentText(PizZip, changedFloor.run()));
        if (problem) throw new Error(`${family.key}: the changed-parts floor writes other text: ${problem}`);
        const hop = () => hopPool.run({ data, size: production.length });
        // docxtemplater's part of ours: the parsed template filled, nothing zipped.
        const parsed = parseTemplate(bytes);
        const fill = () => fillParsed(parsed, data);

        const engines = {
          pool: () => pool.render(template, data),
          newShape,
          carbone: () => renderWithCarbone(carbone.file, data),
          changedFloor: changedFloor.run,
          floor: floor.run,
        };
        const cpu = new Map();
        measured.push({
          family,
          entry,
          expected,
          engines,
          // Timed, every document of ours has other text than the last; the checks in parallel and the
          // memory figures take the one data whose text is known.
          cases: Object.entries({
            ...engines,
            pool: () => pool.render(template, sameShape[next++ % sameShape.length]),
            hop,
            fill,
            fillLayout,
          }).map(([id, run]) => ({
            id,
            run: withCpu(id, run, cpu),
          })),
          samples: new Map(),
          cpu,
          carboneMode: carbone.mode,
          floors: {
            changed: changedFloor.compressed,
            rewritten: floor.compressed,
            parts: changedFloor.parts,
          },
        });
        log(
          `${family.title}: ${family.key} (templates/${entry.template}); Carbone copy renders the same text`,
        );
      }

      // Passes over all families, so that a busy minute of the machine does not land on one family only.
      const cpuAtStart = cpuSnapshot();
      for (let pass = 1; pass <= settings.passes; pass++) {
        for (const family of measured) {
          const samples = await interleaved(family.cases, {
            warmupRounds: settings.warmupRounds,
            minRounds: Math.ceil(settings.minRounds / settings.passes),
            maxRounds: Math.ceil(settings.maxRounds / settings.passes),
            seconds: settings.seconds / settings.passes,
          });
          for (const [id, values] of samples) {
            family.samples.set(id, [...(family.samples.get(id) ?? []), ...values]);
            // Each pass starts with its warm-up rounds; their CPU times are dropped as their wall times are.
            const cpu = family.cpu.get(id);
            cpu.measured.push(...cpu.pass.slice(settings.warmupRounds));
            cpu.pass = [];
          }
        }
        log(`pass ${pass} of ${settings.passes} done`);
      }
      othersLoad = othersShare(cpuAtStart, cpuSnapshot());

      for (const { family, entry, engines, samples, cpu, carboneMode, floors } of measured) {
        const timing = Object.fromEntries([...samples].map(([id, values]) => [id, summarize(values)]));
        const cpuTime = Object.fromEntries([...cpu].map(([id, { measured }]) => [id, summarize(measured)]));
        const memory = {};
        for (const [id, run] of Object.entries(engines)) {
          memory[id] = await memoryOf(run, settings.memoryRenders);
        }
        results.push({ family, entry, timing, cpuTime, memory, carboneMode, floors });
        log(
          `${family.title}: ours ${ms(timing.pool.median)} ms · Carbone ${ms(timing.carbone.median)} ms · ` +
            `floor (changed parts) ${ms(timing.changedFloor.median)} ms · ` +
            `Carbone ÷ ours ${factor(timing.carbone.median, timing.pool.median)} · ` +
            `ours ÷ floor ${factor(timing.pool.median, timing.changedFloor.median)}`,
        );
      }

      concurrency = await underConcurrency(measured[0], { settings, PizZip, log });
    } finally {
      await pool.close();
      await hopPool.destroy();
      await rm(scratch, { recursive: true, force: true });
    }

    return { markdown: report({ results, concurrency, machine, threads, settings, match, othersLoad }) };
  },
};

/** The data with the parties' names changed: other text of the same shape. */
function otherNames(data, suffix) {
  const renamed = { ...data };
  for (const [field, value] of Object.entries(data)) {
    if (/name/i.test(field) && typeof value === 'string' && value.trim())
      renamed[field] = `${value} ${suffix}`;
  }
  return renamed;
}

/**
 * A case's run that also records the CPU time the whole process (worker threads too) used during each
 * call: less disturbed by other load on the machine than wall-clock time, which waits for the core.
 */
function withCpu(id, run, cpu) {
  const record = { measured: [], pass: [] };
  cpu.set(id, record);
  return async () => {
    const start = process.cpuUsage();
    await run();
    const used = process.cpuUsage(start);
    record.pass.push((used.user + used.system) / 1000);
  };
}

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
