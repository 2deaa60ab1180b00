import {
  catalogueTemplates,
  DOCX_MIME_TYPE,
  parseVersionNumber,
  publishTemplateSchema,
  type ResolvedMatch,
  TEMPLATE_FIELDS,
  TEMPLATE_MAX_BYTES,
  type TemplateComparison,
  type TemplateTrial,
  templateComparisonSchema,
  templateDetailSchema,
  templateListSchema,
  templateTrialSchema,
  templateVersionSchema,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, fileAnswer } from '../http/openapi.js';
import { sendFile } from '../http/send-file.js';
import { requireMatch } from '../matches/match-lookup.js';
import type { MatchSource } from '../matches/match-source.js';
import { HttpError, notFound, parseInput } from '../shared/http-error.js';
import { sha256Hex } from '../shared/sha256.js';
import { containerProblem } from '../templates/docx-container.js';
import { bodyParagraphs, compareParagraphs } from '../templates/paragraph-diff.js';
import type { TemplateSource } from '../templates/renderer.js';
import { checkTemplate } from '../templates/template-check.js';
import { type TrialSources, tryTemplate } from '../templates/template-trial.js';
import type { TemplateVersions } from '../templates/template-versions.js';

/** A template upload as browsers label a DOCX, or a macro-enabled one (refused with its reason, not 415). */
const TEMPLATE_UPLOAD_TYPES = [
  DOCX_MIME_TYPE,
  'application/octet-stream',
  'application/vnd.ms-word.document.macroenabled.12',
];

export interface TemplateVersionRoutesDeps {
  guards: AuthGuards;
  templates: TemplateVersions;
  trial: Omit<TrialSources, 'today'>;
  matches: MatchSource;
  /** The deal a version is checked and tried on unless the user names another. */
  exampleMatch: () => Promise<ResolvedMatch>;
}

const templateParams = z.object({ name: z.string().describe('The template file, e.g. `angebot-de.docx`') });
const versionParams = templateParams.extend({ version: z.string().describe('The version number') });
const trialQuery = z.object({
  matchId: z.string().optional().describe('The deal to try on; default: the demo match with the most values'),
});

const NO_TEMPLATE = { 404: 'No such template or version' };

/**
 * The template library's versions for legal staff and administrators: list, upload
 * with the server's check, try on a deal, compare with the published text, publish and roll back.
 */
