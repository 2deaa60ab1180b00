import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDatabase } from '../lib/database.mjs';
import { describeMachine } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { startPostgres } from '../lib/postgres.mjs';
import { importServer } from '../lib/server.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { factor, ms } from '../lib/stats.mjs';
import { measureBatch } from './measure.mjs';

/**
 * Serien: the built server as `npm start` runs it, on each database, checks and makes a batch of 1,000
 * extensions (Word documents), then — on a server started again — a batch of 1,000 e-signature contracts
 * (built-in signing: per deal the document, its envelope, sent with its invitation queued and held for
 * the batch's pace), while a colleague looks up matches one after another and the batch's page reads
 * its progress every 250 ms, as the page does every second. Measured from outside: the check, the run
 * from its start to the last deal finished, the lookups' p99, the server's VmRSS, and how far the
 * progress the page reads is behind the job; after the e-signature batch, with the server stopped, its
 * envelopes sent and their invitations counted in the database.
 */

const DEALS = 1000;
const QUICK_DEALS = 100;
const BUDGET = { lookupP99Ms: 200, rssMiB: 350, lagMs: 1000 };
const CONTRACT = 'de-wm-k-rv-1';

/** The two kinds of batch, each measured alike: how it is asked for, and what is checked of it. */
const KINDS = [
  {
    document: 'extensions (Word)',
    runSeconds: 10,
    request: async (_api, ids) => ({
      docKey: 'verlaengerung-de-wm-k',
      values: { neuesEnde: '2027-12-31', neuerSatzRemote: 125 },
      matchIds: ids.join('\n'),
    }),
    afterCheck(batch) {
      if (batch.counts.ready !== batch.items.length)
        throw new Error(`only ${batch.counts.ready} of ${batch.items.length} ready`);
      return [];
    },
  },
  {
    document: 'e-signature contracts',
    runSeconds: 30,
    async request(api, ids) {
      const { options } = await api('GET', `/backend/batches/countersignature?docKey=${CONTRACT}`);
      if (!options[0]) throw new Error(`nobody may countersign ${CONTRACT}`);
      const csv = [
        'Match-ID;Unterzeichner;Unterzeichner E-Mail',
        ...ids.map((id, i) => `${id};Kira Kunde ${i};kira.kunde.${i}@kunde-${i}.example`),
      ].join('\r\n');
      return {
        docKey: CONTRACT,
        values: {},
        file: { name: 'vertraege.csv', content: Buffer.from(csv).toString('base64') },
        send: { countersignatory: options[0].id, message: '' },
      };
    },
    // The deals' margins are healthy: every deal should be sent at once, none held for Freigabe.
    afterCheck(batch) {
      const notReady = batch.items.filter((item) => item.verdict !== 'ready');
      if (notReady.length === 0) return [];
      const reasons = [...new Set(notReady.map((item) => `${item.verdict}: ${item.reason}`))].slice(0, 3);
      return [
        `only ${batch.items.length - notReady.length} of ${batch.items.length} ready after the check (${reasons.join(' / ')})`,
      ];
    },
    afterRun: countEnvelopes,
  },
];

