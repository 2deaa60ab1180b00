import { describeMachine } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { packageVersion } from '../lib/server.mjs';
import { factor, ms } from '../lib/stats.mjs';
import { carboneVersion } from '../rendering/carbone.mjs';
import { CLAUSES } from './library.mjs';

/** The rendering suite's budgets, kept with clauses: Carbone ÷ ours at least, ours ÷ changed-parts floor at most. */
const CARBONE_BUDGET = 4;
const FLOOR_BUDGET = 1.5;
/** Choosing all clauses' variants for one document. */
const RULES_BUDGET_MS = 1;
/** ClausePlacer keeps this many placed templates (apps/server/src/clauses/clause-choice.ts). */
const PLACED_CACHE = 128;

const us = (milliseconds) => (Number.isFinite(milliseconds) ? (milliseconds * 1000).toFixed(1) : '–');
const percent = (part, whole) => `${Math.round((part / whole) * 100)} %`;

const CASES = {
  clauses: 'ours with ten clauses: `place` + render, as the server',
  place: '… of it `ClausePlacer.place` (cached combination)',
  placedRender: '… of it rendering the placed template',
  mixed: 'ours with ten clauses, four deals in turn (four combinations)',
  plain: 'ours without clauses (templates/rahmenvertrag-de.docx as it is)',
  carbone: `Carbone ${carboneVersion} on the placed template`,
  changedFloor: 'floor: changed parts, with clauses',
  plainFloor: 'floor: changed parts, without clauses',
};

/** The floor each case is compared with: the same document's zip work. */
const FLOOR_OF = {
  clauses: 'changedFloor',
  placedRender: 'changedFloor',
  carbone: 'changedFloor',
  changedFloor: 'changedFloor',
  plain: 'plainFloor',
  plainFloor: 'plainFloor',
};

