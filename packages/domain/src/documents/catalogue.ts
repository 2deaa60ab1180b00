import type { FormName, PermissionLevel } from '../permissions.js';

/**
 * The document catalogue (docs/architecture.md#document-catalogue): the single source of truth for
 * which options each form offers, which key a choice produces, which template and parameters a key
 * uses, and who may generate it. Anything not in it is "Ungültige Auswahl" in the browser and 404 on
 * the server.
 */

export const LANGUAGES = ['de', 'en'] as const;
export const COMPANIES = ['wm', 'we', 'wp'] as const;
export const CONTRACT_TYPES = ['rv', 'ev'] as const;
export const PARTNER_TYPES = ['k', 'pp'] as const;
export const CUSTOMER_SIGNER_COUNTS = [1, 2] as const;
export const TERMINATION_DOCUMENTS = ['termination', 'confirmation'] as const;
export const TERMINATION_DEADLINES = ['gerecht', 'los'] as const;
/** `extension` (Verlängerung) moves a contract's end and, optionally, its rates and hours; in both languages. */
export const AGREEMENT_TYPES = ['descr', 'hours', 'misc', 'extension'] as const;

export type Language = (typeof LANGUAGES)[number];
export type Company = (typeof COMPANIES)[number];
export type ContractType = (typeof CONTRACT_TYPES)[number];
export type PartnerType = (typeof PARTNER_TYPES)[number];
export type CustomerSignerCount = (typeof CUSTOMER_SIGNER_COUNTS)[number];
export type TerminationDocument = (typeof TERMINATION_DOCUMENTS)[number];
export type TerminationDeadline = (typeof TERMINATION_DEADLINES)[number];
export type AgreementType = (typeof AGREEMENT_TYPES)[number];

/** What a template needs to know about the key beyond the match: selects sections and wording. */
export type DocumentParams =
  | {
      family: 'contract';
      language: Language;
      company: Company;
      partner: PartnerType;
      contract: ContractType;
      /** Signature blocks of the customer (1–2); the project partner always signs alone. */
      customerSigners: CustomerSignerCount;
    }
  | {
      family: 'termination';
      language: 'de';
      company: Company;
      partner: PartnerType;
      document: TerminationDocument;
      deadline?: TerminationDeadline;
    }
  | { family: 'offer'; language: 'de'; company: Company; partner: 'k' }
  | {
      family: 'agreement';
      /** German only, except an extension, which exists in every language of its company. */
      language: Language;
      company: Company;
      partner: PartnerType;
      agreement: AgreementType;
    };

export type DocumentFamily = DocumentParams['family'];

export interface CatalogueEntry {
  key: string;
  form: FormName;
  /** File name under templates/. */
  template: string;
  params: DocumentParams;
  /** Permission levels that may generate this key (docs/architecture.md#permissions). */
  levels: readonly PermissionLevel[];
}

const LEGAL_ONLY: readonly PermissionLevel[] = [2];
const EVERY_LEVEL: readonly PermissionLevel[] = [1, 2, 3];
const LEGAL_AND_LEADERS: readonly PermissionLevel[] = [2, 3];

/** Company wp works with project partners only, and in German only. */
const partnersOf = (company: Company): readonly PartnerType[] => (company === 'wp' ? ['pp'] : PARTNER_TYPES);

const CONTRACT_TEMPLATES: Record<ContractType, string> = { rv: 'rahmenvertrag', ev: 'einzelauftrag' };

/** The choices of each form, and the rule that turns a choice into a key. */
export const documentKeys = {
  docusign: (c: {
    language: Language;
    company: Company;
    partner: PartnerType;
    contract: ContractType;
    customerSigners?: number;
  }) =>
    c.partner === 'k'
      ? `${c.language}-${c.company}-k-${c.contract}-${c.customerSigners ?? 1}`
      : `${c.language}-${c.company}-pp-${c.contract}`,
  docx: (c: { language: Language; company: Company; contract: ContractType }) =>
    `docx-${c.language}-${c.company}-${c.contract}`,
  termination: (c: {
    company: Company;
    partner: PartnerType;
    document: TerminationDocument;
    deadline?: string;
  }) =>
    c.document === 'confirmation'
      ? `kuendigung-${c.company}-${c.partner}-confirmation`
      : `kuendigung-${c.company}-${c.partner}-termination-${c.deadline ?? ''}`,
  offer: (c: { company: Company }) => `angebot-${c.company}`,
  agreement: (c: {
    company: Company;
    partner: PartnerType;
    agreement: AgreementType;
    language?: Language;
  }) =>
    c.agreement === 'extension'
      ? `verlaengerung-${c.language ?? 'de'}-${c.company}-${c.partner}`
      : `zusatz-${c.company}-${c.partner}-${c.agreement}`,
} as const;

