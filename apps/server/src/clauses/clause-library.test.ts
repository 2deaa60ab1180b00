import type { ClauseContent, ContractKind, DocumentClause } from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { HttpError } from '../shared/http-error.js';
import type { EventSink, ProductEvent } from '../shared/product-events.js';
import { sha256Hex } from '../shared/sha256.js';
import { testDatabases } from '../test/databases.js';
import { ClauseLibrary } from './clause-library.js';

const LEGAL = 'legal@demo.local';

const content = (de: string, en = 'Liability is limited to gross negligence.'): ClauseContent => ({
  option: 'always',
  variants: [{ name: 'Standard', rule: null, de, en }],
});
const HAFTUNG_1 = 'Wir haften nur für Vorsatz.\n\nDie Haftung ist auf den Auftragswert begrenzt.';
const HAFTUNG_2 =
  'Wir haften nur für Vorsatz und grobe Fahrlässigkeit.\n\nDie Haftung ist auf den Auftragswert begrenzt.';

/** How the repository refuses: its status and German message. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return { status: error.statusCode, message: error.message };
}

describe.each(testDatabases())('the clause library on $name', (database) => {
  let db: Db;
  let library: ClauseLibrary;
  const events: ProductEvent[] = [];
  /** Each template DOCX read for its clause keys: the fake's content is the keys, comma-separated. */
  const reads: string[] = [];

  beforeAll(async () => {
    db = await database.open();
    const sink: EventSink<Kysely<Database>> = {
      record: async (event, trx) => {
        expect(trx.isTransaction).toBe(true);
        events.push(event);
      },
    };
    library = new ClauseLibrary({
      db,
      audit: new AuditLog(db),
      events: sink,
      // A stand-in check: a text naming a placeholder nobody knows.
      lint: (checked) =>
        checked.variants.flatMap((variant) =>
          variant.de.includes('{unbekannt}')
            ? [
                {
                  place: `Variante „${variant.name}“, deutscher Text`,
                  message: 'Unbekannter Platzhalter {unbekannt}.',
                },
              ]
            : [],
        ),
      clauseKeysOf: (docx) => {
        const text = new TextDecoder().decode(docx);
        reads.push(text);
        return text.split(',').filter(Boolean);
      },
    });
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
  async function contract(matchId: string, clauses: DocumentClause[], kind: ContractKind = 'einzelauftrag') {
    const document = await db
      .insertInto('documents')
      .values({
        match_id: matchId,
        doc_key: 'de-wm-k-ev-1',
        form: 'docusign',
        created_by: LEGAL,
        status: 'ready',
        error: null,
        file_name: 'Einzelauftrag.docx',
        data: '{}',
        template_sha256: null,
        data_sha256: sha256Hex(new TextEncoder().encode(matchId)),
        clauses: JSON.stringify(clauses),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const record = await db
      .insertInto('contract_records')
      .values({
        source_kind: 'envelope',
        envelope_id: null,
        document_id: document.id,
        document_version: 1,
        match_id: matchId,
        doc_key: 'de-wm-k-ev-1',
        kind,
        company: 'wm',
        partner_type: 'k',
        language: 'de',
        counterparty: 'Elbwerk Logistik AG',
        customer: 'Elbwerk Logistik AG',
        consultant: 'Anna Albrecht',
        parties: '[]',
        terms_source: 'document',
        start_date: '2026-01-01',
        end_date: '2027-12-31',
        notice_text: null,
        notice_rule_source: 'missing',
        last_notice_day: null,
        signed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { documentId: document.id, contractId: record.id };
  }

  const audit = (subject: string) =>
    db
      .selectFrom('audit_entries')
      .select(['actor', 'action', 'old_value', 'new_value'])
      .where('subject', '=', subject)
      .orderBy('id')
      .execute();

  it('creates a clause with a first draft, and refuses a key taken', async () => {
    const created = await library.create(
      {
        key: 'haftung',
        name: 'Haftung',
        needsApproval: true,
        content: content(HAFTUNG_1),
        comment: 'Erste Fassung',
      },
      LEGAL,
    );
    expect(created).toMatchObject({
      key: 'haftung',
      name: 'Haftung',
      needsApproval: true,
      publishedVersion: null,
      publishedAt: null,
      drafts: 1,
      templates: [],
      usedInTemplates: [],
      contracts: [],
    });
    expect(created.versions).toEqual([
      expect.objectContaining({
        version: 1,
        status: 'Entwurf',
        content: content(HAFTUNG_1),
        comment: 'Erste Fassung',
        createdBy: LEGAL,
        problems: [],
        publishedAt: null,
      }),
    ]);
    expect(
      await refusal(
        library.create(
          { key: 'haftung', name: 'Andere', needsApproval: false, content: content('x'), comment: 'x' },
          'ops@demo.local',
        ),
      ),
    ).toEqual({ status: 409, message: 'Eine Klausel mit dem Schlüssel „haftung“ gibt es schon.' });
    expect((await library.detail('haftung')).name).toBe('Haftung');
    expect(await refusal(library.detail('gibt-es-nicht'))).toEqual({
      status: 404,
      message: 'Eine Klausel gibt-es-nicht gibt es nicht.',
    });
    expect(await audit('haftung')).toEqual([
      {
        actor: LEGAL,
        action: 'clause.create',
        old_value: null,
        new_value: 'Haftung; Version 1: Erste Fassung',
      },
    ]);
  });

  it('stores the problems the check finds, and will not publish a version that has any', async () => {
    const version = await library.addVersion(
      'haftung',
      { content: content('Es gilt {unbekannt}.'), comment: 'Tippfehler' },
      LEGAL,
    );
    expect(version).toMatchObject({
      version: 2,
      status: 'Entwurf',
      problems: [
        { place: 'Variante „Standard“, deutscher Text', message: 'Unbekannter Platzhalter {unbekannt}.' },
      ],
    });
    expect(
      await refusal(library.publish('haftung', 2, { actor: LEGAL, comment: 'x', replaces: null })),
    ).toEqual({
      status: 409,
      message:
        'Version 2 hat ein Problem und kann nicht veröffentlicht werden: Variante „Standard“, deutscher Text: Unbekannter Platzhalter {unbekannt}.',
    });
    expect(
      await refusal(library.publish('haftung', 9, { actor: LEGAL, comment: 'x', replaces: null })),
    ).toEqual({
      status: 404,
      message: 'Version 9 der Klausel haftung gibt es nicht.',
    });
  });

  it('publishes, refuses a publication over one the user did not see, rolls back, and tells of each', async () => {
    const first = await library.publish('haftung', 1, { actor: LEGAL, comment: 'Geprüft', replaces: null });
    expect(first).toMatchObject({ publishedVersion: 1, drafts: 1 });
    expect(first.publishedAt).toEqual(expect.any(String));
    await library.addVersion(
      'haftung',
      { content: content(HAFTUNG_2), comment: 'Grobe Fahrlässigkeit' },
      LEGAL,
    );
    // Someone who looked before version 1 was published is told, not overruled.
    const stale = await refusal(
      library.publish('haftung', 3, { actor: LEGAL, comment: 'x', replaces: null }),
    );
    expect(stale.status).toBe(409);
    expect(stale.message).toMatch(/^Inzwischen ist Version 1 veröffentlicht, nicht Version –\./);
    const third = await library.publish('haftung', 3, { actor: LEGAL, comment: 'Erweitert', replaces: 1 });
    expect(third.versions.map((version) => [version.version, version.status])).toEqual([
      [3, 'veröffentlicht'],
      [2, 'Entwurf'],
      [1, 'ersetzt'],
    ]);
    expect(third.drafts).toBe(0);
    expect(
      (await refusal(library.publish('haftung', 3, { actor: LEGAL, comment: 'x', replaces: 3 }))).message,
    ).toBe('Version 3 ist schon die veröffentlichte Version.');
    const back = await library.publish('haftung', 1, {
      actor: 'ops@demo.local',
      comment: 'Zurück',
      replaces: 3,
    });
    expect(back.versions.map((version) => version.status)).toEqual(['ersetzt', 'Entwurf', 'veröffentlicht']);
    expect(back.versions[2]).toMatchObject({ publishedBy: 'ops@demo.local', publishComment: 'Zurück' });
    expect((await audit('haftung')).slice(1)).toEqual([
      { actor: LEGAL, action: 'clause.version', old_value: null, new_value: 'Version 2: Tippfehler' },
      { actor: LEGAL, action: 'clause.publish', old_value: null, new_value: 'Version 1: Geprüft' },
      {
        actor: LEGAL,
        action: 'clause.version',
        old_value: null,
        new_value: 'Version 3: Grobe Fahrlässigkeit',
      },
      { actor: LEGAL, action: 'clause.publish', old_value: 'Version 1', new_value: 'Version 3: Erweitert' },
      {
        actor: 'ops@demo.local',
        action: 'clause.rollback',
        old_value: 'Version 3',
        new_value: 'Version 1: Zurück',
      },
    ]);
    expect(events).toEqual([
      { kind: 'clause.published', key: 'haftung', version: 1, publishedBy: LEGAL },
      { kind: 'clause.published', key: 'haftung', version: 3, publishedBy: LEGAL },
      { kind: 'clause.published', key: 'haftung', version: 1, publishedBy: 'ops@demo.local' },
    ]);
  });

  it('lets one of two people publishing at once win and tells the other', async () => {
    const answers = await Promise.allSettled([
      library.publish('haftung', 3, { actor: LEGAL, comment: 'A', replaces: 1 }),
      library.publish('haftung', 3, { actor: 'ops@demo.local', comment: 'B', replaces: 1 }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected']);
    await library.publish('haftung', 1, { actor: LEGAL, comment: 'Wieder 1', replaces: 3 });
  });

  it('compares a version with the published one, or another, per variant and language', async () => {
    const comparison = await library.compare('haftung', 3);
    expect(comparison).toMatchObject({ base: 1, version: 3 });
    expect(comparison.parts.map((part) => [part.variant, part.language])).toEqual([
      ['Standard', 'de'],
      ['Standard', 'en'],
    ]);
    const german = comparison.parts[0]?.paragraphs ?? [];
    expect(german.map((paragraph) => paragraph.change)).toEqual(['changed', 'kept']);
    expect(german[0]?.parts).toEqual(
      expect.arrayContaining([{ text: ' und grobe Fahrlässigkeit', change: 'added' }]),
    );
    expect(comparison.parts[1]?.paragraphs.map((paragraph) => paragraph.change)).toEqual(['kept']);
    const against3 = await library.compare('haftung', 1, 3);
    expect(against3.base).toBe(3);
    expect(against3.parts[0]?.paragraphs[0]?.parts).toEqual(
      expect.arrayContaining([{ text: ' und grobe Fahrlässigkeit', change: 'removed' }]),
    );
    expect((await refusal(library.compare('haftung', 3, 7))).status).toBe(404);

    // Never published: everything is new. A variant renamed is one removed and one added.
    await library.create(
      {
        key: 'datenschutz',
        name: 'Datenschutz',
        needsApproval: false,
        content: content('Wir schützen Daten.'),
        comment: 'Neu',
      },
      LEGAL,
    );
    const fresh = await library.compare('datenschutz', 1);
    expect(fresh.base).toBeNull();
    expect(fresh.parts[0]?.paragraphs).toEqual([
      { change: 'added', parts: [{ text: 'Wir schützen Daten.', change: 'added' }] },
    ]);
    const renamed = await library.addVersion(
      'datenschutz',
      {
        content: {
          option: 'optional-on',
          variants: [{ name: 'DSGVO', rule: null, de: 'Wir schützen Daten.', en: '' }],
        },
        comment: 'Umbenannt',
      },
      LEGAL,
    );
    const parts = (await library.compare('datenschutz', renamed.version, 1)).parts;
    expect(parts.map((part) => [part.variant, part.language, part.paragraphs.map((p) => p.change)])).toEqual([
      ['DSGVO', 'de', ['added']],
      ['DSGVO', 'en', []],
      ['Standard', 'de', ['removed']],
      ['Standard', 'en', ['removed']],
    ]);
  });

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
    await library.publish('haftung', 3, { actor: LEGAL, comment: 'Wieder 3', replaces: 1 });
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

  it('changes the name and the approval flag, audited, and leaves the versions alone', async () => {
    const changed = await library.updateSettings(
      'datenschutz',
      { name: 'Datenschutz (DSGVO)', needsApproval: true },
      LEGAL,
    );
    expect(changed).toMatchObject({ name: 'Datenschutz (DSGVO)', needsApproval: true });
    expect(changed.versions).toHaveLength(2);
    await library.updateSettings('datenschutz', { name: 'Datenschutz (DSGVO)', needsApproval: true }, LEGAL);
    expect((await audit('datenschutz')).filter((entry) => entry.action === 'clause.settings')).toEqual([
      {
        actor: LEGAL,
        action: 'clause.settings',
        old_value: 'Datenschutz; Änderung braucht Freigabe: nein',
        new_value: 'Datenschutz (DSGVO); Änderung braucht Freigabe: ja',
      },
    ]);
    expect(
      (await refusal(library.updateSettings('fehlt', { name: 'x', needsApproval: false }, LEGAL))).status,
    ).toBe(404);
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
