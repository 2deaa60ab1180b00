import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { testDatabases } from '../test/databases.js';
import { DocumentsRepository } from './documents-repository.js';

describe.each(testDatabases())('documents left behind by a stopped server ($name)', (database) => {
  let db: Db;
  let documents: DocumentsRepository;
  beforeAll(async () => {
    db = await database.open();
    documents = new DocumentsRepository(db);
  });
  afterAll(() => db.destroy());

  const record = (matchId: string) =>
    documents.create({
      matchId,
      docKey: 'docx-de-wm-rv',
      form: 'docx',
      createdBy: 'berater@demo.local',
      fileName: 'vertrag.docx',
      dataList: { vertragspartner_type: 'k' },
      dataSha256: 'a'.repeat(64),
    });
  const submittedAgo = (id: string, seconds: number) =>
    db
      .updateTable('documents')
      .set({ created_at: sql`now() - make_interval(secs => ${seconds})` })
      .where('id', '=', id)
      .execute();

  it('reports a render abandoned minutes ago as failed, and one still within its deadline as rendering', async () => {
    const abandoned = await record('PL-20001');
    await submittedAgo(abandoned, 180);
    const running = await record('PL-20001');
    await submittedAgo(running, 15);

    expect((await documents.find(abandoned))?.status).toBe('failed');
    expect((await documents.find(running))?.status).toBe('rendering');
    const history = await new EnvelopesRepository(db).history('PL-20001');
    expect(Object.fromEntries(history.map((entry) => [entry.documentId, entry.status]))).toEqual({
      [abandoned]: 'failed',
      [running]: 'rendering',
    });
    // What the user submitted stays stored either way.
    const row = await db
      .selectFrom('documents')
      .select('status')
      .where('id', '=', abandoned)
      .executeTakeFirst();
    expect(row?.status).toBe('rendering');
  });

  it('leaves finished documents as they are, however old', async () => {
    const id = await record('PL-20002');
    await documents.complete(id, {
      content: new Uint8Array([1, 2, 3]),
      templateSha256: 'b'.repeat(64),
      templateVersion: 1,
      createdBy: 'berater@demo.local',
    });
    await submittedAgo(id, 86_400);
    expect((await documents.find(id))?.status).toBe('ready');
  });
});

describe.each(testDatabases())('stored document content ($name)', (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => db.destroy());

  it('is stored as it comes, without an attempt to compress what is already a zip archive', async () => {
    const documents = new DocumentsRepository(db);
    const id = await documents.create({
      matchId: 'PL-20003',
      docKey: 'docx-de-wm-rv',
      form: 'docx',
      createdBy: 'berater@demo.local',
      fileName: 'vertrag.docx',
      dataList: { vertragspartner_type: 'k' },
      dataSha256: 'c'.repeat(64),
    });
    // Content PostgreSQL's compression would shrink to almost nothing, to see whether it is tried.
    const content = new Uint8Array(40_000).fill(7);
    await documents.complete(id, {
      content,
      templateSha256: 'd'.repeat(64),
      templateVersion: 1,
      createdBy: 'berater@demo.local',
    });

    const { rows } = await sql<{ stored: number }>`
      select pg_column_size(content) as stored from document_versions where document_id = ${id}`.execute(db);
    expect(rows[0]?.stored).toBeGreaterThanOrEqual(content.byteLength);
    expect(Buffer.from((await documents.latestContent(id))?.content ?? []).equals(Buffer.from(content))).toBe(
      true,
    );
  });
});
