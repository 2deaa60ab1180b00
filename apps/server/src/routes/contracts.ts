import {
  contractRecordSchema,
  contractsPageSchema,
  contractsQuerySchema,
  noticeRuleChangeSchema,
  SEAL_CHECK_MAX_BYTES,
  signedElsewhereSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { contractsPage } from '../contracts/contract-queries.js';
import type { ContractRecords } from '../contracts/contract-records.js';
import { exportContracts } from '../contracts/contracts-export.js';
import type { Db } from '../db/database.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { acknowledged, BEARER, errorAnswers } from '../http/openapi.js';
import { isUuid } from '../http/path-values.js';
import { PDF_MIME, sendFile } from '../http/send-file.js';
import { HttpError, notFound, parseInput } from '../shared/http-error.js';

export interface ContractRoutesDeps {
  guards: AuthGuards;
  db: Db;
  records: ContractRecords;
  now: () => Date;
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV_MIME = 'text/csv; charset=utf-8';

const contractParams = z.object({ id: z.uuid().describe('The contract record’s id') });
const documentParams = z.object({ id: z.uuid().describe('The id of a generated document') });
const exportQuerySchema = contractsQuerySchema.extend({
  format: z
    .enum(['csv', 'xlsx'], { error: 'Das Format gibt es nicht (csv oder xlsx).' })
    .describe('The file’s format'),
});

const CONTRACT_UNKNOWN = 'Diesen Vertrag gibt es nicht.';
const NOT_FOUND = 'An unknown record, or one the reader may not see (a consultant sees their deals only)';

/**
 * Running contracts: `/vertraege`'s list with its filters and exports, one record with its chain, the
 * notice rule legal sets by hand, and a final document marked as signed elsewhere. Legal staff and
 * leaders read every record, consultants those of their deals.
 */
export const contractRoutes: FastifyPluginAsync<ContractRoutesDeps> = async (app, deps) => {
  const { guards, records } = deps;
  /** A path value that cannot be an id names nothing: 404 before any query. */
  const existingId = (id: string, message: string) => {
    if (!isUuid(id)) throw notFound(message);
    return id;
  };
  const reader = (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    return { name: user.name, permission: user.permission, email: user.email };
  };

  app.get(
    '/backend/contracts',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['contracts'],
        summary: 'Running contracts: one page of the records the user may see',
        description:
          'Filtered, searched and sorted as `/vertraege` keeps it in its address. A record’s status is as of today (Europe/Berlin).',
        security: BEARER,
        querystring: contractsQuerySchema,
        response: {
          200: contractsPageSchema,
          ...errorAnswers([400, 401, 403], { 400: 'An unknown filter value, a page out of range' }),
        },
      },
    },
    async (request) =>
      contractsPage(deps.db, reader(request), parseInput(contractsQuerySchema, request.query), deps.now()),
  );

  app.get(
    '/backend/contracts/export',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['contracts'],
        summary: 'The current view of running contracts as CSV or XLSX',
        description: 'The same filters and sort as the list, every page of it (at most 20,000 rows).',
        security: BEARER,
        querystring: exportQuerySchema,
        response: {
          200: {
            description: 'The file: CSV (semicolon, UTF-8 with byte order mark) or XLSX',
            content: {
              [CSV_MIME]: { schema: z.string() },
              [XLSX_MIME]: { schema: z.file().mime(XLSX_MIME) },
            },
          },
          ...errorAnswers([400, 401, 403, 422], { 422: 'The view has more rows than an export takes' }),
        },
      },
    },
    async (request, reply) => {
      const { format, ...query } = parseInput(exportQuerySchema, request.query);
      const file = await exportContracts(deps.db, reader(request), query, format, deps.now());
      return sendFile(reply, file, `Vertraege.${format}`, format === 'csv' ? CSV_MIME : XLSX_MIME);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/contracts/:id',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['contracts'],
        summary: 'One contract record with its chain, source and history',
        security: BEARER,
        params: contractParams,
        response: {
          200: contractRecordSchema,
          ...errorAnswers([401, 403, 404], { 404: NOT_FOUND }),
        },
      },
    },
    async (request) =>
      records.get(reader(request), existingId(request.params.id, CONTRACT_UNKNOWN), deps.now()),
  );

  app.put<{ Params: { id: string } }>(
    '/backend/contracts/:id/notice-rule',
    {
      preHandler: guards.session([2]),
      schema: {
        tags: ['contracts'],
        summary: 'Set a contract’s notice rule by hand (legal staff)',
        description:
          'For a notice text the rules could not read, or to correct one; the last day to give notice is computed again. Audited.',
        security: BEARER,
        params: contractParams,
        body: noticeRuleChangeSchema,
        response: {
          200: acknowledged,
          ...errorAnswers([400, 401, 403, 404], {
            400: 'A rule out of bounds, or no reason',
            404: NOT_FOUND,
          }),
        },
      },
    },
    async (request) => {
      const change = parseInput(noticeRuleChangeSchema, request.body);
      await records.setNoticeRule(reader(request), existingId(request.params.id, CONTRACT_UNKNOWN), change);
      return { ok: true as const };
    },
  );

  // The signed PDF is the body, in this plugin only; anything else is refused before it is read.
  app.addContentTypeParser(PDF_MIME, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post<{ Params: { id: string }; Querystring: Record<string, string> }>(
    '/backend/documents/:id/signed-elsewhere',
    {
      // Before the body is read: nobody uploads 20 MB without the right.
      onRequest: guards.session([2]),
      bodyLimit: SEAL_CHECK_MAX_BYTES,
      schema: {
        tags: ['contracts'],
        summary: 'Mark a final document as signed elsewhere, with the signed PDF (legal staff)',
        description:
          'For a counterparty that signs its own way: the document becomes a contract record like a completed envelope. The body is the PDF (at most 20 MB).',
        security: BEARER,
        params: documentParams,
        querystring: signedElsewhereSchema,
        consumes: [PDF_MIME],
        body: z.file().mime(PDF_MIME),
        response: {
          201: z.object({ contractId: z.string() }),
          ...errorAnswers([400, 401, 403, 404, 409, 413, 415, 422], {
            400: 'No date or signer, a date in the future, or an empty file',
            404: 'An unknown document',
            409: 'Already recorded, not a contract (an offer), or not made completely',
            413: 'Larger than 20 MB',
            415: 'Not sent as application/pdf',
            422: 'The file is not a PDF',
          }),
        },
      },
    },
    async (request, reply) => {
      const signed = parseInput(signedElsewhereSchema, request.query);
      // No body and no content type at all: nothing was sent. JSON or a form is not the signed PDF.
      const pdf = request.body ?? Buffer.alloc(0);
      if (!Buffer.isBuffer(pdf))
        throw new HttpError(
          415,
          'unsupported_media_type',
          'Sende das unterschriebene Dokument als PDF (Content-Type application/pdf).',
        );
      const documentId = existingId(request.params.id, 'Dieses Dokument gibt es nicht.');
      const contractId = await records.recordSignedElsewhere(reader(request), documentId, signed, pdf);
      return reply.status(201).send({ contractId });
    },
  );
};
