import { describe, expect, it } from 'vitest';
import { catalogueEntry } from './catalogue.js';
import { checkDataList, dealIssues } from './data-lists.js';

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

describe('an extension (Verlängerung)', () => {
  const extension = entry('verlaengerung-de-wm-k');

  it('reads the new end in either notation, and German amounts, into ISO and numbers', () => {
    for (const [given, iso] of [
      ['2027-03-31', '2027-03-31'],
      ['31.03.2027', '2027-03-31'],
      [' 1.4.2027 ', '2027-04-01'],
    ] as const) {
      const result = checkDataList(extension, {
        vertragspartner_type: 'k',
        neuesEnde: given,
        neuerSatzRemote: '1.234,50',
        neuerSatzOnsite: 98.5,
        neueStundenProWoche: '32',
      });
      expect(result).toEqual({
        ok: true,
        dataList: {
          vertragspartner_type: 'k',
          neuesEnde: iso,
          neuerSatzRemote: 1234.5,
          neuerSatzOnsite: 98.5,
          neueStundenProWoche: 32,
        },
      });
    }
  });

  it('leaves out what the form left empty: the rates stay as they were', () => {
    const result = checkDataList(extension, {
      vertragspartner_type: 'k',
      neuesEnde: '2027-06-30',
      neuerSatzRemote: null,
      neuerSatzOnsite: '',
      neueStundenProWoche: '  ',
    });
    expect(result).toEqual({ ok: true, dataList: { vertragspartner_type: 'k', neuesEnde: '2027-06-30' } });
  });

  it('names the missing end, an impossible date, and amounts out of range, in German', () => {
    const missing = checkDataList(extension, { vertragspartner_type: 'k' });
    expect(missing).toEqual({ ok: false, fields: { neuesEnde: ['Bitte gib das neue Vertragsende an.'] } });
    const bad = checkDataList(extension, {
      vertragspartner_type: 'k',
      neuesEnde: '31.02.2027',
      neuerSatzRemote: '-5',
      neueStundenProWoche: 81,
      neuerSatzOnsite: 'viel',
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.fields.neuesEnde).toEqual(['Kein gültiges Datum (TT.MM.JJJJ).']);
    expect(bad.fields.neuerSatzRemote?.[0]).toMatch(/Stundensatz zwischen 0 und 100\.000 €/);
    expect(bad.fields.neuerSatzOnsite?.[0]).toMatch(/Stundensatz/);
    expect(bad.fields.neueStundenProWoche?.[0]).toMatch(/höchstens 80/);
  });

  it('does not ask another additional agreement for an end', () => {
    expect(checkDataList(entry('zusatz-wm-k-misc'), { vertragspartner_type: 'k' })).toEqual({
      ok: true,
      dataList: { vertragspartner_type: 'k' },
    });
  });

  it('refuses an end before the contract began, naming both days; a missing start is no reason', () => {
    const dataList = { vertragspartner_type: 'k' as const, neuesEnde: '2026-12-31' };
    expect(dealIssues(extension, { startdatum: '2027-01-15' }, dataList)).toEqual({
      neuesEnde: ['Das neue Ende (31.12.2026) liegt vor dem Beginn des Vertrags (15.01.2027).'],
    });
    expect(dealIssues(extension, { startdatum: '15.01.2026' }, dataList)).toEqual({});
    expect(dealIssues(extension, { startdatum: undefined }, dataList)).toEqual({});
    expect(dealIssues(entry('zusatz-wm-k-misc'), { startdatum: '2027-01-15' }, dataList)).toEqual({});
  });
});
