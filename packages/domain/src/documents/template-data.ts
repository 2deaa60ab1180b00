import {
  formatCalendarDate,
  formatGermanNumber,
  formatPaymentTerm,
  formatPaymentTermEnglish,
  formatPrice,
  parseDate,
  parseGermanNumber,
} from '../format.js';
import { type FieldValue, isMissing, type ResolvedMatch } from '../match.js';
import type { SignerRole } from '../signature.js';
import type { CatalogueEntry, DocumentParams } from './catalogue.js';
import type {
  AgreementDataList,
  DataList,
  EsignatureDataList,
  OfferDataList,
  TerminationDataList,
} from './data-lists.js';
import { BLANK_LINE, type TemplateFieldName } from './template-fields.js';

/** One of our companies as config/companies.json describes it. */
export interface CompanyProfile {
  code: string;
  name: string;
  street: string;
  postalCode: string;
  city: string;
  registerCourt: string;
  registerNumber: string;
  vatId: string;
  managingDirectors: string[];
  email: string;
  phone: string;
  website: string;
}

/** A person who signs for our companies (config/signatories.json). */
export interface Signatory {
  id: string;
  name: string;
  function: string;
  email: string;
}

export interface TemplateContext {
  company: CompanyProfile;
  /** The chosen signatory (offer, termination); contracts fall back to the first managing director. */
  signatory?: Signatory;
  today: Date;
}

export interface SignatureBlock {
  seite: string;
  firma: string;
  name: string;
  funktion: string;
  ankerSignatur: string;
  ankerDatum: string;
  ankerName: string;
}

export type TemplateData = Record<Exclude<TemplateFieldName, 'unterschriften'>, string | boolean> & {
  unterschriften: SignatureBlock[];
};

/**
 * Anchor strings in the signature blocks, in white text: the e-signature provider places each
 * signer's fields on them. One set per signing party.
 */
export const SIGNATURE_ANCHORS = {
  firma: { ankerSignatur: '/sig_firma/', ankerDatum: '/dat_firma/', ankerName: '/nam_firma/' },
  projektpartner: { ankerSignatur: '/sig_pp/', ankerDatum: '/dat_pp/', ankerName: '/nam_pp/' },
  kunde: { ankerSignatur: '/sig_kunde1/', ankerDatum: '/dat_kunde1/', ankerName: '/nam_kunde1/' },
  kunde2: { ankerSignatur: '/sig_kunde2/', ankerDatum: '/dat_kunde2/', ankerName: '/nam_kunde2/' },
} as const;

/** The anchors of each signing party's block: where their signature, date and name go. */
export const SIGNER_ANCHORS = {
  Projektpartner: SIGNATURE_ANCHORS.projektpartner,
  Kunde: SIGNATURE_ANCHORS.kunde,
  Kunde2: SIGNATURE_ANCHORS.kunde2,
  Firma: SIGNATURE_ANCHORS.firma,
} as const satisfies Record<SignerRole, (typeof SIGNATURE_ANCHORS)[keyof typeof SIGNATURE_ANCHORS]>;

const SIDE_LABELS = {
  de: { client: 'Für den Auftraggeber', contractor: 'Für den Auftragnehmer' },
  en: { client: 'For the Client', contractor: 'For the Contractor' },
} as const;

const text = (value: FieldValue): string => (isMissing(value) ? BLANK_LINE : String(value).trim());

/** A contract never says "Ungültiges Datum": an unusable date is a line to fill in, like a missing one. */
const date = (value: FieldValue): string => {
  const parsed = parseDate(value);
  return parsed ? formatCalendarDate(parsed) : BLANK_LINE;
};
const price = (value: FieldValue): string => (isMissing(value) ? BLANK_LINE : formatPrice(value));
const paymentTermIn =
  (language: 'de' | 'en') =>
  (value: FieldValue): string => {
    if (isMissing(value)) return BLANK_LINE;
    return language === 'en' ? formatPaymentTermEnglish(value) : formatPaymentTerm(value);
  };
const number = (value: FieldValue): string => {
  const parsed = parseGermanNumber(value);
  return parsed === undefined ? text(value) : formatGermanNumber(parsed);
};

/** The project partner's name as the CRM splits it. */
function partnerPersonName(match: ResolvedMatch): FieldValue {
  const name = [match.candidateFirstName, match.candidateLastName]
    .filter((part) => !isMissing(part))
    .join(' ');
  return name || undefined;
}

/**
 * Everything a template can show for one key, match and dataList: each field of the dictionary, formatted,
 * with a blank line for what is missing. Pure, so the same input always renders the same document.
 */
