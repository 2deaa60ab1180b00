import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { EventSink, ProductEvent } from '../shared/product-events.js';
import { auditEntries, clauseContent as content } from '../test/clause-fixtures.js';
import { testDatabases } from '../test/databases.js';
import { refusal } from '../test/refusal.js';
import { ClauseLibrary } from './clause-library.js';

const LEGAL = 'legal@demo.local';

const HAFTUNG_1 = 'Wir haften nur für Vorsatz.\n\nDie Haftung ist auf den Auftragswert begrenzt.';
const HAFTUNG_2 =
  'Wir haften nur für Vorsatz und grobe Fahrlässigkeit.\n\nDie Haftung ist auf den Auftragswert begrenzt.';

describe.each(testDatabases())('the clause library on $name', (database) => {
  let db: Db;
  let library: ClauseLibrary;
  const events: ProductEvent[] = [];

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
      // Where templates place clauses is clause-usage.test.ts's subject.
      clauseKeysOf: () => [],
    });
  });
  afterAll(async () => {
    await db.destroy();
  });

  const audit = (subject: string) => auditEntries(db, subject);

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
});
