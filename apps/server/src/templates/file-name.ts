import { BLANK_LINE, type CatalogueEntry, documentName, type TemplateData } from '@vertragsgenerator/domain';

/** Long enough for any real customer name, short enough for every file system and mail client. */
const MAX_NAME_LENGTH = 150;

// Characters Windows, macOS or Linux refuse in file names, control characters, and lone surrogates
// (which cannot be encoded for the header).
const NOT_IN_FILE_NAMES = /[\\/:*?"<>|]|\p{Cc}|\p{Surrogate}/gu;

/**
 * The file name a user sees in the download and in the drive, naming match, document and party,
 * e.g. `PL-10001 Rahmenvertrag Kunde Elbwerk Logistik AG.docx`. The party's name is the template
 * data's, so the file names the party the document does.
 */
export function documentFileName(
  entry: CatalogueEntry,
  { matchId, partnerName }: Pick<TemplateData, 'matchId' | 'partnerName'>,
): string {
  const party = entry.params.partner === 'k' ? 'Kunde' : 'Projektpartner';
  const name = partnerName === BLANK_LINE ? '' : String(partnerName);
  const parts = [String(matchId), documentName(entry.params), party, name];
  const joined = parts.join(' ').replace(NOT_IN_FILE_NAMES, ' ').replace(/\s+/g, ' ').trim();
  // Cut by code points, not UTF-16 units, and drop what Windows strips from a name's end.
  const shortened = Array.from(joined)
    .slice(0, MAX_NAME_LENGTH)
    .join('')
    .replace(/[\s.]+$/, '');
  return `${shortened}.docx`;
}
