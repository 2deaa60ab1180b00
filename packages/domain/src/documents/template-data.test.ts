import { describe, expect, it } from 'vitest';
import { resolveMatch } from '../match.js';
import { catalogueEntry } from './catalogue.js';
import type { DataList } from './data-lists.js';
import { buildTemplateData, type CompanyProfile, SIGNATURE_ANCHORS } from './template-data.js';
import { BLANK_LINE, TEMPLATE_FIELDS } from './template-fields.js';

const company: CompanyProfile = {
  code: 'wm',
  name: 'WM Consulting GmbH',
  street: 'Ballindamm 7',
  postalCode: '20095',
  city: 'Hamburg',
  registerCourt: 'Amtsgericht Hamburg',
  registerNumber: 'HRB 100001',
  vatId: 'DE100000001',
  managingDirectors: ['Greta Gerber', 'Paul Peters'],
  email: 'info@wm.example',
  phone: '+49 40 000000',
  website: 'wm.example',
};

const match = resolveMatch({
  matchId: 'PL-10001',
  candidateFirstName: 'Jana',
  candidateLastName: 'Kowalski',
  ppAdresse: 'Lindenstraße 3, 04109 Leipzig',
  kunde: 'Elbwerk Logistik AG',
  ansprechpartnerKunde: 'Kai Kunde',
  adresseKunde: 'Kaistraße 1, 20457 Hamburg',
  startdatum: '2027-01-04',
  enddatum: '2027-02-30',
  kuendigungsfrist: '2 weeks',
  zahlungszielPP: '30 days',
  zahlungszielKunde: '14 Tage',
  tagessatzEk: 92,
  vk: '118,50',
  vk2: 130,
  stundenProWoche: '32',
  aufgabenbeschreibung: 'Zeile 1\nZeile 2',
  addAgreements: 'Reisekosten & Spesen nach Aufwand',
});
const today = new Date(2026, 10, 21);
const build = (
  key: string,
  dataList: DataList,
  signatory?: { id: string; name: string; function: string; email: string },
) => {
  const entry = catalogueEntry(key);
  if (!entry) throw new Error(key);
  return buildTemplateData(entry, match, dataList, { company, today, ...(signatory ? { signatory } : {}) });
};

