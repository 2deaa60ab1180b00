import {
  type AgreementType,
  CATALOGUE,
  type CatalogueEntry,
  type Company,
  type ContractType,
  CUSTOMER_SIGNER_COUNTS,
  catalogueEntry,
  documentKeys,
  type FormName,
  isExtension,
  type Language,
  mayGenerate,
  type PartnerType,
  type PermissionLevel,
  type TerminationDocument,
} from '@vertragsgenerator/domain';
import { catalogueOptions, type OptionParam } from '@/components/catalogue-options';
import type { SelectOption } from '@/components/fields';

/**
 * The documents a batch can make, chosen as the single forms choose them: first the kind, then the
 * catalogue's parameters of its form. An extension is an agreement of its own kind here, since it is what
 * a batch is most often for; the e-signature contracts (form docusign) go out as one envelope per deal.
 */
export const BATCH_KINDS = ['extension', 'agreement', 'termination', 'offer', 'docx', 'esignature'] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

export const KIND_FORMS: Record<BatchKind, FormName> = {
  extension: 'agreement',
  agreement: 'agreement',
  termination: 'termination',
  offer: 'offer',
  docx: 'docx',
  esignature: 'docusign',
};

/**
 * A choice of the batch's document: the catalogue's parameters, and an e-signature contract's signature
 * blocks of the customer (1 or 2), which the single form derives from the signers it is given.
 */
export type BatchParam = OptionParam | 'customerSigners';

export type DocumentParams = Partial<Record<BatchParam, string | null>>;

/** The customer's signature blocks an e-signature contract offers (the catalogue's `customerSigners`). */
const CUSTOMER_SIGNER_OPTIONS: SelectOption[] = CUSTOMER_SIGNER_COUNTS.map((count) => ({
  value: String(count),
  label: String(count),
}));

/** The kind a catalogue entry belongs to; undefined for a form a batch does not offer. */
export function kindOf(entry: CatalogueEntry): BatchKind | undefined {
  if (entry.form === 'agreement') return isExtension(entry) ? 'extension' : 'agreement';
  return BATCH_KINDS.find((kind) => kind !== 'extension' && KIND_FORMS[kind] === entry.form);
}

/** Whether the kind is sent for e-signature: its batch goes out as envelopes, with `send`. */
export function isEsignature(kind: BatchKind | null): boolean {
  return kind === 'esignature';
}

/** The kinds of which `level` may generate at least one key (the server checks the key again). */
export function availableKinds(level: PermissionLevel | null | undefined): BatchKind[] {
  const kinds = new Set<BatchKind>();
  for (const entry of CATALOGUE.values()) {
    const kind = kindOf(entry);
    if (kind && mayGenerate(level, entry)) kinds.add(kind);
  }
  return BATCH_KINDS.filter((kind) => kinds.has(kind));
}

/** One parameter of a kind: which values it offers, given those chosen so far. */
export interface ParamField {
  param: BatchParam;
  options: SelectOption[];
}

/** Whether `level` may generate some key of the form whose parameters include all of `where`. */
function generatable(
  form: FormName,
  where: Partial<Record<OptionParam, string | null>>,
  level: PermissionLevel | null | undefined,
): boolean {
  for (const entry of CATALOGUE.values()) {
    if (entry.form !== form || !mayGenerate(level, entry)) continue;
    const params = entry.params as Partial<Record<OptionParam, string>>;
    const fits = Object.entries(where).every(
      ([name, value]) => value == null || params[name as OptionParam] === value,
    );
    if (fits) return true;
  }
  return false;
}

/**
 * The parameters a kind asks for, in the order shown, each with the options the choices so far leave.
 * Given a `level`, only the values of which it may generate a key: a consultant's e-signature contract
 * is with the project partner, as in the single form.
 */
export function paramFields(
  kind: BatchKind,
  params: DocumentParams,
  level?: PermissionLevel | null,
): ParamField[] {
  const form = KIND_FORMS[kind];
  const field = (
    param: OptionParam,
    where: Partial<Record<OptionParam, string | null>> = {},
  ): ParamField => ({
    param,
    options: catalogueOptions(form, param, where).filter(
      (option) => level === undefined || generatable(form, { ...where, [param]: option.value }, level),
    ),
  });
  const { company, language, agreement, document, partner } = params;
  switch (kind) {
    case 'extension':
      return [
        field('company', { agreement: 'extension' }),
        field('language', { agreement: 'extension', company }),
        field('partner', { agreement: 'extension', company }),
      ];
    case 'agreement': {
      const types = catalogueOptions(form, 'agreement').filter((option) => option.value !== 'extension');
      return [
        { param: 'agreement', options: types },
        field('company', { agreement }),
        field('partner', { agreement, company }),
      ];
    }
    case 'termination':
      return [
        field('company'),
        field('partner', { company }),
        field('document'),
        // A confirmation confirms whichever termination was given: only a termination has a deadline.
        ...(document === 'confirmation' ? [] : [field('deadline', { document: 'termination' })]),
      ];
    case 'offer':
      return [field('company')];
    case 'docx':
      return [field('language'), field('company', { language }), field('contract')];
    case 'esignature':
      return [
        field('language'),
        field('company', { language }),
        field('contract'),
        field('partner', { company }),
        // The project partner signs alone; a customer signs in one or two blocks.
        ...(partner === 'k' ? [{ param: 'customerSigners' as const, options: CUSTOMER_SIGNER_OPTIONS }] : []),
      ];
  }
}