export function report({
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
  carboneMode,
  floors,
  sizes,
  paragraphs,
  blocksOf,
  mixed,
}) {
  const speedup = timing.carbone.median / timing.clauses.median;
  const aboveFloor = timing.clauses.median / timing.changedFloor.median;
  const meetsCarbone = speedup >= CARBONE_BUDGET;
  const meetsFloor = aboveFloor <= FLOOR_BUDGET;
  const meetsRules = rules.choose.median <= RULES_BUDGET_MS;
  const verdict = (met) => (met ? 'met' : '**missed**');
  const versions = ['docxtemplater', 'pizzip', 'piscina', 'jsep'].map(
    (name) => `${name} ${packageVersion(name)}`,
  );

  const lines = [
    '## Clauses: a contract with ten clauses',
    '',
    `Measured ${describeMachine(machine)}. Other processes used ` +
      `${Number.isFinite(othersLoad) ? `${(othersLoad * 100).toFixed(0)} %` : 'an unknown share'} of the ` +
      'CPU time during the timed passes (the higher, the noisier).',
    `Libraries: ${versions.join(', ')}, carbone ${carboneVersion}. Worker pool: ${threads} thread(s), the ` +
      'production default on this machine.',
    '',
    `**Budgets (reported, not asserted): with ten clauses at least ${CARBONE_BUDGET}× faster than Carbone — ` +
      `${verdict(meetsCarbone)} (${factor(timing.carbone.median, timing.clauses.median)}); at most ` +
      `${FLOOR_BUDGET}× the changed-parts floor — ${verdict(meetsFloor)} (${factor(timing.clauses.median, timing.changedFloor.median)}); ` +
      `choosing the clauses' variants at most ${RULES_BUDGET_MS} ms per document — ${verdict(meetsRules)} ` +
      `(${us(rules.choose.median)} µs).** Ratios of medians from this run.`,
    '',
    `### Per document (\`${deal.entry.key}\`, ${deal.match.matchId} with the customer in Zürich)`,
    '',
    table(
      ['', 'median', 'p90', 'CPU time (median)', 'Carbone ÷ this', 'this ÷ its floor (changed parts)'],
      Object.entries(CASES).map(([id, label]) => {
        const floor = FLOOR_OF[id];
        return [
          label,
          `${ms(timing[id].median)} ms`,
          `${ms(timing[id].p90)} ms`,
          `${ms(cpuTime[id].median)} ms`,
          ['place', 'mixed', 'plainFloor'].includes(id)
            ? ''
            : factor(timing.carbone.median, timing[id].median),
          floor ? factor(timing[id].median, timing[floor].median) : '',
        ];
      }),
    ),
    '',
    `With clauses ÷ without: ${factor(timing.clauses.median, timing.plain.median)} (the document has ` +
      `${paragraphs.clauses} paragraphs of clauses on top of ${paragraphs.plain}, its floor ` +
      `${factor(timing.changedFloor.median, timing.plainFloor.median)} the one without). Without clauses ÷ its ` +
      `own floor: ${factor(timing.plain.median, timing.plainFloor.median)}; Carbone ÷ ours at p10: ` +
      `${factor(timing.carbone.p10, timing.clauses.p10)}; in CPU time Carbone ÷ ours ` +
      `${factor(cpuTime.carbone.median, cpuTime.clauses.median)}, ours ÷ floor ` +
      `${factor(cpuTime.clauses.median, cpuTime.changedFloor.median)}. ` +
      `\`place\` is ${percent(timing.place.median, timing.clauses.median)} of a document with clauses. ` +
      `Above the floor a document with clauses spends ${ms(timing.clauses.median - timing.changedFloor.median)} ms: ` +
      `\`place\` ${ms(timing.place.median)} ms, and the renderer's own steps around the zip work (the data's ` +
      `shape and escaping, the layout looked up and filled) ${ms(timing.placedRender.median - timing.changedFloor.median)} ms ` +
      `(without clauses: ${ms(timing.plain.median - timing.plainFloor.median)} ms). Calls right after ` +
      `Carbone's are left out of every figure: they took ${factor(slowerAfterCarbone.clauses, 1)} (ours with ` +
      `clauses), ${factor(slowerAfterCarbone.placedRender, 1)} (the placed template rendered) and ` +
      `${factor(slowerAfterCarbone.changedFloor, 1)} (the floor) the median of the others.`,
    '',
    ...whyMissed({ timing, meetsCarbone, meetsFloor }),
    '### The first document of a combination (nothing cached)',
    '',
    table(
      ['', 'median', 'p90'],
      [
        [
          '`place` with a new ClausePlacer and a new clause version: the template’s clause keys, the rules ' +
            'compiled, the clauses placed into the template and zipped, its SHA-256',
          cold.place,
        ],
        ['… of it `placeClauses` alone (unzip, replace the ten tag paragraphs, zip)', cold.placeClauses],
        [
          'the first render of the placed template: the thread hop with its bytes, parsing, the layout, the filling',
          cold.render,
        ],
        ['together: the first document of a new combination', cold.total],
        ['for comparison: the first document of a new version of the template without clauses', cold.plain],
      ].map(([label, figures]) => [label, `${ms(figures.median)} ms`, `${ms(figures.p90)} ms`]),
    ),
    '',
    `${settings.coldSamples} samples, alternating with the template without clauses. The next document of ` +
      `the same combination costs \`place\` from its cache (${ms(timing.place.median)} ms) and a warm render. ` +
      `The first document of a new combination takes ${factor(cold.total.median, cold.plain.median)} the first ` +
      'of a new template version without clauses (the placing, and a larger template to parse and lay out).',
    '',
    '### Choosing the variants',
    '',
    table(
      ['per document', 'median', 'p90'],
      [
        [`\`dealFacts\` + the ten clauses’ variants (budget ≤ ${RULES_BUDGET_MS} ms)`, rules.choose],
        ['… of it `dealFacts` (the customer’s country from the address, rates, remote share)', rules.facts],
        ['… of it the rules (`chooseVariant` × 10, rules compiled once per version)', rules.rules],
        ['`ClausePlacer.place` as a whole, every combination placed before', rules.place],
      ].map(([label, figures]) => [label, `${us(figures.median)} µs`, `${us(figures.p90)} µs`]),
    ),
    '',
    `${rules.deals} deals (the demo matches with the customer’s ` +
      `country — ${[...rules.countries].sort().join(', ')} —, rate, place of work and hours varied, each ` +
      `with one of the catalogue’s keys of the Rahmenvertrag), ${rules.passes} timed pass(es) after one of ` +
      `warm-up. \`dealFacts\` is ${percent(rules.facts.median, rules.choose.median)} of the choice; ` +
      `\`countryOfAddress\` alone, which looks each part of the address up among the country names in German ` +
      `and English (i18n-iso-countries), takes ${us(rules.country.median)} µs (median, timed on its own). ` +
      `The deals make ${rules.combinations} combinations of variants, ` +
      `${rules.combinations <= PLACED_CACHE ? 'within' : '**more than**'} the ${PLACED_CACHE} placed templates ` +
      'ClausePlacer keeps.',
    '',
    '### The clauses',
    '',
    table(
      [
        'clause',
        'variants: rule → share of the deals',
        'paragraphs and list items (de)',
        'characters (de)',
        'timed deal',
      ],
      CLAUSES.map((clause) => {
        const counts = rules.chosen.get(clause.key);
        const share = (name) => percent(counts.get(name) ?? 0, rules.deals);
        const variants = clause.variants.map((v) => `${v.name}: \`${v.rule ?? 'immer'}\` → ${share(v.name)}`);
        if (counts.has('(left out)')) variants.push(`left out → ${share('(left out)')}`);
        const lengths = clause.variants.map((v) => v.de.length);
        const blocks = blocksOf.get(clause.key);
        return [
          `\`${clause.key}\` ${clause.name}${clause.option === 'always' ? '' : ` (${clause.option})`}`,
          variants.join(' · '),
          `${Math.min(...blocks)}–${Math.max(...blocks)}`,
          `${Math.min(...lengths)}–${Math.max(...lengths)}`,
          placed.clauses.find((c) => c.key === clause.key)?.variant ?? 'left out',
        ];
      }),
    ),
    '',
    '### How measured',
    '',
    'The template is templates/rahmenvertrag-de.docx with ten paragraphs of its style „Klausel“ holding ' +
      'only `{@klausel:<key>}`, one at the end of each of ten sections (bench/clauses/library.mjs, with the ' +
      'clauses; each passes the server’s check of a saved version). The clauses are published in memory ' +
      '(a `PublishedClauses` answering from a Map, where the server asks the database once per document). ' +
      'A document with clauses is what the server’s generation does: `ClausePlacer.place` on the deal, then ' +
      'the renderer pool (apps/server/dist, as the rendering suite uses it) on the placed template, each ' +
      'document with other names than the last; the placed template and its layout are made once before ' +
      'timing, as for every combination after its first document. *Without clauses* renders the repository’s ' +
      `template as it is with the same data. *Carbone* renders a Carbone-syntax copy of the placed template ` +
      `made as in the rendering suite (${carboneMode === 'loop' ? 'signature blocks as a Carbone loop' : 'signature blocks by index'}), ` +
      'checked to give the same text as ours paragraph for paragraph. *Floor: changed parts* zips the document ' +
      'as the rendering suite defines it: every zip entry the rendering leaves unchanged copied compressed, ' +
      `only ${floors.changed.compressed.map((name) => `\`${name}\``).join(', ')} deflated (placed template ` +
      `${Math.round(sizes.placed / 1024)} KiB, the template without clauses ${Math.round(sizes.plain / 1024)} KiB). ` +
      'All cases are interleaved in one process, every round each case once in an order shuffled per round ' +
      '(so that no case follows Carbone more often than another; a call right after Carbone’s is left out, as ' +
      'production runs no Carbone before its documents), ' +
      `in ${settings.passes} pass(es) of up to ${Math.ceil(settings.maxRounds / settings.passes)} rounds after ` +
      `${settings.warmupRounds} warm-up rounds; the four deals in turn are ${mixed
        .map(
          (m) =>
            `\`${m.entry.key}\` ${m.match.matchId} (${m.match.adresseKunde.split(/[,\n]/).at(-1).trim()})`,
        )
        .join(', ')}. CPU time is ` +
      '`process.cpuUsage()` around each call (all threads of the process). The first document of a combination ' +
      'is timed with a new ClausePlacer and a new version of one clause, so that nothing is cached and the ' +
      'renderer gets bytes it has not parsed. Choosing the variants times `dealFacts` and `chooseVariant` of ' +
      'apps/server/dist per document with `performance.now()`.',
  ];
  return lines.join('\n');
}

/** Where the time of a document with clauses goes when a rendering budget is missed, from the figures. */
function whyMissed({ timing, meetsCarbone, meetsFloor }) {
  if (meetsCarbone && meetsFloor) return [];
  const budget = Math.min(timing.carbone.median / CARBONE_BUDGET, timing.changedFloor.median * FLOOR_BUDGET);
  const overPlaced = timing.clauses.median - timing.placedRender.median;
  return [
    `Missed: ours with clauses takes ${ms(timing.clauses.median)} ms against a budget of ${ms(budget)} ms ` +
      `(Carbone ÷ ${CARBONE_BUDGET} and the floor × ${FLOOR_BUDGET}, whichever is lower). Rendering the placed ` +
      `template alone takes ${ms(timing.placedRender.median)} ms (${factor(timing.placedRender.median, timing.changedFloor.median)} ` +
      `the floor), \`place\` ${ms(timing.place.median)} ms; the document with \`place\` in front is ` +
      `${ms(overPlaced)} ms slower than the placed template rendered alone.`,
    '',
  ];
}
