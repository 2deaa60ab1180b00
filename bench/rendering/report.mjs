import { describeMachine } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { packageVersion } from '../lib/server.mjs';
import { factor, mb, ms } from '../lib/stats.mjs';
import { carboneVersion } from './carbone.mjs';

export const ENGINES = {
  pool: 'ours: worker pool (production)',
  newShape: 'ours: a new shape, in-process (layout + fill)',
  carbone: `Carbone ${carboneVersion}`,
  changedFloor: 'floor: changed parts only',
  floor: 'floor: unzip + rezip',
};

/** Carbone ÷ ours, per family: the least ours must be faster. */
const CARBONE_BUDGET = 4;
/** Ours ÷ the changed-parts floor, per family: the most ours may take beyond the zip work. */
const FLOOR_BUDGET = 1.5;

const speedup = ({ timing }) => timing.carbone.median / timing.pool.median;
const aboveFloor = ({ timing }) => timing.pool.median / timing.changedFloor.median;
const meetsCarbone = (result) => speedup(result) >= CARBONE_BUDGET;
const meetsFloor = (result) => aboveFloor(result) <= FLOOR_BUDGET;

/**
 * Where each family's time goes and, from the same figures, why a budget is met or missed: written
 * from the measurements, so that the text cannot go stale when the renderer changes.
 */
function whereTheTimeGoes(results) {
  const lines = [
    '### Where the time goes',
    '',
    'The renderer fills a layout per template version and shape of the data (apps/server/src/templates/' +
      'document-layout.ts): a render thread lays out a new shape once — docxtemplater fills its parsed ' +
      'template with marks in place of the text, and the parts are cut at the marks —, and every document ' +
      'of a shape seen before is that layout with the data’s text put in, escaped, and zipped in the ' +
      'calling thread, with every part the rendering left unchanged copied compressed as it is from the ' +
      'template and only the changed ones deflated (docx-zip.ts). Ours (pool) is such a document, each with ' +
      'other names than the last. "Filling" is `fillLayout` alone on a prepared layout; "a new shape" is ' +
      'the render thread’s work for a shape it has not seen (`renderDocument`) in this thread, then the ' +
      'filling, and "docxtemplater" its part of that (`fillParsed`); "thread hop" is the round trip of a ' +
      'piscina task that does nothing but take the same data and answer as many bytes as the document has ' +
      '(bench/rendering/hop-worker.mjs), which a new shape pays on top. "Budget" is the slowest median ours ' +
      `may have: Carbone ÷ ${CARBONE_BUDGET} and the changed-parts floor × ${FLOOR_BUDGET}, whichever is lower.`,
    '',
    table(
      [
        'family',
        'ours (pool)',
        'budget',
        'filling',
        'a new shape',
        'of it docxtemplater',
        'thread hop',
        'floor: changed parts',
        'floor: unzip + rezip',
      ],
      results.map(({ family, timing }) => [
        family.title,
        `${ms(timing.pool.median)} ms`,
        `${ms(budgetOf(timing))} ms`,
        `${ms(timing.fillLayout.median)} ms`,
        `${ms(timing.newShape.median)} ms`,
        `${ms(timing.fill.median)} ms`,
        `${ms(timing.hop.median)} ms`,
        `${ms(timing.changedFloor.median)} ms`,
        `${ms(timing.floor.median)} ms`,
      ]),
    ),
    '',
    'The same, as CPU time of the whole process (worker threads too) during each call, median per document: ' +
      'less disturbed by other load on the machine than the wall-clock times, which include waiting for a core.',
    '',
    table(
      [
        'family',
        'ours (pool)',
        'filling',
        'a new shape',
        'Carbone',
        'floor: changed parts',
        'floor: unzip + rezip',
        'Carbone ÷ ours',
        'ours ÷ floor (changed parts)',
      ],
      results.map(({ family, cpuTime }) => [
        family.title,
        `${ms(cpuTime.pool.median)} ms`,
        `${ms(cpuTime.fillLayout.median)} ms`,
        `${ms(cpuTime.newShape.median)} ms`,
        `${ms(cpuTime.carbone.median)} ms`,
        `${ms(cpuTime.changedFloor.median)} ms`,
        `${ms(cpuTime.floor.median)} ms`,
        factor(cpuTime.carbone.median, cpuTime.pool.median),
        factor(cpuTime.pool.median, cpuTime.changedFloor.median),
      ]),
    ),
    '',
  ];

  const missed = results.filter((r) => !meetsCarbone(r) || !meetsFloor(r));
  if (missed.length === 0) {
    const tightest = [...results].sort((a, b) => speedup(a) - speedup(b))[0];
    const closest = [...results].sort((a, b) => aboveFloor(b) - aboveFloor(a))[0];
    const p10Misses = results.filter((r) => r.timing.carbone.p10 / r.timing.pool.p10 < CARBONE_BUDGET);
    lines.push(
      `Every family meets both budgets in this run. The tightest against Carbone is ${tightest.family.title} ` +
        `at ${factor(tightest.timing.carbone.median, tightest.timing.pool.median)}; the closest to the floor ` +
        `is ${closest.family.title} at ${factor(closest.timing.pool.median, closest.timing.changedFloor.median)}.` +
        (p10Misses.length > 0
          ? ` Compared at p10, ${p10Misses.map((r) => r.family.title).join(', ')} ` +
            `${p10Misses.length === 1 ? 'stays' : 'stay'} under ${CARBONE_BUDGET}×, so the margin there is thin.`
          : ` At p10, too, every family is at least ${CARBONE_BUDGET}× faster than Carbone.`),
    );
  }
  for (const { family, timing } of missed) {
    const budget = budgetOf(timing);
    const cause =
      timing.changedFloor.median >= budget
        ? `the changed-parts floor alone takes ${ms(timing.changedFloor.median)} ms`
        : timing.fillLayout.median > budget
          ? `filling the layout alone takes ${ms(timing.fillLayout.median)} ms against ` +
            `${ms(timing.changedFloor.median)} ms for the floor's zip work`
          : `filling the layout takes ${ms(timing.fillLayout.median)} ms; the other ` +
            `${ms(timing.pool.median - timing.fillLayout.median)} ms are the renderer's own steps around it ` +
            '(the shape of the data, the layout looked up)';
    lines.push(
      `- ${family.title} misses: ours ${ms(timing.pool.median)} ms against a budget of ${ms(budget)} ms ` +
        `(Carbone ÷ ours ${factor(timing.carbone.median, timing.pool.median)}, ours ÷ floor ` +
        `${factor(timing.pool.median, timing.changedFloor.median)}); ${cause}.`,
    );
  }
  return lines;
}

