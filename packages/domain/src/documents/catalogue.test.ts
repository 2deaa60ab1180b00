import { describe, expect, it } from 'vitest';
import { CATALOGUE, catalogueEntry, catalogueTemplates, documentKeys, mayGenerate } from './catalogue.js';

const keysOf = (form: string) => [...CATALOGUE.values()].filter((e) => e.form === form).map((e) => e.key);

describe('document catalogue', () => {
  it('has exactly the 26 e-signature keys', () => {
    const expected: string[] = [];
    for (const lang of ['de', 'en'])
      for (const company of ['wm', 'we'])
        for (const contract of ['rv', 'ev']) {
          for (const signers of [1, 2]) expected.push(`${lang}-${company}-k-${contract}-${signers}`);
          expected.push(`${lang}-${company}-pp-${contract}`);
        }
    expected.push('de-wp-pp-rv', 'de-wp-pp-ev');
    expect(keysOf('docusign').sort()).toEqual(expected.sort());
  });

  it('has the 8 DOCX customer contracts, 15 terminations, 2 offers, 15 additional agreements and 9 extensions', () => {
    expect(keysOf('docx').sort()).toEqual(
      ['de', 'en']
        .flatMap((l) => ['wm', 'we'].flatMap((c) => ['rv', 'ev'].map((t) => `docx-${l}-${c}-${t}`)))
        .sort(),
    );
    const partnerCombos = [
      ['wm', 'k'],
      ['wm', 'pp'],
      ['we', 'k'],
      ['we', 'pp'],
      ['wp', 'pp'],
    ];
    expect(keysOf('termination').sort()).toEqual(
      partnerCombos
        .flatMap(([c, p]) => [
          `kuendigung-${c}-${p}-termination-gerecht`,
          `kuendigung-${c}-${p}-termination-los`,
          `kuendigung-${c}-${p}-confirmation`,
        ])
        .sort(),
    );
    expect(keysOf('offer').sort()).toEqual(['angebot-we', 'angebot-wm']);
    // An extension in every language of its company: wp writes German only.
    expect(keysOf('agreement').sort()).toEqual(
      partnerCombos
        .flatMap(([c, p]) => [
          ...['descr', 'hours', 'misc'].map((t) => `zusatz-${c}-${p}-${t}`),
          ...(c === 'wp' ? ['de'] : ['de', 'en']).map((l) => `verlaengerung-${l}-${c}-${p}`),
        ])
        .sort(),
    );
    expect(CATALOGUE.size).toBe(26 + 8 + 15 + 2 + 15 + 9);
  });

  it('knows nothing else', () => {
    for (const key of [
      'de-wp-k-rv-1',
      'en-wp-pp-rv',
      'de-wm-k-rv-3',
      'docx-de-wp-rv',
      'angebot-wp',
      'kuendigung-wp-k-confirmation',
      '',
      'DE-WM-PP-RV',
    ]) {
      expect(catalogueEntry(key), key).toBeUndefined();
    }
  });

  it('turns form choices into keys', () => {
    expect(
      documentKeys.docusign({
        language: 'de',
        company: 'wm',
        partner: 'k',
        contract: 'rv',
        customerSigners: 2,
      }),
    ).toBe('de-wm-k-rv-2');
    expect(
      documentKeys.docusign({
        language: 'en',
        company: 'we',
        partner: 'pp',
        contract: 'ev',
        customerSigners: 2,
      }),
    ).toBe('en-we-pp-ev');
    expect(
      documentKeys.termination({ company: 'we', partner: 'k', document: 'termination', deadline: 'los' }),
    ).toBe('kuendigung-we-k-termination-los');
    expect(
      documentKeys.termination({ company: 'we', partner: 'k', document: 'confirmation', deadline: 'los' }),
    ).toBe('kuendigung-we-k-confirmation');
    // A choice outside the catalogue still yields a key — the catalogue is what refuses it.
    expect(
      catalogueEntry(documentKeys.docusign({ language: 'en', company: 'wp', partner: 'pp', contract: 'rv' })),
    ).toBeUndefined();
  });

  it('lets each level generate what its permission allows', () => {
    const allowed = (level: 1 | 2 | 3) => [...CATALOGUE.values()].filter((e) => mayGenerate(level, e));
    expect(allowed(2)).toHaveLength(CATALOGUE.size);
    expect(allowed(1).every((e) => e.form === 'docusign' && e.params.partner === 'pp')).toBe(true);
    expect(allowed(1)).toHaveLength(10);
    expect(
      allowed(3)
        .map((e) => e.key)
        .sort(),
    ).toEqual([...allowed(1).map((e) => e.key), 'angebot-we', 'angebot-wm'].sort());
    expect([...CATALOGUE.values()].some((e) => mayGenerate(null, e))).toBe(false);
  });

  it('uses a small set of templates, one per family and language', () => {
    expect(catalogueTemplates()).toEqual([
      'angebot-de.docx',
      'einzelauftrag-de.docx',
      'einzelauftrag-en.docx',
      'kuendigung-de.docx',
      'rahmenvertrag-de.docx',
      'rahmenvertrag-en.docx',
      'verlaengerung-de.docx',
      'verlaengerung-en.docx',
      'zusatzvereinbarung-de.docx',
    ]);
    expect(catalogueEntry('verlaengerung-en-we-pp')).toMatchObject({
      form: 'agreement',
      template: 'verlaengerung-en.docx',
      params: { family: 'agreement', language: 'en', company: 'we', partner: 'pp', agreement: 'extension' },
      levels: [2],
    });
    expect(catalogueEntry('en-wm-k-ev-2')).toMatchObject({
      template: 'einzelauftrag-en.docx',
      params: {
        family: 'contract',
        language: 'en',
        company: 'wm',
        partner: 'k',
        contract: 'ev',
        customerSigners: 2,
      },
    });
  });
});