/**
 * The choices with every value the current choices no longer offer cleared (company wp has no customer
 * side and no English), so that a key is never made of a combination the catalogue lacks.
 */
export function fittingParams(
  kind: BatchKind,
  params: DocumentParams,
  level?: PermissionLevel | null,
): DocumentParams {
  let current = { ...params };
  // Each parameter's options depend only on those before it; one pass in order suffices.
  for (const { param } of paramFields(kind, current, level)) {
    const offered = paramFields(kind, current, level).find((field) => field.param === param)?.options ?? [];
    const value = current[param];
    if (value != null && !offered.some((option) => option.value === value)) {
      current = { ...current, [param]: null };
    }
  }
  return current;
}

/** The catalogue key the choices name; null while one is missing. */
export function keyOf(kind: BatchKind, params: DocumentParams): string | null {
  const { company, partner, language, agreement, document, deadline, contract, customerSigners } = params;
  switch (kind) {
    case 'extension':
      return company && partner && language
        ? documentKeys.agreement({
            agreement: 'extension',
            company: company as Company,
            partner: partner as PartnerType,
            language: language as Language,
          })
        : null;
    case 'agreement':
      return agreement && company && partner
        ? documentKeys.agreement({
            agreement: agreement as AgreementType,
            company: company as Company,
            partner: partner as PartnerType,
          })
        : null;
    case 'termination':
      return company && partner && document && (document === 'confirmation' || deadline)
        ? documentKeys.termination({
            company: company as Company,
            partner: partner as PartnerType,
            document: document as TerminationDocument,
            ...(document === 'confirmation' || !deadline ? {} : { deadline }),
          })
        : null;
    case 'offer':
      return company ? documentKeys.offer({ company: company as Company }) : null;
    case 'docx':
      return language && company && contract
        ? documentKeys.docx({
            language: language as Language,
            company: company as Company,
            contract: contract as ContractType,
          })
        : null;
    case 'esignature':
      return language && company && contract && partner && (partner !== 'k' || customerSigners)
        ? documentKeys.docusign({
            language: language as Language,
            company: company as Company,
            partner: partner as PartnerType,
            contract: contract as ContractType,
            ...(partner === 'k' ? { customerSigners: Number(customerSigners) } : {}),
          })
        : null;
  }
}

/** The entry of a key `level` may generate as a batch; undefined for any other. */
export function batchEntry(
  key: string | null,
  level: PermissionLevel | null | undefined,
): CatalogueEntry | undefined {
  const entry = key === null ? undefined : catalogueEntry(key);
  return entry && kindOf(entry) && mayGenerate(level, entry) ? entry : undefined;
}

/** The kind and parameters a key names (an address's `dokument`), when `level` may make it as a batch. */
export function choiceOfKey(
  key: string,
  level: PermissionLevel | null | undefined,
): { kind: BatchKind; params: DocumentParams } | undefined {
  const entry = batchEntry(key, level);
  const kind = entry && kindOf(entry);
  if (!entry || !kind) return undefined;
  const p = entry.params;
  const params: DocumentParams = { company: p.company, partner: p.partner };
  if (p.family === 'agreement') {
    params.language = p.language;
    if (kind === 'agreement') params.agreement = p.agreement;
  }
  if (p.family === 'termination') {
    params.document = p.document;
    params.deadline = p.deadline ?? null;
  }
  if (p.family === 'contract') {
    params.language = p.language;
    params.contract = p.contract;
    params.customerSigners = String(p.customerSigners);
  }
  // Only what the kind's fields show: an offer's partner, say, is no choice.
  const shown = new Set(paramFields(kind, params).map((field) => field.param));
  return {
    kind,
    params: Object.fromEntries(Object.entries(params).filter(([param]) => shown.has(param as BatchParam))),
  };
}

/** Match IDs as pasted: one per line, or separated by commas, semicolons or spaces. */
export function splitMatchIds(text: string): string[] {
  return text.split(/[\s,;]+/).filter((id) => id !== '');
}
