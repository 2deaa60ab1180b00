import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot, othersShare } from '../lib/machine.mjs';
import { importServer, root, serverRequire } from '../lib/server.mjs';
import { factor, ms, summarize } from '../lib/stats.mjs';
import { carboneTemplate, renderWithCarbone } from '../rendering/carbone.mjs';
import { documentText, firstDifference } from '../rendering/docx-text.mjs';
import { changedPartsFloor } from '../rendering/floors.mjs';
import {
  CLAUSES,
  dealsFor,
  PublishedClausesInMemory,
  publishedLibrary,
  templateWithClauseTags,
} from './library.mjs';
import { report } from './report.mjs';

/**
 * Clauses: a Rahmenvertrag with ten clauses, each document through the server's path — `ClausePlacer.place`
 * (rules on the deal, the placed template from its cache) and the renderer pool as the rendering suite uses
 * it — against the same template without clauses, Carbone on the placed template and the changed-parts
 * floor; the first document of a new combination; and choosing the clauses' variants for many deals.
 */

const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');

const FULL = {
  passes: 3,
  warmupRounds: 10,
  minRounds: 90,
  maxRounds: 600,
  seconds: 45,
  coldSamples: 20,
  deals: 5000,
  rulePasses: 3,
};
const QUICK = {
  passes: 1,
  warmupRounds: 3,
  minRounds: 5,
  maxRounds: 10,
  seconds: 2,
  coldSamples: 3,
  deals: 300,
  rulePasses: 1,
};

const TEMPLATE = 'rahmenvertrag-de.docx';
/** The key the rendering suite measures this template with: German contract, WM, customer. */
const KEY = 'docx-de-wm-rv';
/** The timed deal's customer: Swiss, so that the rules choose variants other than the last. */
const SWISS_ADDRESS = 'Bahnhofstrasse 10, 8001 Zürich, Schweiz';