export function buildTemplateData(
  entry: CatalogueEntry,
  match: ResolvedMatch,
  dataList: DataList,
  context: TemplateContext,
): TemplateData {
  const { params } = entry;
  const { company } = context;
  const forCustomer = params.partner === 'k';
  const personName = partnerPersonName(match);
  const signatory = context.signatory ?? {
    name: company.managingDirectors[0] ?? BLANK_LINE,
    function: params.language === 'en' ? 'Managing Director' : 'Geschäftsführer',
  };
  const onsiteRate = forCustomer ? match.vk2 : match.ek2;
  const flags = familyFlags(params);
  // Terms are words in a sentence: an English contract gets English units.
  const paymentTerm = paymentTermIn(params.language);

  return {
    dokumentDatum: formatCalendarDate({
      year: context.today.getFullYear(),
      month: context.today.getMonth() + 1,
      day: context.today.getDate(),
    }),
    matchId: match.matchId,

    firmaName: company.name,
    firmaStrasse: company.street,
    firmaPlzOrt: `${company.postalCode} ${company.city}`,
    firmaOrt: company.city,
    firmaRegistergericht: company.registerCourt,
    firmaRegisternummer: company.registerNumber,
    firmaUstId: company.vatId,
    firmaGeschaeftsfuehrer: company.managingDirectors.join(', ') || BLANK_LINE,
    firmaEmail: company.email,
    firmaTelefon: company.phone,
    firmaWebsite: company.website,

    partnerName: text(
      forCustomer ? match.kunde : isMissing(match.ppGesellschaft) ? personName : match.ppGesellschaft,
    ),
    partnerAdresse: text(forCustomer ? match.adresseKunde : match.ppAdresse),
    partnerAnsprechpartner: text(forCustomer ? match.ansprechpartnerKunde : personName),

    beraterJob: text(match.beraterJob),
    beraterKandidat: text(match.beraterKandidat),
    projektpartnerName: text(personName),
    projektpartnerGesellschaft: text(match.ppGesellschaft),
    projektpartnerAdresse: text(match.ppAdresse),
    kunde: text(match.kunde),
    ansprechpartnerKunde: text(match.ansprechpartnerKunde),
    adresseKunde: text(match.adresseKunde),
    startdatum: date(match.startdatum),
    enddatum: date(match.enddatum),
    kuendigungsfrist: paymentTerm(match.kuendigungsfristKunde),
    zahlungsziel: paymentTerm(forCustomer ? match.zahlungszielKunde : match.zahlungszielPP),
    zahlungszielKunde: paymentTerm(match.zahlungszielKunde),
    zahlungszielPP: paymentTerm(match.zahlungszielPP),
    verguetungssatz: price(match.verguetungssatz),
    stundensatzRemote: price(forCustomer ? match.vk : match.ek),
    stundensatzOnsite: price(onsiteRate),
    stundenProWoche: number(match.stundenProWoche),
    einsatzort: text(match.einsatzort),
    position: text(match.position),
    aufgabenbeschreibung: text(match.aufgabenbeschreibung),
    zusatzvereinbarungen: text(match.addAgreements),
    anstellungsart: text(match.Anstellungsart),

    unterzeichnerName: signatory.name,
    unterzeichnerFunktion: signatory.function,

    kuendigungPosition: text(
      entry.form === 'termination' ? (dataList as TerminationDataList).position : match.position,
    ),
    ...offerFields(entry, match, dataList),
    zusatzText: agreementText(params, match),
    ...extensionFields(entry, dataList),

    mitKunde: forCustomer,
    mitProjektpartner: !forCustomer,
    hatZusatzvereinbarungen: !isMissing(match.addAgreements),
    hatOnsiteSatz: !isMissing(onsiteRate),
    ...flags,

    unterschriften: signatureBlocks(
      params,
      match,
      entry.form === 'docusign' ? (dataList as EsignatureDataList) : {},
      {
        company,
        signatory,
        personName,
      },
    ),
  };
}

function familyFlags(params: DocumentParams) {
  return {
    rahmenvertrag: params.family === 'contract' && params.contract === 'rv',
    einzelauftrag: params.family === 'contract' && params.contract === 'ev',
    zweiKundenUnterschriften:
      params.family === 'contract' && params.partner === 'k' && params.customerSigners === 2,
    kuendigung: params.family === 'termination' && params.document === 'termination',
    fristgerecht:
      params.family === 'termination' && params.document === 'termination' && params.deadline === 'gerecht',
    fristlos:
      params.family === 'termination' && params.document === 'termination' && params.deadline === 'los',
    bestaetigung: params.family === 'termination' && params.document === 'confirmation',
    zusatzAufgaben: params.family === 'agreement' && params.agreement === 'descr',
    zusatzStunden: params.family === 'agreement' && params.agreement === 'hours',
    zusatzSonstiges: params.family === 'agreement' && params.agreement === 'misc',
  };
}

