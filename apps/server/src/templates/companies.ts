import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildTemplateData,
  type CatalogueEntry,
  COMPANIES,
  type Company,
  type CompanyProfile,
  type DataList,
  type ResolvedMatch,
  type Signatory,
  type TemplateData,
} from '@vertragsgenerator/domain';
import { z } from 'zod';
import { ConfigError } from '../config/config.js';

/** Our companies and the people who sign for them, as config/ describes them. */
export interface CompanyData {
  companies: Record<Company, CompanyProfile>;
  signatories: Signatory[];
}

/** The offer or termination form named a `selectedPerson` that signatories.json does not know. */
export class UnknownSignatoryError extends Error {
  override name = 'UnknownSignatoryError';
  constructor(
    readonly selectedPerson: string,
    readonly known: string[],
  ) {
    super(`Unbekannte Person „${selectedPerson}“. Erlaubt: ${known.join(', ')}.`);
  }
}

/**
 * The template data of a document with our company of the key and the signatory the form chose
 * (offer, termination); contracts and agreements are signed by a managing director.
 */
export function templateDataFor(
  entry: CatalogueEntry,
  match: ResolvedMatch,
  dataList: DataList,
  { companies, signatories }: CompanyData,
  today: Date,
): TemplateData {
  let signatory: Signatory | undefined;
  if ('selectedPerson' in dataList) {
    signatory = signatories.find((person) => person.id === dataList.selectedPerson);
    if (!signatory)
      throw new UnknownSignatoryError(
        dataList.selectedPerson,
        signatories.map((s) => s.id),
      );
  }
  return buildTemplateData(entry, match, dataList, {
    company: companies[entry.params.company],
    ...(signatory ? { signatory } : {}),
    today,
  });
}

const text = z.string().trim().min(1);

const companyProfileSchema = z.object({
  code: z.enum(COMPANIES),
  name: text,
  street: text,
  postalCode: text,
  city: text,
  registerCourt: text,
  registerNumber: text,
  vatId: text,
  managingDirectors: z.array(text).min(1),
  email: z.email(),
  phone: text,
  website: text,
}) satisfies z.ZodType<CompanyProfile>;

const companiesSchema = z.record(z.enum(COMPANIES), companyProfileSchema).superRefine((companies, ctx) => {
  for (const [key, company] of Object.entries(companies)) {
    if (company.code !== key) {
      ctx.addIssue({ code: 'custom', path: [key, 'code'], message: `must be "${key}", the entry's key` });
    }
  }
});

const signatorySchema = z.object({
  id: text,
  name: text,
  function: text,
  email: z.email(),
}) satisfies z.ZodType<Signatory>;

const signatoriesSchema = z
  .array(signatorySchema)
  .min(1)
  .superRefine((signatories, ctx) => {
    const seen = new Set<string>();
    signatories.forEach(({ id }, index) => {
      if (seen.has(id))
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `"${id}" is used twice` });
      seen.add(id);
    });
  });

/**
 * Reads and checks companies.json and signatories.json at start: a letterhead with a gap would go
 * out on every contract, so a wrong file stops the start with a message naming file and field.
 */
export async function loadCompanyData(configDir: string): Promise<CompanyData> {
  return {
    companies: await readConfigFile(join(configDir, 'companies.json'), companiesSchema),
    signatories: await readConfigFile(join(configDir, 'signatories.json'), signatoriesSchema),
  };
}

async function readConfigFile<T>(file: string, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Invalid configuration file ${file}: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration file ${file}:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}