export default {
  name: 'clauses',
  title: 'Clauses: a contract with ten clauses',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const { CATALOGUE, resolveMatch } = await import('@vertragsgenerator/domain');
    const { createRendererPool } = await importServer('templates/renderer.js');
    // Imported before any zip is written: it gives pizzip node:zlib's deflate, as in the server.
    const { compileTemplate } = await importServer('templates/docx-template.js');
    const { loadCompanyData } = await importServer('templates/companies.js');
    const { richestDemoMatch, sampleTemplateData } = await importServer('templates/samples.js');
    const docxZip = await importServer('templates/docx-zip.js');
    const { ClausePlacer, chooseVariant, variantRules } = await importServer('clauses/clause-choice.js');
    const { placeClauses } = await importServer('clauses/clause-placement.js');
    const { parseClauseMarkup } = await importServer('clauses/clause-markup.js');
    const { countryOfAddress, dealFacts } = await importServer('clauses/deal-facts.js');
    const { lintClauseContent } = await importServer('clauses/clause-lint.js');
    const { parseMatchFile } = await importServer('matches/import.js');
    const { defaultRenderThreads } = await importServer('config/config.js');
    const PizZip = serverRequire('pizzip');

    // The clauses must be publishable as they stand: the server's own check of a saved version.
    for (const clause of CLAUSES) {
      const problems = lintClauseContent({ option: clause.option, variants: clause.variants });
      if (problems.length > 0) throw new Error(`clause ${clause.key}: ${JSON.stringify(problems)}`);
    }

    const companyData = await loadCompanyData(join(root, 'config'));
    const richest = await richestDemoMatch(join(root, 'config/demo-matches.json'));
    const today = new Date();
    const entry = CATALOGUE.get(KEY);
    if (entry?.template !== TEMPLATE) throw new Error(`${KEY} is not a key of ${TEMPLATE}`);
    const source = (content, version = 1) => ({
      name: TEMPLATE,
      version,
      sha256: sha256Hex(content),
      content,
    });
    const plainBytes = await readFile(join(root, 'templates', TEMPLATE));
    const plain = source(plainBytes);
    const tagged = source(templateWithClauseTags(PizZip, plainBytes));

    const threads = Number(process.env.RENDER_THREADS) || defaultRenderThreads(availableParallelism());
    const pool = createRendererPool({ threads });
    const placer = new ClausePlacer(new PublishedClausesInMemory(publishedLibrary()));
    const keys = placer.keysOfTemplate(tagged);
    if (keys.join() !== CLAUSES.map((clause) => clause.key).join())
      throw new Error(`the template places ${keys.join(', ')}, not the ten clauses`);

    const deal = { entry, match: { ...richest, adresseKunde: SWISS_ADDRESS } };
    const data = sampleTemplateData(entry, deal.match, companyData, today);
    const sameShape = [data, otherNames(data, 'B'), otherNames(data, 'C')];
    const scratch = await mkdtemp(join(tmpdir(), 'bench-clauses-'));

    try {
      // What the server renders for the timed deal, checked before anything is timed.
      const placed = await placer.place(tagged, entry, deal.match);
      if (placed.clauses.length !== CLAUSES.length)
        throw new Error(`the timed deal gets ${placed.clauses.length} clauses, not ${CLAUSES.length}`);
      const production = (await pool.render(placed.template, data)).content;
      const plainProduction = (await pool.render(plain, data)).content;
      const expected = documentText(PizZip, production);
      const blocks = placed.clauses.reduce((sum, chosen) => {
        const clause = CLAUSES.find((c) => c.key === chosen.key);
        const variant = clause.variants.find((v) => v.name === chosen.variant);
        return sum + parseClauseMarkup(variant.de).length;
      }, 0);
      const plainParagraphs = documentText(PizZip, plainProduction).length;
      if (expected.some((paragraph) => paragraph.includes('{')))
        throw new Error('the document with clauses keeps a tag or placeholder');
      if (expected.length !== plainParagraphs + blocks)
        throw new Error(
          `the document with clauses has ${expected.length} paragraphs, not ${plainParagraphs} + ${blocks} of its clauses`,
        );
      if (!expected.some((paragraph) => paragraph.includes(`${data.partnerName} stellt dort`)))
        throw new Error('the clauses’ placeholders are not filled with the deal’s values');

      const carbone = await carboneCopy({
        compileTemplate,
        PizZip,
        bytes: placed.template.content,
        data,
        expected,
        scratch,
      });
      const changedFloor = changedPartsFloor({
        docxZip,
        PizZip,
        bytes: placed.template.content,
        rendered: production,
      });
      const problem = firstDifference(expected, documentText(PizZip, changedFloor.run()));
      if (problem) throw new Error(`the changed-parts floor writes other text: ${problem}`);
      const plainFloor = changedPartsFloor({
        docxZip,
        PizZip,
        bytes: plain.content,
        rendered: plainProduction,
      });

      // Four deals in turn, each with its own combination of variants (placed and laid out once before timing).
      const mixed = await mixedDeals({ CATALOGUE, richest, resolveMatch, parseMatchFile });
      const signatures = new Set();
      for (const other of mixed) {
        const choice = await placer.place(tagged, other.entry, other.match);
        signatures.add(choice.clauses.map((c) => `${c.key}:${c.variant}`).join('|'));
        other.data = sampleTemplateData(other.entry, other.match, companyData, today);
        await pool.render(choice.template, other.data);
      }
      if (signatures.size !== mixed.length) throw new Error('the mixed deals do not differ in their clauses');

      let next = 0;
      let nextPlain = 0;
      let nextDeal = 0;
      const cases = {
        clauses: async () => {
          const { template } = await placer.place(tagged, entry, deal.match);
          return pool.render(template, sameShape[next++ % sameShape.length]);
        },
        place: () => placer.place(tagged, entry, deal.match),
        placedRender: () => pool.render(placed.template, sameShape[next++ % sameShape.length]),
        plain: () => pool.render(plain, sameShape[nextPlain++ % sameShape.length]),
        mixed: async () => {
          const other = mixed[nextDeal++ % mixed.length];
          const { template } = await placer.place(tagged, other.entry, other.match);
          return pool.render(template, other.data);
        },
        carbone: () => renderWithCarbone(carbone.file, data),
        changedFloor: changedFloor.run,
        plainFloor: plainFloor.run,
      };
      log(
        `templates/${TEMPLATE} with ten clause tags; the timed deal (${KEY}, ${deal.match.matchId}, customer in ` +
          `Zürich) gets ${placed.clauses.map((c) => `${c.key}: ${c.variant}`).join(', ')}`,
      );

      // Warm documents: every case once per round in a shuffled order, passes spread over the run.
      const rounds = {
        samples: new Map(),
        cpu: new Map(),
        afterCarbone: new Map(),
        random: randomOf(20261207),
      };
      const cpuAtStart = cpuSnapshot();
      for (let pass = 1; pass <= settings.passes; pass++) {
        await shuffledRounds(cases, rounds, {
          warmupRounds: settings.warmupRounds,
          minRounds: Math.ceil(settings.minRounds / settings.passes),
          maxRounds: Math.ceil(settings.maxRounds / settings.passes),
          seconds: settings.seconds / settings.passes,
        });
        log(`pass ${pass} of ${settings.passes} done`);
      }
      const othersLoad = othersShare(cpuAtStart, cpuSnapshot());
      const { samples, cpu, afterCarbone } = rounds;
      const timing = Object.fromEntries([...samples].map(([id, values]) => [id, summarize(values)]));
      const cpuTime = Object.fromEntries([...cpu].map(([id, values]) => [id, summarize(values)]));
      const slowerAfterCarbone = Object.fromEntries(
        [...afterCarbone].map(([id, values]) => [id, summarize(values).median / timing[id].median]),
      );
      log(
        `with clauses ${ms(timing.clauses.median)} ms · without ${ms(timing.plain.median)} ms · Carbone ` +
          `${ms(timing.carbone.median)} ms · floor ${ms(timing.changedFloor.median)} ms · Carbone ÷ ours ` +
          `${factor(timing.carbone.median, timing.clauses.median)} · ours ÷ floor ` +
          `${factor(timing.clauses.median, timing.changedFloor.median)}`,
      );

      const cold = await firstDocuments({
        settings,
        ClausePlacer,
        placeClauses,
        PizZip,
        pool,
        tagged,
        plainBytes,
        source,
        deal,
        data,
        placed,
      });
      log(
        `first document of a combination: place ${ms(cold.place.median)} ms + render ` +
          `${ms(cold.render.median)} ms; a new template version without clauses ${ms(cold.plain.median)} ms`,
      );

      const rules = await ruleEvaluation({
        settings,
        CATALOGUE,
        resolveMatch,
        parseMatchFile,
        ClausePlacer,
        chooseVariant,
        variantRules,
        dealFacts,
        countryOfAddress,
        tagged,
      });
      log(
        `rules: ${ms(rules.choose.median * 1000)} µs per document (dealFacts ${ms(rules.facts.median * 1000)} µs), ` +
          `${rules.combinations} combinations over ${rules.deals} deals`,
      );

      return {
        markdown: report({
          machine,
          othersLoad,
          settings,
          threads,
          timing,
          cpuTime,
          slowerAfterCarbone,
          cold,
          rules,
          deal,
          placed,
          carboneMode: carbone.mode,
          floors: { changed: changedFloor, plain: plainFloor },
          sizes: { plain: plain.content.byteLength, placed: placed.template.content.byteLength },
          paragraphs: { plain: plainParagraphs, clauses: blocks },
          blocksOf: new Map(
            CLAUSES.map((clause) => [clause.key, clause.variants.map((v) => parseClauseMarkup(v.de).length)]),
          ),
          mixed,
        }),
      };
    } finally {
      await pool.close();
      await rm(scratch, { recursive: true, force: true });
    }
  },
};

