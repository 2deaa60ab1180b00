import type { ContractKind, DocumentClause } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { sha256Hex } from '../shared/sha256.js';
import { auditEntries, clauseContent as content, contractHolding } from '../test/clause-fixtures.js';
import { testDatabases } from '../test/databases.js';
import { refusal } from '../test/refusal.js';
import { ClauseLibrary } from './clause-library.js';

const LEGAL = 'legal@demo.local';

describe.each(testDatabases())('where the clauses are used, on $name', (database) => {
  let db: Db;
  let library: ClauseLibrary;
  /** Each template DOCX read for its clause keys: the fake's content is the keys, comma-separated. */
  const reads: string[] = [];

  beforeAll(async () => {
    db = await database.open();
    library = new ClauseLibrary({
      db,
      audit: new AuditLog(db),
      lint: () => [],
      clauseKeysOf: (docx) => {
        const text = new TextDecoder().decode(docx);
        reads.push(text);
        return text.split(',').filter(Boolean);
      },
    });
    // `haftung` at version 3, published after version 1; `datenschutz` never published.
    const haftung = { key: 'haftung', name: 'Haftung', needsApproval: true };
    await library.create({ ...haftung, content: content('Vorsatz.'), comment: 'Neu' }, LEGAL);
    await library.addVersion(
      'haftung',
      { content: content('Vorsatz, Fahrlässigkeit.'), comment: '2' },
      LEGAL,
    );
    await library.addVersion(
      'haftung',
      { content: content('Vorsatz, grobe Fahrlässigkeit.'), comment: '3' },
      LEGAL,
    );
    await library.publish('haftung', 1, { actor: LEGAL, comment: 'Geprüft', replaces: null });
    await library.publish('haftung', 3, { actor: LEGAL, comment: 'Geprüft', replaces: 1 });
    await library.create(
      {
        key: 'datenschutz',
        name: 'Datenschutz',
        needsApproval: false,
        content: content('DSGVO.'),
        comment: 'Neu',
      },
      LEGAL,
    );
  });
  afterAll(async () => {
    await db.destroy();
  });

  /** A template with versions whose DOCX places the given keys; `published` is the published version. */
  async function template(name: string, versions: string[][], published: number | null) {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('templates').values({ name, published_version: null }).execute();
      for (const [index, keys] of versions.entries()) {
        const bytes = new TextEncoder().encode(keys.join(','));
        await trx
          .insertInto('template_versions')
          .values({
            template: name,
            version: index + 1,
            content: bytes,
            sha256: sha256Hex(bytes),
            size: bytes.length,
            comment: '',
            created_by: LEGAL,
            problems: '[]',
          })
          .execute();
      }
      await trx
        .updateTable('templates')
        .set({ published_version: published })
        .where('name', '=', name)
        .execute();
    });
  }

  /** A signed contract whose document holds the given clauses. */
  const contract = (matchId: string, clauses: DocumentClause[], kind: ContractKind = 'einzelauftrag') =>
    contractHolding(db, matchId, clauses, { kind });

  const audit = (subject: string) => auditEntries(db, subject);

  it('names the templates placing a clause, reading each template version once', async () => {
    await template('rahmenvertrag-de.docx', [['haftung'], ['haftung', 'datenschutz']], 1);
    await template('angebot-de.docx', [[], ['datenschutz']], 1);
    reads.length = 0;
    const list = await library.list();
    expect(list.map((clause) => [clause.key, clause.templates])).toEqual([
      ['datenschutz', []],
      ['haftung', ['rahmenvertrag-de.docx']],
    ]);
    const detail = await library.detail('datenschutz');
    expect(detail.usedInTemplates).toEqual([
      { name: 'angebot-de.docx', published: false, versions: [2] },
      { name: 'rahmenvertrag-de.docx', published: false, versions: [2] },
    ]);
    expect((await library.detail('haftung')).usedInTemplates).toEqual([
      { name: 'rahmenvertrag-de.docx', published: true, versions: [1, 2] },
    ]);
    // Four versions, read once each; the same bytes are not read again.
    expect(reads.sort()).toEqual(['', 'datenschutz', 'haftung', 'haftung,datenschutz']);
  });

  it('lists the running contracts holding a clause, those with an older version first', async () => {
    const current = await contract('PL-30001', [
      { key: 'haftung', version: 3, variant: 'Standard', rule: null },
    ]);
    const older = await contract('PL-30002', [
      { key: 'datenschutz', version: 1, variant: 'Standard', rule: null },
      { key: 'haftung', version: 1, variant: 'Standard', rule: 'land = DE' },
    ]);
    // An additional agreement does not run on its own: not a running contract.
    await contract(
      'PL-30003',
      [{ key: 'haftung', version: 1, variant: 'Standard', rule: null }],
      'zusatzvereinbarung',
    );
    await contract('PL-30004', [{ key: 'datenschutz', version: 1, variant: 'Standard', rule: null }]);
    const { contracts } = await library.detail('haftung');
    expect(contracts).toEqual([
      {
        contractId: older.contractId,
        matchId: 'PL-30002',
        title: 'Einzelauftrag Elbwerk Logistik AG',
        documentId: older.documentId,
        version: 1,
        variant: 'Standard',
        outdated: true,
      },
      {
        contractId: current.contractId,
        matchId: 'PL-30001',
        title: 'Einzelauftrag Elbwerk Logistik AG',
        documentId: current.documentId,
        version: 3,
        variant: 'Standard',
        outdated: false,
      },
    ]);
    // Never published: nothing a contract holds is older.
    expect((await library.detail('datenschutz')).contracts.map((use) => [use.matchId, use.outdated])).toEqual(
      [
        ['PL-30002', false],
        ['PL-30004', false],
      ],
    );
  });

  it('deletes a clause no template places, and refuses one that any template version places', async () => {
    expect(await refusal(library.delete('datenschutz', LEGAL))).toEqual({
      status: 409,
      message:
        'Die Klausel datenschutz kann nicht gelöscht werden: die Vorlagen angebot-de.docx (Version 2), rahmenvertrag-de.docx (Version 2) verwenden sie.',
    });
    expect(await refusal(library.delete('haftung', LEGAL))).toEqual({
      status: 409,
      message:
        'Die Klausel haftung kann nicht gelöscht werden: die Vorlage rahmenvertrag-de.docx (Versionen 1, 2) verwendet sie.',
    });
    await library.create(
      {
        key: 'schweizer-recht',
        name: 'Schweizer Recht',
        needsApproval: false,
        content: content('Es gilt Schweizer Recht.'),
        comment: 'Neu',
      },
      LEGAL,
    );
    await library.addVersion(
      'schweizer-recht',
      { content: content('Es gilt das Recht der Schweiz.'), comment: 'Klarer' },
      LEGAL,
    );
    await library.publish('schweizer-recht', 2, { actor: LEGAL, comment: 'Geprüft', replaces: null });
    await library.delete('schweizer-recht', 'ops@demo.local');
    expect((await refusal(library.detail('schweizer-recht'))).status).toBe(404);
    expect(
      await db
        .selectFrom('clause_versions')
        .select('version')
        .where('clause', '=', 'schweizer-recht')
        .execute(),
    ).toEqual([]);
    expect((await audit('schweizer-recht')).at(-1)).toEqual({
      actor: 'ops@demo.local',
      action: 'clause.delete',
      old_value: 'Schweizer Recht; 2 Versionen',
      new_value: null,
    });
    expect((await refusal(library.delete('schweizer-recht', LEGAL))).status).toBe(404);
    // The key is free again: a new clause under it starts at version 1.
    const again = await library.create(
      {
        key: 'schweizer-recht',
        name: 'Schweizer Recht',
        needsApproval: false,
        content: content('Neu.'),
        comment: 'Neu',
      },
      LEGAL,
    );
    expect(again.versions.map((version) => version.version)).toEqual([1]);
  });
});
