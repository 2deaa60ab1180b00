import { readFile } from 'node:fs/promises';
import {
  type CatalogueEntry,
  type DataList,
  isMissing,
  isoDate,
  parseDate,
  parseGermanNumber,
  type ResolvedMatch,
  resolveMatch,
  type Signatory,
  type TemplateData,
} from '@vertragsgenerator/domain';
import { parseMatchFile } from '../matches/import.js';
import { type CompanyData, templateDataFor } from './companies.js';

/**
 * Sample input for every catalogue key: what `templates:preview` renders and the document tests
 * send, so legal staff see the same documents the tests read.
 */

/** The demo match with the most values, so that as many placeholders as possible show one. */
export async function richestDemoMatch(file: string): Promise<ResolvedMatch> {
  const { valid, refused } = parseMatchFile(await readFile(file, 'utf8'));
  if (refused.length > 0 || valid.length === 0) throw new Error(`${file}: no valid demo matches`);
  const matches = valid.map(resolveMatch);
  const filled = (match: ResolvedMatch) => Object.values(match).filter((value) => !isMissing(value)).length;
  return matches.reduce((best, match) => (filled(match) > filled(best) ? match : best));
}

/** The template data of a key for this match, with the dataList a user would fill in: what previews and trials render. */
export function sampleTemplateData(
  entry: CatalogueEntry,
  match: ResolvedMatch,
  companyData: CompanyData,
  today: Date,
): TemplateData {
  return templateDataFor(
    entry,
    match,
    sampleDataList(entry, match, companyData.signatories),
    companyData,
    today,
  );
}

/** A dataList that fits the key, filled as a user would fill the key's form for this match. */
export function sampleDataList(
  entry: CatalogueEntry,
  match: ResolvedMatch,
  signatories: readonly Signatory[],
): DataList {
  const vertragspartner_type = entry.params.partner;
  const signatory = signatories[0]?.id ?? '';
  switch (entry.form) {
    case 'docusign': {
      const sender = { Absender_UserName: 'Lena Legal', Absender_Email: 'legal@demo.local' };
      if (entry.params.partner === 'pp') {
        const name = [match.candidateFirstName, match.candidateLastName]
          .filter((n) => !isMissing(n))
          .join(' ');
        return {
          ...sender,
          Projektpartner_UserName: or(name, 'Projektpartner'),
          Projektpartner_Email: 'projektpartner@demo.local',
          vertragspartner_type,
        };
      }
      const second =
        entry.params.family === 'contract' && entry.params.customerSigners === 2
          ? { Kunde2_UserName: 'Zweite Unterschrift', Kunde2_Email: 'kunde2@demo.local' }
          : {};
      return {
        ...sender,
        Kunde_UserName: or(match.ansprechpartnerKunde, 'Ansprechpartner'),
        Kunde_Email: 'kunde@demo.local',
        ...second,
        vertragspartner_type,
      };
    }
    case 'termination':
      return {
        selectedPerson: signatory,
        position: match.position || 'Projektmitarbeit',
        vertragspartner_type,
      };
    case 'offer':
      return { projectHours: 160, projectDays: 20, selectedPerson: signatory, vertragspartner_type };
    case 'agreement':
      return entry.params.family === 'agreement' && entry.params.agreement === 'extension'
        ? sampleExtension(entry, match)
        : { vertragspartner_type };
    case 'docx':
      return { vertragspartner_type };
  }
}

/**
 * An extension as a user would fill it at the end of a quarter: six months more from the current end
 * (from the start where the match has no end), and the remote rate of the document's side 5 % up.
 */
function sampleExtension(entry: CatalogueEntry, match: ResolvedMatch): DataList {
  const from = parseDate(match.enddatum) ?? parseDate(match.startdatum) ?? { year: 2027, month: 1, day: 1 };
  const end = new Date(Date.UTC(from.year, from.month - 1 + 6, from.day));
  const rate = parseGermanNumber(entry.params.partner === 'k' ? match.vk : match.ek);
  return {
    vertragspartner_type: entry.params.partner,
    neuesEnde: isoDate({ year: end.getUTCFullYear(), month: end.getUTCMonth() + 1, day: end.getUTCDate() }),
    ...(rate === undefined ? {} : { neuerSatzRemote: Math.round(rate * 1.05 * 2) / 2 }),
  };
}

/** What a user would type: the match's value, or a stand-in where the match has none. */
const or = (value: string | undefined, standIn: string): string =>
  isMissing(value) ? standIn : (value as string);