function buildCatalogue(): CatalogueEntry[] {
  const entries: CatalogueEntry[] = [];
  for (const company of COMPANIES) {
    const languages: readonly Language[] = company === 'wp' ? ['de'] : LANGUAGES;
    for (const language of languages) {
      for (const contract of CONTRACT_TYPES) {
        const template = `${CONTRACT_TEMPLATES[contract]}-${language}.docx`;
        for (const partner of partnersOf(company)) {
          const signerCounts: readonly CustomerSignerCount[] = partner === 'k' ? CUSTOMER_SIGNER_COUNTS : [1];
          for (const customerSigners of signerCounts) {
            entries.push({
              key: documentKeys.docusign({ language, company, partner, contract, customerSigners }),
              form: 'docusign',
              template,
              params: { family: 'contract', language, company, partner, contract, customerSigners },
              levels: partner === 'pp' ? EVERY_LEVEL : LEGAL_ONLY,
            });
          }
        }
        // The editable customer contract exists for wm and we only.
        if (company !== 'wp') {
          entries.push({
            key: documentKeys.docx({ language, company, contract }),
            form: 'docx',
            template,
            params: { family: 'contract', language, company, partner: 'k', contract, customerSigners: 1 },
            levels: LEGAL_ONLY,
          });
        }
      }
    }
    for (const partner of partnersOf(company)) {
      for (const deadline of TERMINATION_DEADLINES) {
        entries.push({
          key: documentKeys.termination({ company, partner, document: 'termination', deadline }),
          form: 'termination',
          template: 'kuendigung-de.docx',
          params: {
            family: 'termination',
            language: 'de',
            company,
            partner,
            document: 'termination',
            deadline,
          },
          levels: LEGAL_ONLY,
        });
      }
      entries.push({
        key: documentKeys.termination({ company, partner, document: 'confirmation' }),
        form: 'termination',
        template: 'kuendigung-de.docx',
        params: { family: 'termination', language: 'de', company, partner, document: 'confirmation' },
        levels: LEGAL_ONLY,
      });
      for (const agreement of AGREEMENT_TYPES) {
        const agreementLanguages: readonly Language[] = agreement === 'extension' ? languages : ['de'];
        for (const language of agreementLanguages) {
          entries.push({
            key: documentKeys.agreement({ company, partner, agreement, language }),
            form: 'agreement',
            template:
              agreement === 'extension' ? `verlaengerung-${language}.docx` : 'zusatzvereinbarung-de.docx',
            params: { family: 'agreement', language, company, partner, agreement },
            levels: LEGAL_ONLY,
          });
        }
      }
    }
    if (company !== 'wp') {
      entries.push({
        key: documentKeys.offer({ company }),
        form: 'offer',
        template: 'angebot-de.docx',
        params: { family: 'offer', language: 'de', company, partner: 'k' },
        levels: LEGAL_AND_LEADERS,
      });
    }
  }
  return entries;
}

export const CATALOGUE: ReadonlyMap<string, CatalogueEntry> = new Map(
  buildCatalogue().map((e) => [e.key, e]),
);

/** The entry of a key, or undefined for anything the catalogue does not know. */
export function catalogueEntry(key: string): CatalogueEntry | undefined {
  return CATALOGUE.get(key);
}

export function mayGenerate(level: PermissionLevel | null | undefined, entry: CatalogueEntry): boolean {
  return level != null && entry.levels.includes(level);
}

/** Every template file some key needs: `templates:lint` checks that each exists. */
export function catalogueTemplates(): string[] {
  return [...new Set([...CATALOGUE.values()].map((e) => e.template))].sort();
}