export default {
  name: 'batches',
  title: 'Serien: 1,000 extensions and 1,000 e-signature contracts in one batch each',

  async run({ quick, machine, log }) {
    const deals = quick ? QUICK_DEALS : DEALS;
    const postgres = await startPostgres();
    const databases = [{ name: 'PGlite (embedded)', env: {} }];
    if ('url' in postgres) {
      databases.push({ name: 'PostgreSQL', env: { DATABASE_URL: postgres.createDatabase('bench_batches') } });
    } else {
      log(`PostgreSQL is left out: ${postgres.unavailable}`);
    }
    const results = [];
    try {
      for (const database of databases) {
        const dataDir = await mkdtemp(join(tmpdir(), 'bench-batches-'));
        try {
          const logFile = join(dataDir, 'server.log');
          // The first start fills the demo; the deals are added while the server is stopped.
          await (await startServerProcess({ dataDir, logFile, env: database.env })).stop();
          const ids = Array.from({ length: deals }, (_, i) => `PL-${80001 + i}`);
          await withDatabase(dataDir, database.env, (db) => seedDeals(db, ids));
          for (const kind of KINDS) {
            // Each batch on a server of its own, started for it: its VmRSS is the batch's alone.
            const server = await startServerProcess({ dataDir, logFile, env: database.env });
            let result;
            try {
              result = await measureBatch(server, {
                request: (api) => kind.request(api, ids),
                afterCheck: kind.afterCheck,
                databaseUrl: database.env.DATABASE_URL,
              });
            } finally {
              await server.stop();
            }
            const counted = kind.afterRun
              ? await withDatabase(dataDir, database.env, (db) => kind.afterRun(db, result.batch))
              : undefined;
            const row = { database: database.name, kind, ...result, counted };
            results.push(row);
            log(summaryLine(row));
            for (const note of [...row.notes, ...(counted?.notes ?? [])]) log(`  ${note}`);
          }
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      }
    } finally {
      if ('stop' in postgres) postgres.stop();
    }
    return { markdown: report(results, machine) };
  },
};

async function seedDeals(db, ids) {
  const { MatchStore } = await importServer('matches/match-store.js');
  await new MatchStore(db).upsertMany(
    ids.map((matchId, i) => ({
      matchId,
      kunde: `Kunde ${i} AG`,
      ansprechpartnerKunde: `Kai Kunde ${i}`,
      adresseKunde: `Kaistraße ${i}, 20457 Hamburg`,
      position: 'Senior Consultant',
      startdatum: '2027-01-04',
      enddatum: '2027-06-30',
      // Margins above the default rules' threshold, remote and on site: nothing needs Freigabe.
      vk: 120,
      ek: 90,
      vk2: 130,
      ek2: 95,
      kuendigungsfristKunde: '4 Wochen zum Monatsende',
    })),
  );
}

/**
 * With the server stopped, in its database: the batch's envelopes (request key `batch-<item id>`) that
 * were sent, and the invitations queued for them (reference `envelope:<id>`), delivered or held.
 */
async function countEnvelopes(db, batch) {
  const keys = batch.items.map((item) => `batch-${item.id}`);
  const envelopes = await db
    .selectFrom('envelopes')
    .select(['id', 'status'])
    .where('request_key', 'in', keys)
    .execute();
  const mails =
    envelopes.length === 0
      ? []
      : await db
          .selectFrom('outgoing_mail')
          .select(['sent_at', 'next_attempt_at'])
          .where(
            'reference',
            'in',
            envelopes.map((envelope) => `envelope:${envelope.id}`),
          )
          .execute();
  const held = mails.filter((mail) => mail.sent_at === null);
  const lastDue = Math.max(...held.map((mail) => new Date(mail.next_attempt_at).getTime()));
  const notes = [
    `${envelopes.length} envelopes for the batch’s deals, ${envelopes.filter((e) => e.status === 'sent').length} sent; ` +
      `${mails.length} invitations queued, ${mails.length - held.length} delivered during the run, ${held.length} held` +
      (held.length > 0
        ? `, the last due ${((lastDue - Date.parse(batch.startedAt)) / 60_000).toFixed(1)} min after the start`
        : ''),
  ];
  return {
    envelopesSent: envelopes.filter((envelope) => envelope.status === 'sent').length,
    invitations: mails.length,
    notes,
  };
}

function summaryLine(r) {
  return (
    `${r.database}, ${r.kind.document}: check ${ms(r.checkMs)} ms, run ${r.runSeconds.toFixed(1)} s ` +
    `(${r.perSecond.toFixed(0)} documents/s), lookup p99 ${ms(r.lookupP99)} ms, ` +
    `VmRSS max ${r.rssMaxMiB.toFixed(0)} MiB, progress lag max ${ms(r.lagMaxMs)} ms, ` +
    `other processes ${(r.othersCpu * 100).toFixed(0)} % of the machine` +
    (r.counted ? `, envelopes sent ${r.counted.envelopesSent}, invitations ${r.counted.invitations}` : '')
  );
}

/** Each budget of a row: its name and whether it was met. */
function budgets(r) {
  return [
    [`run ≤ ${r.kind.runSeconds} s`, r.runSeconds <= r.kind.runSeconds && r.made === r.deals],
    ['lookup', r.lookupP99 <= BUDGET.lookupP99Ms],
    ['VmRSS', r.rssMaxMiB <= BUDGET.rssMiB],
    ['progress', r.lagMaxMs <= BUDGET.lagMs],
    ...(r.counted
      ? [['envelopes', r.counted.envelopesSent === r.deals && r.counted.invitations === r.deals]]
      : []),
  ];
}

function report(results, machine) {
  const verdict = (ok) => (ok ? 'met' : '**missed**');
  const rows = results.map((r) => [
    r.database,
    r.kind.document,
    String(r.deals),
    ms(r.checkMs),
    `${r.runSeconds.toFixed(1)} s (${r.perSecond.toFixed(0)}/s)`,
    `${ms(r.lookupMedian)} / ${ms(r.lookupP99)} (${r.lookups})`,
    r.rssMaxMiB.toFixed(0),
    ms(r.lagMaxMs),
    Number.isFinite(r.othersCpu) ? `${(r.othersCpu * 100).toFixed(0)} %` : '–',
    r.counted ? `${r.counted.envelopesSent} / ${r.counted.invitations}` : '–',
    budgets(r)
      .map(([name, ok]) => `${name} ${verdict(ok)}`)
      .join(', '),
  ]);
  const run = (database, document) =>
    results.find((r) => r.database === database && r.kind.document === document)?.runSeconds;
  const [extensions, contracts] = KINDS.map((kind) => kind.document);
  const databases = [...new Set(results.map((r) => r.database))];
  const ratios = [
    ...databases.map(
      (database) =>
        `on ${database} the e-signature batch took ${factor(run(database, contracts), run(database, extensions))} the extensions’ run`,
    ),
    ...(databases.length === 2
      ? [
          `PostgreSQL’s runs took ${factor(run(databases[1], extensions), run(databases[0], extensions))} (extensions) and ` +
            `${factor(run(databases[1], contracts), run(databases[0], contracts))} (e-signature) the embedded database’s`,
        ]
      : []),
  ];
  const notes = results.flatMap((r) =>
    [...r.notes, ...(r.counted?.notes ?? [])].map((note) => `- ${r.database}, ${r.kind.document}: ${note}`),
  );
  const all = results.flatMap(budgets);
  return [
    '## Serien: 1,000 extensions and 1,000 e-signature contracts',
    '',
    'The built server on each database (as `npm start`), a batch of seeded deals checked and started through the',
    'API as legal staff: 1,000 extensions (`verlaengerung-de-wm-k`, Word documents), then, on the server started',
    `again, 1,000 e-signature contracts (\`${CONTRACT}\`, built-in signing, a CSV with each deal’s signer and the first`,
    'countersignatory offered): per deal its document, its envelope sent and the signer’s invitation queued, held',
    'for the batch’s pace (BATCH_INVITATIONS_PER_MINUTE, default 60). The deals’ margins are healthy, so none needs',
    'Freigabe. A colleague looks up matches one after another throughout, the batch page reads the progress every',
    '250 ms. Run: from the start to the last deal finished (the deals’ own times). Progress lag: the most any',
    'reading was behind — how long before it the first document it does not count was stored. Envelopes /',
    'invitations: counted in the database after the run (server stopped): the batch’s envelopes (request key',
    '`batch-<deal>`) with status `sent`, and the mails queued for them (reference `envelope:<id>`). Other processes’',
    'CPU: the share of all cores’ time during the run used by processes other than the bench, the server and its',
    'PostgreSQL — the machine is shared, and a run beside other work is slower. One run per database and kind.',
    '',
    `Measured on ${describeMachine(machine)}.`,
    '',
    table(
      [
        'database',
        'document',
        'deals',
        'check (ms)',
        'run',
        'match lookup median / p99 (ms, lookups)',
        'VmRSS max (MiB)',
        'progress lag (ms)',
        'other processes’ CPU',
        'envelopes sent / invitations',
        'budgets',
      ],
      rows,
    ),
    '',
    `Budgets: run ≤ ${KINDS[0].runSeconds} s for the extensions, ≤ ${KINDS[1].runSeconds} s for the e-signature ` +
      `contracts (all envelopes sent and their invitations written); lookup p99 ≤ ${BUDGET.lookupP99Ms} ms, VmRSS ≤ ${BUDGET.rssMiB} MiB, progress lag ≤ ` +
      `${BUDGET.lagMs} ms — ${all.every(([, ok]) => ok) ? 'all met' : '**not all met**'}.`,
    '',
    `Ratios within this run: ${ratios.join('; ')}.`,
    ...(notes.length > 0 ? ['', ...notes] : []),
  ].join('\n');
}
