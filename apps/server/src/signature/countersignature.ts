import {
  type CatalogueEntry,
  COUNTERSIGNER_ROLE,
  type CountersignaturePosition,
  catalogueEntry,
  type DocumentFamily,
  FAMILY_TITLES,
  type RecipientInput,
  type SendEnvelopeRequest,
  type Signatory,
  type SignatoryOption,
  type TemplateData,
} from '@vertragsgenerator/domain';
import { HttpError } from '../shared/http-error.js';
import type { CompanyData } from '../templates/companies.js';
import type { Executor } from './envelopes-repository.js';

export interface CountersignatureDeps {
  companyData: CompanyData;
  /** The administrators' switch „Ohne Gegenzeichnung senden erlaubt“ of a document family. */
  withoutAllowed: (family: DocumentFamily, executor?: Executor) => Promise<boolean>;
  /** The administrators' order of a template: whether its countersignatory signs first or last. */
  position: (template: string, executor?: Executor) => Promise<CountersignaturePosition>;
}

/** The company's signatory as the envelope's first or last signer, with the function the certificate names. */
export interface Countersigner extends RecipientInput {
  role: typeof COUNTERSIGNER_ROLE;
  function: string;
  position: CountersignaturePosition;
}

const refused = (message: string) =>
  new HttpError(400, 'invalid_input', message, { countersignatory: [message] });

/**
 * Who countersigns for the company: one of the configured signatories (config/signatories.json), as the
 * last signer of the envelope, after every external signer by routing order, or as the first where an
 * administrator set that for the envelope's template. Without one an envelope goes out only where an
 * administrator allows it for its document family; the seal then stands for the company.
 */
export class Countersignature {
  constructor(private readonly deps: CountersignatureDeps) {}

  /**
   * The signatories of the key's company: those with an address at the company's mail domain;
   * signatories.json names no company, so where none matches, every signatory is offered.
   */
  signatories(docKey: string): Signatory[] {
    const { companies, signatories } = this.deps.companyData;
    const entry = catalogueEntry(docKey);
    const company = entry && companies[entry.params.company];
    const domain = company ? mailDomain(company.email) : undefined;
    const ours = signatories.filter((person) => mailDomain(person.email) === domain);
    return ours.length > 0 ? ours : [...signatories];
  }

  /** What the sender view offers for the envelope of `docKey`. */
  async setting(
    docKey: string,
  ): Promise<{ options: SignatoryOption[]; withoutAllowed: boolean; position: CountersignaturePosition }> {
    return {
      options: this.signatories(docKey).map(({ id, name, function: role }) => ({ id, name, function: role })),
      withoutAllowed: await this.withoutAllowed(docKey),
      position: await this.position(docKey),
    };
  }

  /**
   * The countersigner the send request names, placed where the template's order says (`recipientsWith`
   * makes the envelope's recipients of it); null where the sender chose none and the family allows that.
   * A 400 naming `countersignatory` otherwise.
   */
  async countersigner(
    docKey: string,
    request: Pick<SendEnvelopeRequest, 'recipients' | 'countersignatory'>,
    executor: Executor,
  ): Promise<Countersigner | null> {
    if (!request.countersignatory) {
      if (await this.withoutAllowed(docKey, executor)) return null;
      const family = catalogueEntry(docKey)?.params.family ?? 'contract';
      throw refused(
        `Ein Dokument der Art „${FAMILY_TITLES[family]}“ darf nicht ohne Gegenzeichnung versendet werden. ` +
          'Bitte wähle, wer für die Firma gegenzeichnet.',
      );
    }
    const person = this.signatories(docKey).find((s) => s.id === request.countersignatory);
    if (!person) {
      throw refused('Diese Person kann für die Firma dieses Dokuments nicht gegenzeichnen.');
    }
    const signers = request.recipients.filter((r) => r.role !== 'CC');
    if (signers.some((r) => r.email.toLowerCase() === person.email.toLowerCase())) {
      throw refused(
        'Wer für die Firma gegenzeichnet, kann nicht zugleich für die andere Seite unterschreiben.',
      );
    }
    return asCountersigner(person, signers, await this.position(docKey, executor));
  }

  /**
   * DocuSign's envelope is sent from DocuSign's sender view, not ours: the countersigner goes in when
   * it is created, the signatory the company's block names if they are one of its signatories, else
   * the first, placed as the template's order says. Only for documents with that block (contracts,
   * agreements), whose anchors DocuSign needs.
   */
  async proposed(
    entry: CatalogueEntry,
    data: TemplateData,
    recipients: RecipientInput[],
  ): Promise<Countersigner | null> {
    if (entry.params.family !== 'contract' && entry.params.family !== 'agreement') return null;
    const candidates = this.signatories(entry.key);
    const named = candidates.find((s) => s.name === data.unterzeichnerName);
    const person = named ?? candidates[0];
    return person ? asCountersigner(person, recipients, await this.position(entry.key)) : null;
  }

  private position(docKey: string, executor?: Executor): Promise<CountersignaturePosition> {
    const template = catalogueEntry(docKey)?.template;
    return template ? this.deps.position(template, executor) : Promise.resolve('last');
  }

  private withoutAllowed(docKey: string, executor?: Executor): Promise<boolean> {
    const family = catalogueEntry(docKey)?.params.family;
    // A key no longer in the catalogue: nothing to allow it by.
    return family ? this.deps.withoutAllowed(family, executor) : Promise.resolve(false);
  }
}

function asCountersigner(
  person: Signatory,
  recipients: RecipientInput[],
  position: CountersignaturePosition,
): Countersigner {
  const signers = recipients.filter((r) => r.role !== 'CC' && r.role !== COUNTERSIGNER_ROLE);
  return {
    role: COUNTERSIGNER_ROLE,
    name: person.name,
    email: person.email,
    routingOrder: position === 'first' ? 1 : Math.max(0, ...signers.map((r) => r.routingOrder)) + 1,
    function: person.function,
    position,
  };
}

/**
 * The envelope's recipients with its countersigner: after them, or before them with every other
 * recipient's routing order moved one on, so that nobody is invited before the company has signed.
 */
export function recipientsWith(
  recipients: RecipientInput[],
  countersigner: Countersigner | null,
): RecipientInput[] {
  if (!countersigner) return recipients;
  const { function: _function, position, ...recipient } = countersigner;
  if (position === 'last') return [...recipients, recipient];
  return [recipient, ...recipients.map((r) => ({ ...r, routingOrder: r.routingOrder + 1 }))];
}

/**
 * For DocuSign, which mails a copy when its routing order is reached: the signers as `recipientsWith`
 * orders them, the copies with the last signing step, so that they get the document once all signed.
 */
export function docusignRecipientsWith(
  recipients: RecipientInput[],
  countersigner: Countersigner | null,
): RecipientInput[] {
  if (!countersigner) return recipients;
  const signers = recipientsWith(
    recipients.filter((r) => r.role !== 'CC'),
    countersigner,
  );
  const lastStep = Math.max(...signers.map((r) => r.routingOrder));
  const copies = recipients.filter((r) => r.role === 'CC').map((r) => ({ ...r, routingOrder: lastStep }));
  return [...signers, ...copies];
}

const mailDomain = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
