import {
  type CatalogueEntry,
  catalogueEntry,
  checkDataList,
  type DataList,
  type DocumentCheck,
  dealIssues,
  documentTermsOf,
  generationRequestSchema,
  mayGenerate,
  missingMatchValues,
  type TemplateData,
  type TemplateFieldName,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { ClausePlacer } from '../clauses/clause-choice.js';
import { requireMatch } from '../matches/match-lookup.js';
import type { MatchSource } from '../matches/match-source.js';
import { forbidden, HttpError, notFound, parseInput } from '../shared/http-error.js';
import { type CompanyData, templateDataFor, UnknownSignatoryError } from '../templates/companies.js';
import { RendererUnavailableError, TemplateError, type TemplateSources } from '../templates/renderer.js';
import type { TemplateUsage } from '../templates/template-usage.js';
import type { StaffMember } from '../users/users-repository.js';
import type { DocumentGenerator, DocumentOrder, GeneratedDocument } from './document-generator.js';

export interface DocumentGenerationDeps {
  matches: MatchSource;
  companyData: CompanyData;
  generator: DocumentGenerator;
  templateUsage: TemplateUsage;
  /** The published template versions: the check looks at the version the next document gets. */
  templates: TemplateSources;
  /** Which optional clauses the check offers the form. */
  clauses?: ClausePlacer;
}

/** What a generation call names: a key of the catalogue, a match, the form's submission, and who asks. */
export interface GenerationRequest {
  docKey: string;
  /** As the user typed it, with or without `PL-`. */
  matchId: string;
  /** The request body, unchecked: `{ dataList }` with the fields of the key's form. */
  submitted: unknown;
  user: StaffMember;
}

/**
 * Document generation: a request checked in the order a user can fix it, the document stored and
 * rendered; and the check a form makes before, which values the key's document would leave blank.
 * The refusals are the API's answers (`HttpError`), each with the message the user reads.
 */
export class DocumentGeneration {
  constructor(private readonly deps: DocumentGenerationDeps) {}

  /** Checks the request, then generates and stores its document. */
  async generate(request: GenerationRequest, log: FastifyBaseLogger): Promise<GeneratedDocument> {
    return this.generateOrder(await this.order(request, log), log);
  }

  /**
   * Checks a generation call in the order a user can fix it: key (404), permission for the key (403),
   * dataList (400 naming the fields), match (400 malformed, 404 unknown), signatory (400).
   */
  async order(request: GenerationRequest, log: FastifyBaseLogger): Promise<DocumentOrder> {
    const entry = permittedEntry(request.docKey, request.user);
    const dataList = validDataList(entry, parseInput(generationRequestSchema, request.submitted).dataList);
    const match = await requireMatch(this.deps.matches, request.matchId, log);
    const issues = dealIssues(entry, match, dataList);
    if (Object.keys(issues).length > 0) throw invalidDataList(issues);
    let data: TemplateData;
    try {
      data = templateDataFor(entry, match, dataList, this.deps.companyData, new Date());
    } catch (error) {
      if (!(error instanceof UnknownSignatoryError)) throw error;
      throw invalidDataList({ selectedPerson: [error.message] });
    }
    return {
      entry,
      matchId: match.matchId,
      dataList,
      data,
      match,
      terms: documentTermsOf(entry, match, dataList),
      createdBy: request.user.email,
    };
  }

  /**
   * Generates and stores the document of a checked order; a broken template is our bug and answers
   * 500 `render_failed` (the one 5xx besides 503), a pool that cannot take the task 503.
   */
  async generateOrder(order: DocumentOrder, log: FastifyBaseLogger): Promise<GeneratedDocument> {
    try {
      return await this.deps.generator.generate(order);
    } catch (error) {
      if (error instanceof TemplateError) throw brokenTemplate(error, order.entry, log);
      if (error instanceof RendererUnavailableError) {
        log.error({ err: error }, 'renderer unavailable');
        throw new HttpError(
          503,
          'unavailable',
          // A full queue and a crashed or stuck worker alike: the next attempt gets a fresh worker.
          'Das Dokument konnte gerade nicht erstellt werden. Bitte versuche es in einem Moment erneut.',
        );
      }
      throw error;
    }
  }

  /** Which match values the key's document would leave blank; it renders all the same. */
  async check(request: Omit<GenerationRequest, 'submitted'>, log: FastifyBaseLogger): Promise<DocumentCheck> {
    const entry = permittedEntry(request.docKey, request.user);
    const match = await requireMatch(this.deps.matches, request.matchId, log);
    // Which sections a document shows depends on the key and the match, never on the rest of the
    // form: the partner type alone is enough of a dataList to decide them.
    const data = templateDataFor(
      entry,
      match,
      { vertragspartner_type: entry.params.partner },
      this.deps.companyData,
      new Date(),
    );
    let shown: Set<TemplateFieldName>;
    let optionalClauses: DocumentCheck['optionalClauses'] = [];
    try {
      const template = await this.deps.templates.current(entry.template);
      shown = this.deps.templateUsage.shownFields(template, data);
      optionalClauses = (await this.deps.clauses?.optionalClauses(template, entry, match)) ?? [];
    } catch (error) {
      if (error instanceof TemplateError) throw brokenTemplate(error, entry, log);
      throw error;
    }
    return { missing: missingMatchValues(entry, match, shown), optionalClauses };
  }
}

/**
 * The catalogue entry of a key, if the user's level may generate it (the permission matrix in
 * packages/domain/src/permissions.ts): unknown 404, not allowed for the user 403.
 */
function permittedEntry(docKey: string, user: StaffMember): CatalogueEntry {
  const entry = catalogueEntry(docKey);
  if (!entry) throw notFound(`Für diese Auswahl gibt es kein Dokument (${docKey}).`);
  if (!mayGenerate(user.permission, entry)) {
    throw forbidden('Dieses Dokument darfst du mit deiner Berechtigung nicht erstellen.');
  }
  return entry;
}

/** A broken template is our bug: 500 `render_failed` naming the file and its first problem. */
function brokenTemplate(error: TemplateError, entry: CatalogueEntry, log: FastifyBaseLogger): HttpError {
  log.error({ err: error, key: entry.key }, 'template broken');
  return new HttpError(
    500,
    'render_failed',
    `Das Dokument konnte nicht erstellt werden, weil die Vorlage ${error.templateFile} fehlerhaft ist. ` +
      `Bitte melde das Problem. (${error.message.split('\n')[0]})`,
  );
}

function validDataList(entry: CatalogueEntry, submitted: Record<string, unknown>): DataList {
  const check = checkDataList(entry, submitted);
  if (!check.ok) throw invalidDataList(check.fields);
  // PostgreSQL cannot keep NUL characters or lone surrogates in jsonb, and the dataList is stored.
  const unstorable = Object.entries(check.dataList)
    .filter(
      ([, value]) => typeof value === 'string' && (value.includes('\u0000') || /\p{Surrogate}/u.test(value)),
    )
    .map(([field]): [string, string[]] => [field, ['Enthält unzulässige Zeichen.']]);
  if (unstorable.length > 0) throw invalidDataList(Object.fromEntries(unstorable));
  return check.dataList;
}

function invalidDataList(fields: Record<string, string[]>): HttpError {
  return new HttpError(
    400,
    'invalid_input',
    'Die Angaben im Formular sind unvollständig oder ungültig.',
    fields,
  );
}