describe('buildTemplateData', () => {
  it('fills exactly the fields of the dictionary', () => {
    const data = build('de-wm-pp-rv', { vertragspartner_type: 'pp' });
    expect(Object.keys(data).sort()).toEqual(Object.keys(TEMPLATE_FIELDS).sort());
    for (const [name, field] of Object.entries(TEMPLATE_FIELDS)) {
      const value = data[name as keyof typeof data];
      if (field.kind === 'condition') expect(typeof value, name).toBe('boolean');
      if (field.kind === 'text') expect(typeof value, name).toBe('string');
    }
  });

  it('fills a partner contract with the purchase side of the match', () => {
    const data = build('de-wm-pp-rv', {
      vertragspartner_type: 'pp',
      Projektpartner_UserName: 'Jana Kowalski',
      Absender_UserName: 'Lena Legal',
    } as DataList);
    expect(data).toMatchObject({
      dokumentDatum: '21.11.2026',
      firmaPlzOrt: '20095 Hamburg',
      firmaGeschaeftsfuehrer: 'Greta Gerber, Paul Peters',
      partnerName: 'Jana Kowalski', // no partner company: the person contracts
      partnerAdresse: 'Lindenstraße 3, 04109 Leipzig',
      startdatum: '04.01.2027',
      zahlungsziel: '30 Tage',
      kuendigungsfrist: '2 Wochen',
      stundensatzRemote: '92,00 €',
      stundensatzOnsite: BLANK_LINE,
      hatOnsiteSatz: false,
      stundenProWoche: '32',
      mitProjektpartner: true,
      mitKunde: false,
      rahmenvertrag: true,
      zweiKundenUnterschriften: false,
    });
    expect(data.unterschriften).toEqual([
      {
        seite: 'Für den Auftraggeber',
        firma: 'WM Consulting GmbH',
        name: 'Greta Gerber',
        funktion: 'Geschäftsführer',
        ...SIGNATURE_ANCHORS.firma,
      },
      {
        seite: 'Für den Auftragnehmer',
        firma: 'Jana Kowalski',
        name: 'Jana Kowalski',
        funktion: BLANK_LINE,
        ...SIGNATURE_ANCHORS.projektpartner,
      },
    ]);
  });

  it('fills a customer contract with the sale side and one or two customer signers', () => {
    const data = build('en-wm-k-ev-2', {
      vertragspartner_type: 'k',
      Kunde_UserName: 'Kai Kunde',
      Kunde2_UserName: 'Karla Kunde',
    } as DataList);
    expect(data).toMatchObject({
      partnerName: 'Elbwerk Logistik AG',
      partnerAnsprechpartner: 'Kai Kunde',
      zahlungsziel: '14 days', // English contract, English units
      kuendigungsfrist: '2 weeks',
      stundensatzRemote: '118,50 €',
      stundensatzOnsite: '130,00 €',
      hatOnsiteSatz: true,
      einzelauftrag: true,
      zweiKundenUnterschriften: true,
    });
    expect(data.unterschriften.map((b) => [b.seite, b.name, b.ankerSignatur])).toEqual([
      ['For the Contractor', 'Greta Gerber', '/sig_firma/'],
      ['For the Client', 'Kai Kunde', '/sig_kunde1/'],
      ['For the Client', 'Karla Kunde', '/sig_kunde2/'],
    ]);
  });

  it('shows a blank line, never "Ungültiges Datum" or "undefined", for unusable and missing values', () => {
    const data = build('docx-de-wm-rv', { vertragspartner_type: 'k' });
    expect(data.enddatum).toBe(BLANK_LINE); // 30 February
    expect(data.einsatzort).toBe(BLANK_LINE);
    expect(data.projektpartnerGesellschaft).toBe(BLANK_LINE);
    expect(JSON.stringify(data)).not.toMatch(/undefined|null|Ungültiges Datum/);
  });

  it('prices an offer in cents: hours × sale rate', () => {
    const signatory = { id: 'sg', name: 'Sabine Graf', function: 'Prokuristin', email: 'sg@wm.example' };
    const data = build(
      'angebot-wm',
      { projectHours: 160, projectDays: 20, selectedPerson: 'sg', vertragspartner_type: 'k' },
      signatory,
    );
    expect(data).toMatchObject({
      angebotStunden: '160',
      angebotTage: '20',
      angebotStundensatz: '118,50 €',
      angebotSumme: '18.960,00 €',
      unterzeichnerName: 'Sabine Graf',
      unterzeichnerFunktion: 'Prokuristin',
    });
    expect(data.unterschriften).toEqual([]);
  });

  it('carries the termination position and kind', () => {
    const data = build('kuendigung-wm-pp-termination-los', {
      selectedPerson: 'x',
      position: 'SAP-Berater',
      vertragspartner_type: 'pp',
    });
    expect(data).toMatchObject({
      kuendigungPosition: 'SAP-Berater',
      kuendigung: true,
      fristlos: true,
      fristgerecht: false,
      bestaetigung: false,
    });
    const confirmation = build('kuendigung-wm-k-confirmation', {
      selectedPerson: 'x',
      position: 'PM',
      vertragspartner_type: 'k',
    });
    expect(confirmation).toMatchObject({ kuendigung: false, bestaetigung: true });
  });

  it('puts the changed value of an additional agreement into zusatzText', () => {
    expect(build('zusatz-wm-k-descr', { vertragspartner_type: 'k' })).toMatchObject({
      zusatzAufgaben: true,
      zusatzText: 'Zeile 1\nZeile 2',
    });
    expect(build('zusatz-wm-pp-hours', { vertragspartner_type: 'pp' })).toMatchObject({
      zusatzStunden: true,
      zusatzText: '32',
    });
    expect(build('zusatz-wm-k-misc', { vertragspartner_type: 'k' })).toMatchObject({
      zusatzSonstiges: true,
      zusatzText: 'Reisekosten & Spesen nach Aufwand',
    });
    expect(build('zusatz-wm-k-misc', { vertragspartner_type: 'k' }).unterschriften).toHaveLength(2);
  });

  it('fills an extension with its new end and only the rates and hours it changes', () => {
    const changed = build('verlaengerung-en-wm-pp', {
      vertragspartner_type: 'pp',
      neuesEnde: '2027-06-30',
      neuerSatzRemote: 96,
      neueStundenProWoche: 37.5,
    });
    expect(changed).toMatchObject({
      verlaengerung: true,
      verlaengerungBis: '30.06.2027',
      neuerStundensatzRemote: '96,00 €',
      neuerStundensatzOnsite: BLANK_LINE,
      neueStundenProWoche: '37,5',
      mitNeuemSatzRemote: true,
      mitNeuemSatzOnsite: false,
      mitNeuenStunden: true,
      zusatzText: BLANK_LINE,
      unterschriften: [{ seite: 'For the Client' }, { seite: 'For the Contractor' }],
    });
    // Every other document leaves the extension's fields blank and false.
    expect(build('zusatz-wm-k-misc', { vertragspartner_type: 'k' })).toMatchObject({
      verlaengerung: false,
      verlaengerungBis: BLANK_LINE,
      mitNeuemSatzRemote: false,
      mitNeuenStunden: false,
    });
  });
});
