import { describe, expect, it } from 'vitest';
import { catalogueEntry } from './catalogue.js';
import { checkDataList } from './data-lists.js';

const entry = (key: string) => {
  const found = catalogueEntry(key);
  if (!found) throw new Error(key);
  return found;
};

const sender = { Absender_UserName: 'Lena Legal', Absender_Email: 'legal@demo.local' };

describe('checkDataList', () => {
  it('accepts a complete e-signature list for a partner contract and drops blank optional fields', () => {
    const result = checkDataList(entry('de-wm-pp-rv'), {
      ...sender,
      Projektpartner_UserName: ' Jana Kowalski ',
      Projektpartner_Email: 'jana@example.org',
      CC_UserName: '',
      CC_Email: '  ',
      vertragspartner_type: 'pp',
    });
    expect(result).toEqual({
      ok: true,
      dataList: {
        ...sender,
        Projektpartner_UserName: 'Jana Kowalski',
        Projektpartner_Email: 'jana@example.org',
        vertragspartner_type: 'pp',
      },
    });
  });

  it('names every missing signer of a two-signer customer contract', () => {
    const result = checkDataList(entry('de-wm-k-rv-2'), {
      ...sender,
      Kunde_UserName: 'Kai Kunde',
      vertragspartner_type: 'k',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fields).sort()).toEqual(['Kunde2_Email', 'Kunde2_UserName', 'Kunde_Email']);
  });

  it('refuses malformed e-mails, half a CC and a partner type that does not fit the key', () => {
    const result = checkDataList(entry('en-we-pp-ev'), {
      ...sender,
      Projektpartner_UserName: 'P',
      Projektpartner_Email: 'kein-mail',
      CC_UserName: 'Carla',
      vertragspartner_type: 'k',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fields.Projektpartner_Email).toBeDefined();
    const again = checkDataList(entry('en-we-pp-ev'), {
      ...sender,
      Projektpartner_UserName: 'P',
      Projektpartner_Email: 'p@x.de',
      CC_UserName: 'Carla',
      vertragspartner_type: 'k',
    });
    expect(again.ok ? {} : Object.keys(again.fields).sort()).toEqual(['CC_Email', 'vertragspartner_type']);
  });

  it('accepts client as a synonym of k for offers and terminations', () => {
    const offer = checkDataList(entry('angebot-wm'), {
      projectHours: '160',
      projectDays: 20,
      selectedPerson: 'x',
      vertragspartner_type: 'client',
    });
    expect(offer).toEqual({
      ok: true,
      dataList: { projectHours: 160, projectDays: 20, selectedPerson: 'x', vertragspartner_type: 'k' },
    });
    const termination = checkDataList(entry('kuendigung-we-k-confirmation'), {
      selectedPerson: 'x',
      position: 'SAP',
      vertragspartner_type: 'client',
    });
    expect(termination.ok).toBe(true);
  });

  it('refuses offer volumes that are not numbers or out of range, and a blank termination position', () => {
    const offer = checkDataList(entry('angebot-we'), {
      projectHours: 'viele',
      projectDays: -1,
      selectedPerson: '',
      vertragspartner_type: 'k',
    });
    expect(offer.ok ? [] : Object.keys(offer.fields).sort()).toEqual([
      'projectDays',
      'projectHours',
      'selectedPerson',
    ]);
    const termination = checkDataList(entry('kuendigung-wp-pp-termination-los'), {
      selectedPerson: 'x',
      position: '  ',
      vertragspartner_type: 'pp',
    });
    expect(termination.ok ? [] : Object.keys(termination.fields)).toEqual(['position']);
  });

  it('refuses anything that is not an object', () => {
    for (const raw of [null, 'k', 42, []])
      expect(checkDataList(entry('zusatz-wm-k-misc'), raw).ok).toBe(false);
  });
});
