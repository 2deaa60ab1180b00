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
      createdBy: 'berater@demo.local',
    });
    await submittedAgo(id, 86_400);
    expect((await documents.find(id))?.status).toBe('ready');
  });
});