export const templateVersionRoutes: FastifyPluginAsync<TemplateVersionRoutesDeps> = async (app, deps) => {
  // On request, before a body is read: nobody else gets to upload 10 MB.
  const legal = { onRequest: deps.guards.session([2, 'administrator']) };
  const trialSources = (): TrialSources => ({ ...deps.trial, today: new Date() });
  let example: Promise<ResolvedMatch | null> | undefined;
  const exampleMatch = () => {
    example ??= deps.exampleMatch().catch(() => null);
    return example;
  };

  // Only in this plugin: elsewhere a DOCX body stays an unsupported media type. Sent as anything
  // else (a .docm's own type, octet-stream), the file is still read, so the check can say what it is.
  app.addContentTypeParser(TEMPLATE_UPLOAD_TYPES, { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.get(
    '/backend/templates',
    {
      ...legal,
      schema: {
        tags: ['templates'],
        summary: 'Every template with its document families, keys and published version',
        security: BEARER,
        response: { 200: templateListSchema, ...errorAnswers([401, 403]) },
      },
    },
    () => deps.templates.list(),
  );

  app.get<{ Params: { name: string } }>(
    '/backend/templates/:name',
    {
      ...legal,
      schema: {
        tags: ['templates'],
        summary: 'A template with its versions, newest first',
        security: BEARER,
        params: templateParams,
        response: { 200: templateDetailSchema, ...errorAnswers([401, 403, 404], NO_TEMPLATE) },
      },
    },
    (request) => deps.templates.detail(templateName(request.params.name)),
  );

  app.post<{ Params: { name: string }; Querystring: { comment?: string } }>(
    '/backend/templates/:name/versions',
    {
      ...legal,
      bodyLimit: TEMPLATE_MAX_BYTES,
      schema: {
        tags: ['templates'],
        summary: 'Upload a new version; the server checks it at once',
        description: `The body is the DOCX, at most ${TEMPLATE_MAX_BYTES / 1024 / 1024} MB. A file that is no DOCX (encrypted, macro-enabled, hostile XML, corrupt) is refused with 422 and not stored; a DOCX is stored as a draft with the problems the check found.`,
        security: BEARER,
        params: templateParams,
        querystring: z.object({ comment: z.string().max(500).optional() }),
        consumes: TEMPLATE_UPLOAD_TYPES,
        body: z.file().describe('The DOCX of the new version'),
        response: {
          201: templateVersionSchema,
          ...errorAnswers([400, 401, 403, 404, 413, 415, 422], {
            ...NO_TEMPLATE,
            400: 'An empty file',
            422: 'The file is no DOCX that can be a template',
          }),
        },
      },
    },
    async (request, reply) => {
      const name = templateName(request.params.name);
      const content = request.body as Buffer;
      if (!Buffer.isBuffer(content) || content.length === 0) {
        throw new HttpError(400, 'empty_file', 'Die Datei ist leer.');
      }
      // Not a Word document that could be a template at all: refused, and nothing stored.
      const refused = containerProblem(content);
      if (refused) throw new HttpError(422, 'not_docx', refused);
      const upload: TemplateSource = { name, version: null, sha256: sha256Hex(content), content };
      const problems = await checkTemplate(upload, await exampleMatch(), trialSources());
      const version = await deps.templates.add(name, {
        content,
        comment: request.query.comment?.trim() ?? '',
        createdBy: currentUser(request).email,
        problems,
      });
      return reply.code(201).send(version);
    },
  );

  app.get<{ Params: { name: string; version: string } }>(
    '/backend/templates/:name/versions/:version/file',
    {
      ...legal,
      schema: {
        tags: ['templates'],
        summary: 'Download a version',
        security: BEARER,
        params: versionParams,
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The version as uploaded'),
          ...errorAnswers([401, 403, 404], NO_TEMPLATE),
        },
      },
    },
    async (request, reply) => {
      const template = await requestedVersion(request.params);
      const fileName = template.name.replace(/\.docx$/, `-v${template.version}.docx`);
      return sendFile(reply, template.content, fileName, DOCX_MIME_TYPE);
    },
  );

  app.get<{ Params: { name: string; version: string }; Querystring: { matchId?: string } }>(
    '/backend/templates/:name/versions/:version/trial',
    {
      ...legal,
      schema: {
        tags: ['templates'],
        summary: 'Render every key that uses the template with a deal, and name the values left blank',
        security: BEARER,
        params: versionParams,
        querystring: trialQuery,
        response: {
          200: templateTrialSchema,
          ...errorAnswers([400, 401, 403, 404], {
            400: 'A malformed match ID',
            404: 'No such template, version or match',
          }),
        },
      },
    },
    async (request): Promise<TemplateTrial> => {
      const template = await requestedVersion(request.params);
      const match = await trialMatch(request.query.matchId, request.log);
      const documents = await tryTemplate(template, match, trialSources());
      return {
        matchId: match.matchId,
        documents: documents.map((document) => ({
          key: document.entry.key,
          fileName: document.fileName,
          blankFields: document.blankFields.map((field) => ({
            name: field,
            description: TEMPLATE_FIELDS[field as keyof typeof TEMPLATE_FIELDS]?.description ?? '',
          })),
          clauses: document.clauses,
          error: document.error,
        })),
      };
    },
  );

  app.get<{ Params: { name: string; version: string; key: string }; Querystring: { matchId?: string } }>(
    '/backend/templates/:name/versions/:version/trial/:key',
    {
      ...legal,
      schema: {
        tags: ['templates'],
        summary: 'One key rendered from the version with a deal, as a DOCX',
        security: BEARER,
        params: versionParams.extend({ key: z.string() }),
        querystring: trialQuery,
        response: {
          200: fileAnswer(DOCX_MIME_TYPE, 'The trial document'),
          ...errorAnswers([400, 401, 403, 404, 422], {
            400: 'A malformed match ID',
            404: 'No such template, version, key or match',
            422: 'The version cannot be rendered',
          }),
        },
      },
    },
    async (request, reply) => {
      const template = await requestedVersion(request.params);
      const match = await trialMatch(request.query.matchId, request.log);
      const [document] = await tryTemplate(template, match, trialSources(), request.params.key);
      if (!document)
        throw notFound(`Die Vorlage ${template.name} wird für ${request.params.key} nicht verwendet.`);
      if (!document.content) throw new HttpError(422, 'template_error', document.error ?? 'Nicht erstellt.');
      return sendFile(
        reply,
        document.content,
        `Probe v${template.version} ${document.fileName}`,
        DOCX_MIME_TYPE,
      );
    },
  );

  app.get<{ Params: { name: string; version: string }; Querystring: { base?: string } }>(
    '/backend/templates/:name/versions/:version/comparison',
    {
      ...legal,
      schema: {
        tags: ['templates'],
        summary: 'The text of the version against the published one (or `base`), paragraph by paragraph',
        security: BEARER,
        params: versionParams,
        querystring: z.object({ base: z.string().optional().describe('Another version to compare against') }),
        response: { 200: templateComparisonSchema, ...errorAnswers([401, 403, 404], NO_TEMPLATE) },
      },
    },
    async (request): Promise<TemplateComparison> => {
      const template = await requestedVersion(request.params);
      const baseNumber =
        request.query.base === undefined
          ? await deps.templates.publishedVersion(template.name)
          : versionNumber(request.query.base);
      const base = baseNumber === null ? null : await deps.templates.version(template.name, baseNumber);
      const paragraphs = (source: TemplateSource | null) => (source ? bodyParagraphs(source.content) : []);
      return {
        base: base?.version ?? null,
        version: template.version ?? 0,
        paragraphs: compareParagraphs(paragraphs(base), paragraphs(template)),
      };
    },
  );

  app.post<{ Params: { name: string; version: string } }>(
    '/backend/templates/:name/versions/:version/publish',
    {
      ...legal,
      schema: {
        tags: ['templates'],
        summary: 'Publish a checked draft, or an earlier version again (roll back)',
        security: BEARER,
        params: versionParams,
        body: publishTemplateSchema,
        response: {
          200: templateDetailSchema,
          ...errorAnswers([400, 401, 403, 404, 409], {
            ...NO_TEMPLATE,
            409: 'Someone published meanwhile, the version is already published, or it has problems',
          }),
        },
      },
    },
    async (request) => {
      const name = templateName(request.params.name);
      const version = versionNumber(request.params.version);
      const body = parseInput(publishTemplateSchema, request.body);
      return deps.templates.publish(name, version, { actor: currentUser(request).email, ...body });
    },
  );

  function requestedVersion(params: { name: string; version: string }): Promise<TemplateSource> {
    return deps.templates.version(templateName(params.name), versionNumber(params.version));
  }

  async function trialMatch(matchId: string | undefined, log: FastifyBaseLogger): Promise<ResolvedMatch> {
    if (matchId?.trim()) return requireMatch(deps.matches, matchId, log);
    const match = await exampleMatch();
    if (!match) {
      throw new HttpError(400, 'invalid_input', 'Bitte eine Match-ID angeben: es gibt keine Demo-Matches.', {
        matchId: ['Bitte eine Match-ID angeben.'],
      });
    }
    return match;
  }
};

/** Only the catalogue's template files are templates; anything else is unknown (and no path). */
function templateName(name: string): string {
  if (!catalogueTemplates().includes(name)) throw notFound(`Eine Vorlage ${name} gibt es nicht.`);
  return name;
}

function versionNumber(text: string): number {
  const version = parseVersionNumber(text);
  if (version === undefined) throw notFound(`Eine Version ${text} gibt es nicht.`);
  return version;
}
