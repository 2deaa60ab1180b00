import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { table } from '../lib/markdown.mjs';
import { importServer } from '../lib/server.mjs';
import { ms } from '../lib/stats.mjs';

const DOCUMENTS = 100_000;
const QUICK_DOCUMENTS = 5_000;
const MiB = 1024 * 1024;
/** No batch may hold the database longer than this. */
const BUDGET_MS = 1000;

/**
 * The deletion run against 100,000 stored documents on the embedded database, in this process with the
 * built server's modules: four in five are business letters older than six years (due), one in five is
 * newer; every tenth has a declined envelope ended a year ago (due). Reports the run's time, its longest
 * batch (the longest the database is held at a time) and the process's memory. No assertions: figures.
 */
export default {
  name: 'retention',
  title: 'The deletion run with 100,000 stored documents',

  async run({ quick, log }) {
    const count = quick ? QUICK_DOCUMENTS : DOCUMENTS;
    const { openDatabase, migrate } = await importServer('db/database.js');
    const { AuditLog } = await importServer('admin/audit-log.js');
    const { RetentionRules } = await importServer('privacy/retention-rules.js');
    const { DeletionRun } = await importServer('privacy/deletion-run.js');
    const dataDir = await mkdtemp(join(tmpdir(), 'bench-retention-'));
    const db = await openDatabase({ kind: 'pglite', dataDir: join(dataDir, 'pglite') });
    try {
      await migrate(db);
      const seeded = performance.now();
      await seed(db, count);
      log(`${count} documents seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
      globalThis.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const batches = [];
      const audit = new AuditLog(db);
      const run = new DeletionRun({
        db,
        audit,
        rules: new RetentionRules(db, audit),
        log: { error: (...args) => console.error(...args) },
        onBatch: (milliseconds, deleted) => {
          batches.push({ milliseconds, deleted });
          rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        },
      });
      const started = performance.now();
      const deleted = await run.run();
      const seconds = (performance.now() - started) / 1000;
      const left = await db.selectFrom('documents').select(sql`count(*)`.as('n')).executeTakeFirstOrThrow();
      const longest = Math.max(...batches.map((b) => b.milliseconds));
      const sorted = batches.map((b) => b.milliseconds).sort((a, b) => a - b);
      const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
      log(
        `deleted ${JSON.stringify(deleted)} in ${seconds.toFixed(1)} s, ${batches.length} batches, longest ${ms(longest)} ms`,
      );
      const markdown = [
        `## The deletion run with ${count.toLocaleString('en')} stored documents`,
        '',
        `The embedded database (PGlite), ${count.toLocaleString('en')} documents with a 2 kB version each; ` +
          'the run deletes the nine in ten that are due (business letters older than six years, declined envelopes ended a year ago), in batches of at most 100 documents (halved after a batch slower than 250 ms), each one transaction.',
        '',
        table(
          [
            'documents',
            'deleted',
            'left',
            'run',
            'batches',
            'batch p99',
            'longest batch',
            'RSS before',
            'RSS peak',
          ],
          [
            [
              count.toLocaleString('en'),
              Object.values(deleted ?? {})
                .reduce((a, b) => a + b, 0)
                .toLocaleString('en'),
              Number(left.n).toLocaleString('en'),
              `${seconds.toFixed(1)} s`,
              String(batches.length),
              `${ms(p99)} ms`,
              `${ms(longest)} ms`,
              `${(rssBefore / MiB).toFixed(0)} MiB`,
              `${(rssPeak / MiB).toFixed(0)} MiB`,
            ],
          ],
        ),
        '',
        `Budget: longest batch ≤ ${BUDGET_MS / 1000} s — ${longest <= BUDGET_MS ? 'met' : 'missed'} (longest ${ms(longest)} ms).`,
        '',
        '### How measured',
        '',
        'In the bench process, with the built server’s modules (`apps/server/dist`), on a fresh PGlite under a temporary directory: ' +
          `${count.toLocaleString('en')} documents are seeded by plain SQL (four in five business letters seven years old, one in five two years old; ` +
          'every tenth with an envelope declined a year ago), then one `DeletionRun.run()` with the default rules deletes what is due. ' +
          'Each batch (one transaction) reports its milliseconds through `onBatch`; the longest is the longest the database is held at a time, ' +
          'which the requirement caps at a second. RSS is `process.memoryUsage().rss` after a forced GC before the run (`--expose-gc`) and its ' +
          'peak sampled after each batch.',
      ].join('\n');
      return { markdown };
    } finally {
      await db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};

/** Plain SQL: 100,000 documents with their versions take seconds, not minutes. */
async function seed(db, count) {
  await sql`insert into documents (id, match_id, doc_key, form, created_by, created_at, status, file_name, data, data_sha256)
    select md5('document' || i)::uuid, 'PL-' || (30000 + i % 5000), 'angebot-wm', 'offer', 'legal@demo.local',
      case when i % 5 = 0 then now() - interval '2 years' else now() - interval '7 years' end,
      'ready', 'Angebot.docx', ('{"kandidat": "Person ' || i || '"}')::jsonb, md5('data' || i)
    from generate_series(1, ${count}) as i`.execute(db);
  await sql`insert into document_versions (document_id, version, content, sha256, size, created_by, created_at)
    select md5('document' || i)::uuid, 1, decode(repeat(md5('content' || i), 128), 'hex'), md5('content' || i),
      2048, 'legal@demo.local', now() - interval '7 years'
    from generate_series(1, ${count}) as i`.execute(db);
  await sql`insert into envelopes (id, document_id, document_version, document_sha256, match_id, doc_key, provider,
      status, subject, message, sender_name, sender_email, created_by, created_at, updated_at)
    select md5('envelope' || i)::uuid, md5('document' || i)::uuid, 1, md5('content' || i), 'PL-' || (30000 + i % 5000),
      'angebot-wm', 'builtin', 'declined', 'Bitte unterschreiben', '', 'Absender', 'absender@demo.local',
      'legal@demo.local', now() - interval '13 months', now() - interval '1 year'
    from generate_series(10, ${count}, 10) as i`.execute(db);
}
