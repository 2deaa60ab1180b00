// `npm run bench`: builds, then runs the benchmark suites and rewrites their sections of
// docs/performance.md. `node --expose-gc bench/run.mjs` alone runs against the last build.
import { join } from 'node:path';
import { describeMachine, machineInfo } from './lib/machine.mjs';
import { writeSection } from './lib/markdown.mjs';
import { root } from './lib/server.mjs';
import { START_ENVIRONMENT } from './lib/server-process.mjs';

/** Each suite: `{ name, title, run({ quick, machine, log }) → { markdown } }`, its own section. */
const SUITES = {
  rendering: () => import('./rendering/suite.mjs'),
  http: () => import('./http/suite.mjs'),
  start: () => import('./start/suite.mjs'),
  soak: () => import('./soak/suite.mjs'),
  size: () => import('./size/suite.mjs'),
  browser: () => import('./browser/suite.mjs'),
  lighthouse: () => import('./lighthouse/suite.mjs'),
  overview: () => import('./overview/suite.mjs'),
  approvals: () => import('./approvals/suite.mjs'),
  retention: () => import('./retention/suite.mjs'),
  figures: () => import('./figures/suite.mjs'),
  contracts: () => import('./contracts/suite.mjs'),
  batches: () => import('./batches/suite.mjs'),
  reviews: () => import('./reviews/suite.mjs'),
  clauses: () => import('./clauses/suite.mjs'),
};
/** Run only when named: the soak takes 35 minutes (30 of load on both databases at once). */
const OPT_IN = ['soak'];
const DEFAULT_SUITES = Object.keys(SUITES).filter((name) => !OPT_IN.includes(name));

const USAGE = `Usage: npm run bench [-- [suite ...] [--quick]]
  suites:   ${Object.keys(SUITES).join(', ')} (default: ${DEFAULT_SUITES.join(', ')})
            soak runs only when named: 30 minutes of a day's flows, both databases at once
            (1 minute with --quick; SOAK_MINUTES=n sets another length)
  --quick   a few rounds only, to try the benchmark out; docs/performance.md is left alone`;

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const unknownOption = args.find((arg) => arg.startsWith('-') && arg !== '--quick');
const names = args.filter((arg) => !arg.startsWith('-'));
const unknownSuite = names.find((name) => !(name in SUITES));
if (args.includes('--help') || unknownOption || unknownSuite) {
  console.error(USAGE);
  process.exit(args.includes('--help') ? 0 : 2);
}

const machine = machineInfo();
const documentFile = join(root, 'docs/performance.md');
console.log(`Benchmark on ${describeMachine(machine)}`);
if (typeof globalThis.gc !== 'function') console.log('(no memory figures: run node with --expose-gc)');
// The suites that run the server inside this process get the C allocator's settings of `npm start` only
// from this process's own environment, which `npm run bench` sets.
const unset = Object.keys(START_ENVIRONMENT).filter((name) => process.env[name] !== START_ENVIRONMENT[name]);
if (unset.length > 0)
  console.log(`(not as \`npm start\` runs the server: ${unset.join(', ')} unset; use npm run bench)`);

for (const name of names.length > 0 ? names : DEFAULT_SUITES) {
  const { default: suite } = await SUITES[name]();
  console.log(`\n== ${suite.title}`);
  const started = performance.now();
  const { markdown } = await suite.run({ quick, machine, log: (line) => console.log(line) });
  console.log(`\n${markdown}\n`);
  console.log(`(${suite.title}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  if (!quick) {
    writeSection(documentFile, suite.name, markdown);
    console.log(`written to ${documentFile}`);
  }
}