const budgetOf = (timing) =>
  Math.min(timing.carbone.median / CARBONE_BUDGET, timing.changedFloor.median * FLOOR_BUDGET);

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
    'Ours fills the layout of a known shape in the calling thread and lays out new shapes in the worker ' +
      `pool's ${threads} thread(s). ${change('ours', one.pool, most.pool, most.concurrency)} Carbone renders ` +
      'in the main thread: parallel calls only interleave at its awaits (file reads, callbacks) on one ' +
      'event loop, never on more than one core, and that thread serves nothing else while it works. ' +
      `${change('Carbone', one.carbone, most.carbone, most.concurrency)} Before timing, ` +
      `${most.concurrency} renders at once of each engine were checked to give the same text as one alone; ` +
      `${settings.concurrencySeconds} s per engine and level, in ${settings.passes} pass(es) that alternate ` +
      'which engine goes first.',
  ];
}

export function report({ results, concurrency, machine, threads, settings, match, othersLoad }) {
  const verdict = (meets) => {
    const met = results.filter(meets);
    if (met.length === results.length) return 'met for every family';
    if (met.length === 0) return 'missed for every family';
    const missed = results.filter((r) => !meets(r)).map((r) => r.family.title);
    return `met for ${met.length} of ${results.length} families, missed for ${missed.join(', ')}`;
  };
  const versions = ['docxtemplater', 'pizzip', 'piscina'].map((name) => `${name} ${packageVersion(name)}`);
  const lines = [
    '## Rendering: our renderer, Carbone and the floors',
    '',
    `Measured ${describeMachine(machine)}. Other processes used ` +
      `${Number.isFinite(othersLoad) ? `${(othersLoad * 100).toFixed(0)} %` : 'an unknown share'} of the ` +
      'CPU time during the timed passes (the higher, the noisier).',
    `Libraries: ${versions.join(', ')}, carbone ${carboneVersion}. Worker pool: ${threads} thread(s), ` +
      `the production default on this machine. Demo match ${match.matchId} (config/demo-matches.json).`,
    '',
    `**Budgets: at least ${CARBONE_BUDGET}× faster than Carbone per document — ${verdict(meetsCarbone)}; ` +
      `at most ${FLOOR_BUDGET}× the changed-parts floor — ${verdict(meetsFloor)}** (ours = the worker pool, ` +
      'as production renders; ratios of medians, "same at p10" compares the fastest tenth of each, the ' +
      'least disturbed by other load).',
    '',
    '### Summary (median per document)',
    '',
    table(
      [
        'family',
        'key',
        'ours (pool)',
        'Carbone',
        'floor: changed parts',
        'floor: unzip + rezip',
        'Carbone ÷ ours',
        'same at p10',
        'ours ÷ floor (changed parts)',
        'ours ÷ floor (unzip + rezip)',
        'budgets met',
      ],
      results.map((result) => {
        const { family, timing } = result;
        return [
          family.title,
          `\`${family.key}\``,
          `${ms(timing.pool.median)} ms`,
          `${ms(timing.carbone.median)} ms`,
          `${ms(timing.changedFloor.median)} ms`,
          `${ms(timing.floor.median)} ms`,
          factor(timing.carbone.median, timing.pool.median),
          factor(timing.carbone.p10, timing.pool.p10),
          factor(timing.pool.median, timing.changedFloor.median),
          factor(timing.pool.median, timing.floor.median),
          meetsCarbone(result) && meetsFloor(result) ? 'yes' : '**no**',
        ];
      }),
    ),
    '',
    ...whereTheTimeGoes(results),
    ...concurrencySection(concurrency, threads, settings),
  ];

  for (const { family, entry, timing, carboneMode, floors } of results) {
    lines.push(
      '',
      `### ${family.title}: \`${family.key}\` (templates/${entry.template})`,
      '',
      table(
        ['engine', 'median', 'p10 – p90', 'runs', 'Carbone ÷ this', 'this ÷ floor (changed parts)'],
        Object.entries(ENGINES).map(([id, label]) => [
          label,
          `${ms(timing[id].median)} ms`,
          `${ms(timing[id].p10)} – ${ms(timing[id].p90)} ms`,
          String(timing[id].n),
          factor(timing.carbone.median, timing[id].median),
          factor(timing[id].median, timing.changedFloor.median),
        ]),
      ),
      '',
      `Carbone template: ${carboneMode === 'loop' ? 'signature blocks as a Carbone loop' : 'signature blocks by index'}; ` +
        `changed-parts floor deflates ${floors.changed.length} of ${floors.parts} zip entries ` +
        `(${floors.changed.map((name) => `\`${name}\``).join(', ')}); unzip + rezip rewrites ` +
        `${floors.rewritten.length}, as pizzip did when it zipped our documents.`,
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
      'apps/server/dist, warm as in production (the template version named by its SHA-256 and its data’s ' +
      'shape laid out once by a render thread, each document filled from that layout with other names ' +
      'than the last); *a new shape* is the render thread’s function (`renderDocument`: the parsed template, ' +
      'kept per version, filled with marks and cut) called in the main thread, then the filling, without ' +
      'the hop to the thread and back. *Carbone* runs in the main thread (no thread hop: its best case) on a Carbone-syntax ' +
      'copy of the same template, made at bench time by rendering our template with docxtemplater where ' +
      'each text field’s value is its Carbone tag `{d.field}` and each section condition has its real ' +
      'value for the key. The sections are thus pre-resolved exactly as ours resolves them, and Carbone ' +
      'does less template logic than we do (no conditions); it still reads and unzips the template, ' +
      'finds and fills every tag with XML escaping, repeats the signature blocks itself ' +
      '(`[i]`/`[i+1]` loop) and zips. Before timing, Carbone’s output must have the same text as ours, ' +
      'paragraph for paragraph, in body, header and footer, and so must the new shape’s. *Docxtemplater* fills ' +
      'the same parsed template with the data in the main thread without zipping it (`fillParsed`). ' +
      '*Floor: changed parts only* writes the ' +
      'template’s zip with every entry the rendering leaves unchanged copied compressed as it is, and deflates ' +
      'only `word/document.xml` and the parts whose bytes differ from the template’s (taken from a finished ' +
      'document before timing; zlib’s default level and the server’s zip writer, as ours): the zip work any ' +
      'renderer pays that writes these parts. Its output must have the same text as ours. *Floor: unzip + ' +
      'rezip*: PizZip loads the template, reads and writes back unchanged the entries pizzip rewrote when it ' +
      'zipped our documents, and zips with DEFLATE (node:zlib, the server’s pizzip patched by ' +
      'docx-template.js; the run stops if it is not). Ratios are of medians from the same run. ' +
      'CPU time is `process.cpuUsage()` before and after each timed call, so it counts every thread of the ' +
      'process (the worker thread of ours (pool), libuv’s threads for Carbone’s file reads) but not the time ' +
      'a call waits for a core or for the disk.',
  );
  return lines.join('\n');
}
