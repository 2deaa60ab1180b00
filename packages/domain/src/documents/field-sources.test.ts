import { describe, expect, it } from 'vitest';
import { MATCH_NUMERIC_FIELDS, type ResolvedMatch, resolvedMatchSchema } from '../match.js';
import { CATALOGUE, type CatalogueEntry, catalogueEntry } from './catalogue.js';
import type { DataList } from './data-lists.js';
import {
  MATCH_FIELD_LABELS,
  matchFieldSource,
  missingMatchValues,
  type ResolvedMatchField,
  TEMPLATE_FIELD_SOURCES,
  type TemplateTextField,
} from './field-sources.js';
import { buildTemplateData, type CompanyProfile } from './template-data.js';
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
  managingDirectors: ['Greta Gerber'],
  email: 'info@wm.example',
  phone: '+49 40 000000',
  website: 'wm.example',
};

const complete: ResolvedMatch = {
  matchId: 'PL-10001',
  beraterJob: 'Anna Albrecht',
  beraterKandidat: 'Bernd Brinkmann',
  candidateFirstName: 'Jana',
  candidateLastName: 'Kowalski',
  ppGesellschaft: 'Jana Kowalski IT-Beratung',
  ppAdresse: 'Lindenallee 14, 22587 Hamburg',
  kunde: 'Elbwerk Logistik AG',
  ansprechpartnerKunde: 'Markus Oberländer',
  adresseKunde: 'Kaiwiese 12, 20457 Hamburg',
  startdatum: '2027-01-04',
  enddatum: '2027-06-30',
  kuendigungsfristKunde: '4 Wochen zum Monatsende',
  zahlungszielPP: '30 days',
  zahlungszielKunde: '30 Tage',
  verguetungssatz: 92,
  ek: 92,
  vk: '118,50',
  ek2: 98,
  vk2: 128,
  stundenProWoche: 40,
  einsatzort: 'Hamburg',
  position: 'SAP-Berater',
  aufgabenbeschreibung: 'Migration',
  addAgreements: 'Reisekosten nach Aufwand',
  Anstellungsart: 'Freiberufler',
  vertragspartnerPP: 'WM Consulting GmbH',
  vertragspartnerKunde: 'WM Consulting GmbH',
};

const MATCH_FIELDS = Object.keys(resolvedMatchSchema.shape).filter(
  (field) => field !== 'matchId',
) as ResolvedMatchField[];
const TEXT_FIELDS = Object.entries(TEMPLATE_FIELDS)
  .filter(([, field]) => field.kind === 'text')
  .map(([name]) => name as TemplateTextField);
const ENTRIES = [...CATALOGUE.values()];

/** What the key's form would send; only the termination position and the offer volume reach text fields. */
function dataListFor({ form, params }: CatalogueEntry): DataList {
  const vertragspartner_type = params.partner;
  if (form === 'termination')
    return { selectedPerson: 'x', position: 'Aus dem Formular', vertragspartner_type };
  if (form === 'offer')
    return { projectHours: 160, projectDays: 20, selectedPerson: 'x', vertragspartner_type };
  return { vertragspartner_type };
}

const build = (entry: CatalogueEntry, match: ResolvedMatch) =>
  buildTemplateData(entry, match, dataListFor(entry), { company, today: new Date(2026, 10, 21) });

const reads = (entry: CatalogueEntry, field: TemplateTextField): ResolvedMatchField[] => {
  const source = matchFieldSource(field, entry);
  return source ? [...source.shows, ...(source.otherwise ?? [])] : [];
};

function sampleValue(field: ResolvedMatchField): string | number {
  if (field === 'startdatum' || field === 'enddatum') return '2027-03-01';
  return (MATCH_NUMERIC_FIELDS as readonly string[]).includes(field) ? 77 : `Wert von ${field}`;
}

describe('TEMPLATE_FIELD_SOURCES', () => {
  it('names only text fields of the dictionary', () => {
    for (const field of Object.keys(TEMPLATE_FIELD_SOURCES)) {
      expect(TEMPLATE_FIELDS[field as TemplateTextField]?.kind, field).toBe('text');
    }
  });

  describe.each(ENTRIES.map((entry) => [entry.key, entry] as const))('%s', (_key, entry) => {
    const empty = build(entry, { matchId: complete.matchId });

    it('predicts exactly the text fields that a match with one field set changes', () => {
      for (const field of MATCH_FIELDS) {
        const data = build(entry, { matchId: complete.matchId, [field]: sampleValue(field) });
        const changed = TEXT_FIELDS.filter((text) => data[text] !== empty[text]);
        const predicted = TEXT_FIELDS.filter((text) => reads(entry, text).includes(field));
        expect(changed, `only ${field} set`).toEqual(predicted);
      }
    });

    it('reports a single-field value exactly when the document shows a blank line for it', () => {
      const singles = TEXT_FIELDS.flatMap((text) => {
        const source = matchFieldSource(text, entry);
        return source?.shows.length === 1 && !source.otherwise ? [[text, source.shows[0]] as const] : [];
      });
      for (const [text, field] of singles) {
        if (!field) continue;
        for (const value of [undefined, '  ', 'kein Wert', '31.02.2027', 12]) {
          const match = { ...complete, [field]: value };
          const blank = build(entry, match)[text] === BLANK_LINE;
          const reported = missingMatchValues(entry, match, [text]).map((m) => m.field);
          expect(reported, `${text} with ${field} = ${JSON.stringify(value)}`).toEqual(blank ? [field] : []);
        }
      }
    });
  });
});

