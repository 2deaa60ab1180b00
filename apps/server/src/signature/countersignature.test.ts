import { CATALOGUE, type CatalogueEntry, type TemplateData } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { loadCompanyData } from '../templates/companies.js';
import { Countersignature, docusignRecipientsWith, recipientsWith } from './countersignature.js';

const { configDir } = loadConfig({}, '0');
const companyData = await loadCompanyData(configDir);
const entry = (key: string) => CATALOGUE.get(key) as CatalogueEntry;
const data = (unterzeichnerName: string) => ({ unterzeichnerName }) as unknown as TemplateData;
const partner = { role: 'Projektpartner' as const, name: 'Paul', email: 'paul@pp.example', routingOrder: 1 };

describe('countersignature', () => {
  const countersignature = (withoutAllowed = false, first: string[] = []) =>
    new Countersignature({
      companyData,
      withoutAllowed: async () => withoutAllowed,
      position: async (template) => (first.includes(template) ? 'first' : 'last'),
    });

  it("offers the signatories at the company's mail domain, or all where none is", () => {
    const ids = (key: string) =>
      countersignature()
        .signatories(key)
        .map((s) => s.id);
    expect(ids('de-wm-pp-rv')).toEqual(['henrik-albers', 'lea-brandt']);
    expect(ids('de-we-pp-ev')).toEqual(['sabine-kroll']);
    expect(ids('de-wp-pp-rv')).toEqual(['henrik-albers', 'sabine-kroll', 'lea-brandt']);
  });

  it('places the chosen signatory after the last external signer, with their function', async () => {
    const signer = await countersignature().countersigner(
      'de-wm-k-rv-2',
      {
        countersignatory: 'lea-brandt',
        recipients: [
          { role: 'Kunde', name: 'Klara', email: 'klara@k.example', routingOrder: 1 },
          { role: 'Kunde2', name: 'Karl', email: 'karl@k.example', routingOrder: 3 },
          { role: 'CC', name: 'Conny', email: 'conny@k.example', routingOrder: 7 },
        ],
      },
      undefined as never,
    );
    expect(signer).toEqual({
      role: 'Firma',
      name: 'Lea Brandt',
      email: 'lea.brandt@wm-consulting.example',
      routingOrder: 4,
      function: 'Leiterin Recht & Verträge',
      position: 'last',
    });
  });

  it('puts the company first where its template says so, every other recipient one routing step later', async () => {
    const recipients = [
      { role: 'Kunde' as const, name: 'Klara', email: 'klara@k.example', routingOrder: 1 },
      { role: 'Kunde2' as const, name: 'Karl', email: 'karl@k.example', routingOrder: 2 },
      { role: 'CC' as const, name: 'Conny', email: 'conny@k.example', routingOrder: 2 },
    ];
    const request = { countersignatory: 'henrik-albers', recipients };
    const framework = countersignature(false, ['rahmenvertrag-de.docx']);
    const first = await framework.countersigner('de-wm-k-rv-2', request, undefined as never);
    expect(first).toMatchObject({ name: 'Henrik Albers', routingOrder: 1, position: 'first' });
    expect(recipientsWith(recipients, first).map((r) => [r.routingOrder, r.role])).toEqual([
      [1, 'Firma'],
      [2, 'Kunde'],
      [3, 'Kunde2'],
      [3, 'CC'],
    ]);
    // Another template of the same company keeps the company last.
    const last = await framework.countersigner('de-wm-k-ev-2', request, undefined as never);
    expect(last).toMatchObject({ routingOrder: 3, position: 'last' });
    expect(recipientsWith(recipients, last).map((r) => [r.routingOrder, r.role])).toEqual([
      [1, 'Kunde'],
      [2, 'Kunde2'],
      [2, 'CC'],
      [3, 'Firma'],
    ]);
    expect(recipientsWith(recipients, null)).toBe(recipients);
  });

  it('refuses a missing countersignatory only where the family needs one', async () => {
    const request = { recipients: [partner], countersignatory: null };
    expect(await countersignature(true).countersigner('de-wm-pp-rv', request, undefined as never)).toBeNull();
    await expect(
      countersignature(false).countersigner('de-wm-pp-rv', request, undefined as never),
    ).rejects.toMatchObject({ statusCode: 400, fields: { countersignatory: [expect.any(String)] } });
  });

  it("proposes for DocuSign the signatory the company's block names, else the company's first", async () => {
    const wm = await countersignature().proposed(entry('de-wm-pp-rv'), data('Lea Brandt'), [partner]);
    expect(wm).toMatchObject({ role: 'Firma', name: 'Lea Brandt', routingOrder: 2 });
    const we = await countersignature().proposed(entry('de-we-pp-ev'), data('Stefan Reichelt'), [partner]);
    expect(we).toMatchObject({ name: 'Sabine Kroll', email: 'sabine.kroll@we-engineering.example' });
  });

  it('places DocuSign’s countersigner as the template says, the copies with the last signing step', async () => {
    const copy = { role: 'CC' as const, name: 'Conny', email: 'conny@pp.example', routingOrder: 1 };
    const steps = async (first: string[]) => {
      const recipients = [partner, copy];
      const proposed = await countersignature(false, first).proposed(
        entry('de-wm-pp-rv'),
        data('Lea Brandt'),
        recipients,
      );
      return docusignRecipientsWith(recipients, proposed).map((r) => [r.routingOrder, r.role]);
    };
    expect(await steps([])).toEqual([
      [1, 'Projektpartner'],
      [2, 'Firma'],
      [2, 'CC'],
    ]);
    expect(await steps(['rahmenvertrag-de.docx'])).toEqual([
      [1, 'Firma'],
      [2, 'Projektpartner'],
      [2, 'CC'],
    ]);
    expect(docusignRecipientsWith([partner, copy], null)).toEqual([partner, copy]);
  });
});
