import { createRequire } from 'node:module';
import {
  type CatalogueEntry,
  type DocumentFamily,
  isMissing,
  parseGermanNumber,
  type ResolvedMatch,
  type RuleFieldName,
} from '@vertragsgenerator/domain';
import countries from 'i18n-iso-countries';

/**
 * What a clause rule can test about one document of one deal (RULE_FIELDS): taken from the catalogue entry
 * and the deal's CRM values, once per document. A value the deal lacks is null and matches no comparison
 * but `!=` — a missing rate never passes a threshold.
 */
export type DealFacts = { [name in RuleFieldName]: string | number | null };

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/de.json'));
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

const DOCUMENT_KINDS: Record<DocumentFamily, string> = {
  contract: 'vertrag',
  termination: 'kuendigung',
  offer: 'angebot',
  agreement: 'zusatzvereinbarung',
};

export function dealFacts(entry: CatalogueEntry, match: ResolvedMatch): DealFacts {
  const { params } = entry;
  const customer = params.partner === 'k';
  return {
    firma: params.company,
    partner: customer ? 'kunde' : 'projektpartner',
    dokument: DOCUMENT_KINDS[params.family],
    vertragsart:
      params.family === 'contract' ? (params.contract === 'rv' ? 'rahmenvertrag' : 'einzelauftrag') : null,
    sprache: params.language,
    anstellungsart: isMissing(match.Anstellungsart) ? null : String(match.Anstellungsart).trim(),
    land: countryOfAddress(isMissing(match.adresseKunde) ? '' : String(match.adresseKunde)),
    remoteAnteil: remoteShare(isMissing(match.einsatzort) ? '' : String(match.einsatzort)),
    satz: numberOf(match, customer ? 'vk' : 'ek'),
    stunden: numberOf(match, 'stundenProWoche'),
  };
}

/** A rate or hours as a number; the match has its fallbacks applied already (vk ← tagessatzRemote). */
function numberOf(match: ResolvedMatch, field: 'vk' | 'ek' | 'stundenProWoche'): number | null {
  return parseGermanNumber(match[field]) ?? null;
}

/** Postal codes written with the country's old vehicle letter, as Swiss and Austrian letters often are. */
const POSTCODE_PREFIXES: Record<string, string> = { CH: 'CH', A: 'AT', D: 'DE', FL: 'LI', L: 'LU', NL: 'NL' };

/**
 * The customer's country from its address, as an ISO code: a country name in German or English on any line
 * or after a comma („8001 Zürich, Schweiz“), or a prefixed postcode („CH-8001 Zürich“). An address naming
 * no country is German — the CRM writes domestic addresses without one.
 */
export function countryOfAddress(address: string): string {
  const parts = address
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  for (const part of parts) {
    const code = countries.getAlpha2Code(part, 'de') ?? countries.getAlpha2Code(part, 'en');
    if (code) return code;
  }
  for (const part of parts) {
    const prefixed = /^([A-Z]{1,2})-\d{4,5}\b/.exec(part);
    const code = prefixed?.[1] ? POSTCODE_PREFIXES[prefixed[1]] : undefined;
    if (code) return code;
  }
  return 'DE';
}

/**
 * The remote share in percent from the place of work: a percentage next to „remote“ („50 % remote“,
 * „remote 80%“), „remote“ alone 100, anything else (a city, „vor Ort“) 0.
 */
export function remoteShare(place: string): number {
  const text = place.toLowerCase();
  if (!/\bremote\b/.test(text)) return 0;
  const percent = /(\d{1,3}(?:[.,]\d+)?)\s*%/.exec(text);
  if (!percent?.[1]) return 100;
  return Math.min(100, Number(percent[1].replace(',', '.')));
}
