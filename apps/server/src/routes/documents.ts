import {
  type CatalogueEntry,
  catalogueEntry,
  checkDataList,
  type DataList,
  DOCX_MIME_TYPE,
  type DocumentCheck,
  documentCheckSchema,
  esignatureDataListSchema,
  generationRequestSchema,
  mayGenerate,
  missingMatchValues,
  offerDataListSchema,
  partnerOnlyDataListSchema,
  type TemplateData,
  type TemplateFieldName,
  terminationDataListSchema,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../auth/guards.js';
import { type CompanyData, templateDataFor, UnknownSignatoryError } from '../documents/companies.js';
import type { DocumentGenerator, DocumentOrder, GeneratedDocument } from '../documents/document-generator.js';
import { attachmentHeader } from '../documents/file-name.js';
import { RendererUnavailableError, TemplateError, type TemplateSources } from '../documents/renderer.js';
import { forbidden, HttpError, notFound, parseInput } from '../http/errors.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import type { MatchSource } from '../matches/match-source.js';
import type { TemplateUsage } from '../templates/template-usage.js';
import { requireMatch } from './match-lookup.js';

export interface DocumentRoutesDeps {
  guards: AuthGuards;
  matches: MatchSource;
  companyData: CompanyData;
  generator: DocumentGenerator;
  templateUsage: TemplateUsage;
  /** The published template versions: the check looks at the version the next document gets. */
  templates: TemplateSources;
}

type DocumentRequest = FastifyRequest<{ Params: { docId: string; matchId: string } }>;

/** The path of every generation call and of the document check. */
export const documentParamsSchema = z.object({
  docId: z
    .string()
    .describe('A key of the document catalogue, e.g. `angebot-wm` or `kuendigung-wm-k-confirmation`'),
  matchId: z.string().describe('The match ID, with or without `PL-`'),
});

/** The generation errors in the order `readGenerationRequest` checks them. */
export const generationErrors = {
  400: 'The dataList does not fit the key’s form, or the match ID is malformed',
  403: 'The permission level may not generate this key',
  404: 'Unknown key or match',
};

/**
 * DOCX generation (SPEC §7): the checked request is stored, rendered and answered as a file. And the
 * check a form makes before: which values the chosen key's document would leave blank.
 */
export const documentRoutes: FastifyPluginAsync<DocumentRoutesDeps> = async (app, deps) => {
  for (const path of [
    '/backend/generateDocx/:docId/:matchId',
    '/backend/generateDocxOffer/:docId/:matchId',
  ]) {
    app.post<{ Params: { docId: string; matchId: string } }>(
      path,
      {
        preHandler: deps.guards.session('staff'),
        schema: {
          tags: ['documents'],
          summary: 'Generate a document as DOCX',
          description:
            'Stores the document and answers the file; its id is in the `X-Document-Id` header. ' +
            'The dataList holds the fields of the key’s form.',
          security: BEARER,
          params: documentParamsSchema,
          body: generationRequestSchema.extend({
            dataList: z.union([
              esignatureDataListSchema,
              partnerOnlyDataListSchema,
              terminationDataListSchema,
              offerDataListSchema,
            ]),
          }),
          response: {
            200: fileAnswer(DOCX_MIME_TYPE, 'The generated document'),
            ...errorAnswers([400, 401, 403, 404, 500, 503], generationErrors),
          },
        },
      },
      async (request, reply) => {
        const order = await readGenerationRequest(request, deps);
        const { id, fileName, content } = await generateDocument(deps.generator, order, request.log);
        return reply
          .header('content-type', DOCX_MIME_TYPE)
          .header('content-disposition', attachmentHeader(fileName))
          .header('x-document-id', id)
          .send(content);
      },
    );
  }

  app.post<{ Params: { docId: string; matchId: string } }>(
    '/backend/documentCheck/:docId/:matchId',
    {
      preHandler: deps.guards.session('staff'),
      schema: {
        tags: ['documents'],
        summary: 'Which match values the key’s document would leave blank',
        security: BEARER,
        params: documentParamsSchema,
        response: {
          200: documentCheckSchema.describe('The missing values; the document renders all the same'),
          ...errorAnswers([400, 401, 403, 404, 500, 503], {
            ...generationErrors,
            400: 'The match ID is malformed',
          }),
        },
      },
    },
    async (request): Promise<DocumentCheck> => {
      const entry = permittedEntry(request);
      const match = await requireMatch(deps.matches, request.params.matchId, request.log);
      // Which sections a document shows depends on the key and the match, never on the rest of the
      // form: the partner type alone is enough of a dataList to decide them.
      const data = templateDataFor(
        entry,
        match,
        { vertragspartner_type: entry.params.partner },
        deps.companyData,
        new Date(),
      );
      let shown: Set<TemplateFieldName>;
      try {
        shown = deps.templateUsage.shownFields(await deps.templates.current(entry.template), data);
      } catch (error) {
        if (error instanceof TemplateError) throw brokenTemplate(error, entry, request.log);
        throw error;
      }
      return { missing: missingMatchValues(entry, match, shown) };
    },
  );
};

/** The key of a path, if the user may generate it: unknown 404, not allowed for the user 403 (DESIGN §6). */
function permittedEntry(request: DocumentRequest): CatalogueEntry {
  const entry = catalogueEntry(request.params.docId);
  if (!entry) throw notFound(`Für diese Auswahl gibt es kein Dokument (${request.params.docId}).`);
  if (!mayGenerate(currentUser(request).permission, entry)) {
    throw forbidden('Dieses Dokument darfst du mit deiner Berechtigung nicht erstellen.');
  }
  return entry;
}

/**
 * Checks a generation call in the order a user can fix it: key (404), permission for the key
 * (DESIGN §6, 403), dataList (400 naming the fields), match (404), signatory (400). Every
 * generation route (DOCX and e-signature) reads its request with this.
 */
export async function readGenerationRequest(
  request: DocumentRequest,
  { matches, companyData }: Pick<DocumentRoutesDeps, 'matches' | 'companyData'>,
): Promise<DocumentOrder> {
  const entry = permittedEntry(request);
  const dataList = validDataList(entry, parseInput(generationRequestSchema, request.body).dataList);
  const match = await requireMatch(matches, request.params.matchId, request.log);
  let data: TemplateData;
  try {
    data = templateDataFor(entry, match, dataList, companyData, new Date());
  } catch (error) {
    if (!(error instanceof UnknownSignatoryError)) throw error;
    throw invalidDataList({ selectedPerson: [error.message] });
  }
  return { entry, matchId: match.matchId, dataList, data, createdBy: currentUser(request).email };
}

/**
 * Generates and stores the document; a broken template is our bug and answers 500 `render_failed`
 * (the one 5xx besides 503), a pool that cannot take the task 503.
 */
export async function generateDocument(
  generator: DocumentGenerator,
  order: DocumentOrder,
  log: FastifyBaseLogger,
): Promise<GeneratedDocument> {
  try {
    return await generator.generate(order);
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