describe('missingMatchValues', () => {
  const entry = (key: string): CatalogueEntry => {
    const found = catalogueEntry(key);
    if (!found) throw new Error(key);
    return found;
  };

  it('reports nothing for a complete match', () => {
    for (const key of CATALOGUE.keys()) {
      expect(missingMatchValues(entry(key), complete, TEXT_FIELDS), key).toEqual([]);
    }
  });

  it('reads the side of the key: VK for the customer, EK for the project partner', () => {
    const match = { ...complete, vk: undefined, ek: '  ', einsatzort: undefined, startdatum: '31.02.2027' };
    const shown: TemplateTextField[] = ['einsatzort', 'stundensatzRemote', 'startdatum', 'kunde'];
    expect(missingMatchValues(entry('de-wm-k-rv-1'), match, shown)).toEqual([
      { field: 'startdatum', label: 'Startdatum' },
      { field: 'vk', label: 'VK Remote' },
      { field: 'einsatzort', label: 'Einsatzort' },
    ]);
    expect(missingMatchValues(entry('de-wm-pp-rv'), match, shown)).toEqual([
      { field: 'startdatum', label: 'Startdatum' },
      { field: 'ek', label: 'EK Remote' },
      { field: 'einsatzort', label: 'Einsatzort' },
    ]);
  });

  it('reports only what the shown text fields read', () => {
    const match = { ...complete, einsatzort: undefined, position: undefined };
    expect(missingMatchValues(entry('docx-de-wm-rv'), match, ['kunde', 'position'])).toEqual([
      { field: 'position', label: 'Position' },
    ]);
    // The termination names the position its form holds.
    expect(missingMatchValues(entry('kuendigung-wm-k-confirmation'), match, ['kuendigungPosition'])).toEqual(
      [],
    );
  });

  it('names a partner without a company by their name, and reports the company only when the name is missing too', () => {
    const pp = entry('de-wm-pp-rv');
    const withoutCompany = { ...complete, ppGesellschaft: undefined };
    expect(missingMatchValues(pp, withoutCompany, ['partnerName'])).toEqual([]);
    expect(missingMatchValues(pp, withoutCompany, ['partnerName', 'projektpartnerGesellschaft'])).toEqual([
      { field: 'ppGesellschaft', label: 'Projektpartner Gesellschaft' },
    ]);
    const nobody = { ...withoutCompany, candidateFirstName: undefined, candidateLastName: ' ' };
    expect(missingMatchValues(pp, nobody, ['partnerName', 'projektpartnerName'])).toEqual([
      { field: 'candidateFirstName', label: 'Projektpartner' },
      { field: 'ppGesellschaft', label: 'Projektpartner Gesellschaft' },
    ]);
    expect(
      missingMatchValues(pp, { ...complete, candidateFirstName: undefined }, ['projektpartnerName']),
    ).toEqual([{ field: 'candidateFirstName', label: 'Projektpartner' }]);
  });

  it('reports a rate the offer cannot total', () => {
    const offer = entry('angebot-wm');
    expect(missingMatchValues(offer, { ...complete, vk: 'nach Absprache' }, ['angebotStundensatz'])).toEqual(
      [],
    );
    expect(missingMatchValues(offer, { ...complete, vk: 'nach Absprache' }, ['angebotSumme'])).toEqual([
      { field: 'vk', label: 'VK Remote' },
    ]);
  });
});

describe('MATCH_FIELD_LABELS', () => {
  it('labels every match field with its display label, in the order of the match table', () => {
    expect(Object.keys(MATCH_FIELD_LABELS).sort()).toEqual([...MATCH_FIELDS].sort());
    expect(Object.keys(MATCH_FIELD_LABELS).slice(0, 5)).toEqual([
      'beraterJob',
      'beraterKandidat',
      'candidateFirstName',
      'candidateLastName',
      'ppGesellschaft',
    ]);
    expect(MATCH_FIELD_LABELS).toMatchObject({
      candidateFirstName: 'Projektpartner',
      candidateLastName: 'Projektpartner',
      vk: 'VK Remote',
      ek: 'EK Remote',
      kuendigungsfristKunde: 'Kündigungsfrist',
    });
  });
});