/** The data with the parties' names changed: other text of the same shape (as the rendering suite does). */
function otherNames(data, suffix) {
  const renamed = { ...data };
  for (const [field, value] of Object.entries(data)) {
    if (/name/i.test(field) && typeof value === 'string' && value.trim())
      renamed[field] = `${value} ${suffix}`;
  }
  return renamed;
}

/**
 * Runs every case once per round, in an order shuffled per round, after `warmupRounds` untimed rounds; stops
 * after `maxRounds`, or once `seconds` have passed and `minRounds` are done. Records per call the wall-clock
 * time and the CPU time of the whole process (worker threads too). A call right after Carbone's is kept
 * apart: Carbone leaves the caches cold and garbage to collect, which production, running no Carbone, never
 * has; with the order shuffled no case follows it more often than another.
 */
async function shuffledRounds(cases, rounds, { warmupRounds, minRounds, maxRounds, seconds }) {
  const entries = Object.entries(cases);
  const order = () => {
    const shuffled = [...entries];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rounds.random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    return shuffled;
  };
  for (let round = 0; round < warmupRounds; round++) {
    for (const [, run] of order()) await run();
  }
  const add = (map, id, value) => {
    const values = map.get(id);
    if (values) values.push(value);
    else map.set(id, [value]);
  };
  let previous;
  const started = performance.now();
  for (let round = 0; round < maxRounds; round++) {
    if (round >= minRounds && performance.now() - started > seconds * 1000) break;
    for (const [id, run] of order()) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      await run();
      const took = performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      if (previous === 'carbone') add(rounds.afterCarbone, id, took);
      else {
        add(rounds.samples, id, took);
        add(rounds.cpu, id, (cpu.user + cpu.system) / 1000);
      }
      previous = id;
    }
  }
}