/** An extension's new end and, where they change, its new rates and hours; blank in every other document. */
function extensionFields(entry: CatalogueEntry, dataList: DataList) {
  const { params } = entry;
  const extension: Partial<AgreementDataList> =
    params.family === 'agreement' && params.agreement === 'extension' ? (dataList as AgreementDataList) : {};
  const given = (value: number | undefined, format: (value: number) => string) =>
    value === undefined ? BLANK_LINE : format(value);
  return {
    verlaengerungBis: date(extension.neuesEnde),
    neuerStundensatzRemote: given(extension.neuerSatzRemote, formatPrice),
    neuerStundensatzOnsite: given(extension.neuerSatzOnsite, formatPrice),
    neueStundenProWoche: given(extension.neueStundenProWoche, formatGermanNumber),
    verlaengerung: params.family === 'agreement' && params.agreement === 'extension',
    mitNeuemSatzRemote: extension.neuerSatzRemote !== undefined,
    mitNeuemSatzOnsite: extension.neuerSatzOnsite !== undefined,
    mitNeuenStunden: extension.neueStundenProWoche !== undefined,
  };
}

/** The offered volume and its price; the total only when hours and rate are both numbers. */
function offerFields(entry: CatalogueEntry, match: ResolvedMatch, dataList: DataList) {
  if (entry.form !== 'offer') {
    return {
      angebotStunden: BLANK_LINE,
      angebotTage: BLANK_LINE,
      angebotStundensatz: BLANK_LINE,
      angebotSumme: BLANK_LINE,
    };
  }
  const { projectHours, projectDays } = dataList as OfferDataList;
  const rate = parseGermanNumber(match.vk);
  // Cents, not floating point: 0.1 + 0.2 must not reach an offer.
  const total = rate === undefined ? undefined : Math.round(projectHours * Math.round(rate * 100)) / 100;
  return {
    angebotStunden: formatGermanNumber(projectHours),
    angebotTage: formatGermanNumber(projectDays),
    angebotStundensatz: price(match.vk),
    angebotSumme: total === undefined ? BLANK_LINE : formatPrice(total),
  };
}

function agreementText(params: DocumentParams, match: ResolvedMatch): string {
  if (params.family !== 'agreement') return BLANK_LINE;
  if (params.agreement === 'descr') return text(match.aufgabenbeschreibung);
  if (params.agreement === 'hours') return number(match.stundenProWoche);
  if (params.agreement === 'extension') return BLANK_LINE;
  return text(match.addAgreements);
}

/** Our company first, then the other party: one block for the partner, one or two for the customer. */
function signatureBlocks(
  params: DocumentParams,
  match: ResolvedMatch,
  signers: Partial<EsignatureDataList>,
  parties: { company: CompanyProfile; signatory: { name: string; function: string }; personName: FieldValue },
): SignatureBlock[] {
  if (params.family !== 'contract' && params.family !== 'agreement') return [];
  const labels = SIDE_LABELS[params.language];
  const forCustomer = params.partner === 'k';
  const ours: SignatureBlock = {
    seite: forCustomer ? labels.contractor : labels.client,
    firma: parties.company.name,
    name: parties.signatory.name,
    funktion: parties.signatory.function,
    ...SIGNATURE_ANCHORS.firma,
  };
  if (!forCustomer) {
    return [
      ours,
      {
        seite: labels.contractor,
        firma: text(isMissing(match.ppGesellschaft) ? parties.personName : match.ppGesellschaft),
        name: text(signers.Projektpartner_UserName ?? parties.personName),
        funktion: BLANK_LINE,
        ...SIGNATURE_ANCHORS.projektpartner,
      },
    ];
  }
  const customer = (
    name: FieldValue,
    anchors: (typeof SIGNATURE_ANCHORS)['kunde' | 'kunde2'],
  ): SignatureBlock => ({
    seite: labels.client,
    firma: text(match.kunde),
    name: text(name),
    funktion: BLANK_LINE,
    ...anchors,
  });
  const blocks = [
    ours,
    customer(signers.Kunde_UserName ?? match.ansprechpartnerKunde, SIGNATURE_ANCHORS.kunde),
  ];
  if (params.family === 'contract' && params.customerSigners === 2) {
    blocks.push(customer(signers.Kunde2_UserName, SIGNATURE_ANCHORS.kunde2));
  }
  return blocks;
}