/** mulberry32: a seeded random number in [0, 1), so that runs shuffle alike. */
function randomOf(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * The Carbone copy of the placed template (bench/rendering/carbone.mjs), checked to render the same text
 * as ours paragraph for paragraph before anything is timed.
 */
async function carboneCopy({ compileTemplate, PizZip, bytes, data, expected, scratch }) {
  const problems = [];
  for (const mode of ['loop', 'fixed']) {
    const file = join(scratch, `clauses-${mode}.docx`);
    await writeFile(file, carboneTemplate(compileTemplate, bytes, data, mode));
    const differs = firstDifference(expected, documentText(PizZip, await renderWithCarbone(file, data)));
    if (!differs) return { file, mode };
    problems.push(`${mode}: ${differs}`);
  }
  throw new Error(`no Carbone copy renders the same text as ours (${problems.join('; ')})`);
}

/** The timed deal and three others, each of which the rules give another combination of variants. */
async function mixedDeals({ CATALOGUE, richest, resolveMatch, parseMatchFile }) {
  const { valid } = parseMatchFile(await readFile(join(root, 'config/demo-matches.json'), 'utf8'));
  const third = resolveMatch(valid[2]);
  return [
    { entry: CATALOGUE.get(KEY), match: { ...richest, adresseKunde: SWISS_ADDRESS } },
    { entry: CATALOGUE.get(KEY), match: { ...richest, vk: 135, einsatzort: 'remote' } },
    {
      entry: CATALOGUE.get('de-wm-pp-rv'),
      match: {
        ...richest,
        adresseKunde: 'Kärntner Ring 5, 1010 Wien, Österreich',
        einsatzort: '50 % remote',
      },
    },
    { entry: CATALOGUE.get('de-we-pp-rv'), match: third },
  ];
}

/**
 * The first document of a combination nobody rendered before, as after a clause is published: a new
 * ClausePlacer (nothing cached: template keys, compiled rules, placed templates) with a new version of one
 * clause, so that the placed template has new bytes and the renderer parses and lays it out in its thread.
 * Beside it, alternately, the first document of a new version of the template without clauses.
 */
async function firstDocuments({
  settings,
  ClausePlacer,
  placeClauses,
  PizZip,
  pool,
  tagged,
  plainBytes,
  source,
  deal,
  data,
  placed,
}) {
  const place = [];
  const render = [];
  const total = [];
  const plain = [];
  const placeClausesAlone = [];
  const texts = new Map(
    placed.clauses.map((chosen) => {
      const clause = CLAUSES.find((c) => c.key === chosen.key);
      return [chosen.key, clause.variants.find((v) => v.name === chosen.variant).de];
    }),
  );
  for (let sample = 0; sample < settings.coldSamples; sample++) {
    const version = sample + 2;
    const days = `${10 + version} Arbeitstagen`;
    const library = publishedLibrary(
      CLAUSES.map((clause) =>
        clause.key === 'aenderungsverfahren'
          ? {
              ...clause,
              variants: clause.variants.map((v) => ({ ...v, de: v.de.replace('zehn Arbeitstagen', days) })),
            }
          : clause,
      ),
      version,
    );
    const newPlain = source(newTemplateVersion(PizZip, plainBytes, version), version);

    const runClauses = async () => {
      const fresh = new ClausePlacer(new PublishedClausesInMemory(library));
      const started = performance.now();
      const first = await fresh.place(tagged, deal.entry, deal.match);
      const placedAt = performance.now();
      await pool.render(first.template, data);
      const done = performance.now();
      place.push(placedAt - started);
      render.push(done - placedAt);
      total.push(done - started);
    };
    const runPlain = async () => {
      const started = performance.now();
      await pool.render(newPlain, data);
      plain.push(performance.now() - started);
    };
    if (sample % 2 === 0) {
      await runClauses();
      await runPlain();
    } else {
      await runPlain();
      await runClauses();
    }
    const started = performance.now();
    placeClauses(tagged.content, texts);
    placeClausesAlone.push(performance.now() - started);
  }
  return {
    place: summarize(place),
    render: summarize(render),
    total: summarize(total),
    plain: summarize(plain),
    placeClauses: summarize(placeClausesAlone),
  };
}

/** The template without clauses with one word changed: a new version the renderer has not seen. */
function newTemplateVersion(PizZip, bytes, version) {
  const zip = new PizZip(bytes);
  const xml = zip.file('word/document.xml').asText();
  zip.file('word/document.xml', xml.replace('>Präambel<', `>Präambel (${version})<`));
  return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
}

/**
 * Choosing the ten clauses' variants for many deals, as `ClausePlacer.place` does per document: the deal's
 * facts (`dealFacts`), then each clause's first variant whose rule holds (`chooseVariant` with the rules
 * compiled once per clause version). Then `place` itself over the same deals, every combination placed before.
 */
async function ruleEvaluation({
  settings,
  CATALOGUE,
  resolveMatch,
  parseMatchFile,
  ClausePlacer,
  chooseVariant,
  variantRules,
  dealFacts,
  countryOfAddress,
  tagged,
}) {
  const { valid } = parseMatchFile(await readFile(join(root, 'config/demo-matches.json'), 'utf8'));
  const entries = [...CATALOGUE.values()].filter((entry) => entry.template === TEMPLATE);
  const deals = dealsFor({ count: settings.deals, matches: valid.map(resolveMatch), entries });
  const library = publishedLibrary();
  const clauses = [...library.values()];
  const compiled = clauses.map((clause) => variantRules(clause.content));

  const facts = [];
  const choose = [];
  const rules = [];
  const country = [];
  const combinations = new Map();
  const chosen = new Map(clauses.map((clause) => [clause.key, new Map()]));
  for (let pass = 0; pass <= settings.rulePasses; pass++) {
    const warmup = pass === 0;
    for (const { entry, match } of deals) {
      const started = performance.now();
      const dealFactsOf = dealFacts(entry, match);
      const factsAt = performance.now();
      const choices = [];
      for (let i = 0; i < clauses.length; i++) {
        choices.push(chooseVariant(clauses[i], dealFactsOf, undefined, compiled[i]).choice);
      }
      const done = performance.now();
      if (warmup) {
        const signature = choices.map((choice) => choice.chosen?.variant ?? '-').join('|');
        combinations.set(signature, (combinations.get(signature) ?? 0) + 1);
        for (const choice of choices) {
          const counts = chosen.get(choice.key);
          const name = choice.chosen?.variant ?? '(left out)';
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
        continue;
      }
      facts.push(factsAt - started);
      rules.push(done - factsAt);
      choose.push(done - started);
      // The part of dealFacts that reads the customer's country from the address, timed on its own.
      const address = String(match.adresseKunde ?? '');
      const countryStarted = performance.now();
      countryOfAddress(address);
      country.push(performance.now() - countryStarted);
    }
  }

  // The whole of `place` per document (published clauses looked up, choice, the placed template from the
  // cache), every combination placed in the first pass.
  const placer = new ClausePlacer(new PublishedClausesInMemory(library));
  const place = [];
  for (let pass = 0; pass <= 1; pass++) {
    for (const { entry, match } of deals) {
      const started = performance.now();
      await placer.place(tagged, entry, match);
      if (pass === 1) place.push(performance.now() - started);
    }
  }

  return {
    deals: deals.length,
    passes: settings.rulePasses,
    combinations: combinations.size,
    chosen,
    facts: summarize(facts),
    country: summarize(country),
    rules: summarize(rules),
    choose: summarize(choose),
    place: summarize(place),
    countries: new Set(deals.map((d) => dealFacts(d.entry, d.match).land)),
  };
}
