import {
  catalogueEntry,
  declineEnvelopeSchema,
  type EnvelopeView,
  envelopeViewSchema,
  matchHistorySchema,
  mayGenerate,
  SIGNING_LINK_ERRORS,
  SIGNING_TOKEN_HEADER,
  type SigningView,
  sendEnvelopeSchema,
  signEnvelopeSchema,
  signingViewSchema,
  voidEnvelopeSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../auth/guards.js';
import type { DocumentsRepository } from '../documents/documents-repository.js';
import { attachmentHeader } from '../documents/file-name.js';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import { forbidden, HttpError, notFound, parseInput } from '../http/errors.js';
import { BEARER, errorAnswers, fileAnswer, PUBLIC } from '../http/openapi.js';
import {
  type BuiltinSigning,
  EnvelopeStateProblem,
  SigningInputProblem,
  SigningLinkProblem,
} from '../signature/builtin-signing.js';
import type { Actor, EnvelopesRepository } from '../signature/envelopes-repository.js';
import { DOCX_MIME } from './documents.js';
import { mayRead, sendFile, UUID } from './stored-documents.js';

export interface SignatureRoutesDeps {
  guards: AuthGuards;
  documents: DocumentsRepository;
  envelopes: EnvelopesRepository;
  /** Present when built-in signing is the provider: the sender view's actions and the signer links. */
  signing: BuiltinSigning | undefined;
  pdf: PdfRenditions;
  /** Limits the signer routes per client address: they are public and carry a secret. */
  rateLimit: { max: number; timeWindow: string };
}

type EnvelopeRequest = FastifyRequest<{ Params: { id: string } }>;

const PDF_MIME = 'application/pdf';

const envelopeParams = z.object({ id: z.uuid().describe('The envelope id') });
const envelopeErrors = {
  403: 'The permission level may not see this envelope’s document',
  404: 'Unknown envelope',
};
const changeErrors = {
  ...envelopeErrors,
  403: 'Only the envelope’s creator and legal staff may change it',
  409: 'The envelope is no longer open, or DocuSign handles it',
};

const signerHeaders = z.object({
  [SIGNING_TOKEN_HEADER]: z.string().describe('The signer’s link token from their e-mail'),
});
const linkErrors = {
  404: 'Unknown or withdrawn link, or signing happens at DocuSign',
  409: 'The envelope is closed',
  410: 'The link has expired or was used',
};

/**
 * The sender view (`/signatur/:id`, staff) and the signing pages (`/unterschreiben`, signers by link
 * token), plus the document history of a match (DESIGN §7).
 */
export const signatureRoutes: FastifyPluginAsync<SignatureRoutesDeps> = async (app, deps) => {
  const { guards, envelopes } = deps;
  const staff = { preHandler: guards.session('staff') };

  /** The envelope if the user may see it: someone whose level may generate its document (DESIGN §6). */
  async function readableEnvelope(request: EnvelopeRequest) {
    const id = request.params.id;
    const envelope = UUID.test(id) ? await envelopes.summary(id) : undefined;
    if (!envelope) throw notFound('Diesen Umschlag gibt es nicht.');
    const entry = catalogueEntry(envelope.doc_key);
    if (!entry || !mayGenerate(currentUser(request).permission, entry)) {
      throw forbidden('Diesen Umschlag darfst du mit deiner Berechtigung nicht sehen.');
    }
    return envelope;
  }

  /** Changing an envelope is for its creator and for legal staff. */
  async function changeableEnvelope(request: EnvelopeRequest) {
    const envelope = await readableEnvelope(request);
    const user = currentUser(request);
    if (envelope.created_by !== user.email && user.permission !== 2) {
      throw forbidden('Nur wer den Umschlag erstellt hat (oder Legal) darf ihn versenden oder verwerfen.');
    }
    if (envelope.provider !== 'builtin' || !deps.signing) {
      throw new HttpError(409, 'envelope_closed', 'Dieser Umschlag wird bei DocuSign bearbeitet.');
    }
    return { envelope, signing: deps.signing };
  }

  async function envelopeView(id: string): Promise<EnvelopeView> {
    const view = await envelopes.view(id, await deps.pdf.available());
    if (!view) throw notFound('Diesen Umschlag gibt es nicht.');
    return view;
  }

  app.get<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'The sender view of an envelope',
        security: BEARER,
        params: envelopeParams,
        response: {
          200: envelopeViewSchema.describe('The envelope, its recipients and events'),
          ...errorAnswers([401, 403, 404], envelopeErrors),
        },
      },
    },
    async (request) => {
      const envelope = await readableEnvelope(request);
      return envelopeView(envelope.id);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/document',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'The document of an envelope as DOCX',
        security: BEARER,
        params: envelopeParams,
        response: {
          200: fileAnswer(DOCX_MIME, 'The document version the envelope carries'),
          ...errorAnswers([401, 403, 404], envelopeErrors),
        },
      },
    },
    async (request, reply) => {
      const envelope = await readableEnvelope(request);
      const content = await envelopeDocument(deps.documents, envelope);
      return sendFile(reply, content, envelope.file_name, DOCX_MIME);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/document.pdf',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'The document of an envelope as PDF',
        security: BEARER,
        params: envelopeParams,
        response: {
          200: fileAnswer(PDF_MIME, 'The PDF rendition, shown inline'),
          ...errorAnswers([401, 403, 404], {
            ...envelopeErrors,
            404: 'Unknown envelope, or no PDF rendition on this server',
          }),
        },
      },
    },
    async (request, reply) => {
      const envelope = await readableEnvelope(request);
      const content = await envelopeDocument(deps.documents, envelope);
      return sendPdf(reply, request, deps.pdf, content, envelope.file_name);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/certificate',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'The completion certificate of a completed envelope',
        security: BEARER,
        params: envelopeParams,
        response: {
          200: fileAnswer(PDF_MIME, 'The certificate'),
          ...errorAnswers([401, 403, 404], {
            ...envelopeErrors,
            404: 'Unknown envelope, or not everyone has signed yet',
          }),
        },
      },
    },
    async (request, reply) => {
      const envelope = await readableEnvelope(request);
      if (!envelope.certificate) {
        throw notFound('Das Abschlusszertifikat gibt es erst, wenn alle unterschrieben haben.');
      }
      const name = `${envelope.file_name.replace(/\.docx$/i, '')} - Abschlusszertifikat.pdf`;
      return sendFile(reply, Buffer.from(envelope.certificate), name, 'application/pdf');
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/send',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'Send a draft envelope to its signers',
        security: BEARER,
        params: envelopeParams,
        body: sendEnvelopeSchema,
        response: {
          200: envelopeViewSchema.describe('The sent envelope'),
          ...errorAnswers([400, 401, 403, 404, 409], changeErrors),
        },
      },
    },
    async (request) => {
      const { envelope, signing } = await changeableEnvelope(request);
      const input = parseInput(sendEnvelopeSchema, request.body);
      await stateChange(() => signing.send(envelope.id, input, staffActor(request)));
      return envelopeView(envelope.id);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/signature/envelopes/:id/void',
    {
      ...staff,
      schema: {
        tags: ['signature'],
        summary: 'Void an open envelope',
        security: BEARER,
        params: envelopeParams,
        body: voidEnvelopeSchema,
        response: {
          200: envelopeViewSchema.describe('The voided envelope'),
          ...errorAnswers([400, 401, 403, 404, 409], changeErrors),
        },
      },
    },
    async (request) => {
      const { envelope, signing } = await changeableEnvelope(request);
      const { reason } = parseInput(voidEnvelopeSchema, request.body ?? {});
      await stateChange(() => signing.voidEnvelope(envelope.id, reason, staffActor(request)));
      return envelopeView(envelope.id);
    },
  );

  app.get<{ Params: { matchId: string } }>(
    '/backend/matches/:matchId/documents',
    {
      ...staff,
      schema: {
        tags: ['documents'],
        summary: 'The documents and envelopes of a match',
        security: BEARER,
        params: z.object({ matchId: z.string().describe('The match ID (`PL-…`)') }),
        response: {
          200: matchHistorySchema.describe('Newest first; only documents the user may open'),
          ...errorAnswers([401, 403]),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const history = await envelopes.history(request.params.matchId.trim().toUpperCase());
      return history.filter((entry) => mayRead(user, entry.docKey));
    },
  );

  // The signer routes: no account, the link token in a header (never in a URL that ends up in logs).
  await app.register(async (signer) => {
    const limited = { config: { rateLimit: deps.rateLimit } };
    const signing = () => {
      if (!deps.signing) throw notFound('Unterschriften laufen über DocuSign.');
      return deps.signing;
    };

    signer.get(
      '/backend/signing',
      {
        ...limited,
        schema: {
          tags: ['signing'],
          summary: 'What the signer sees behind their link',
          security: PUBLIC,
          headers: signerHeaders,
          response: {
            200: signingViewSchema.describe('The envelope as the signer sees it'),
            ...errorAnswers([404, 409, 410, 429], linkErrors),
          },
        },
      },
      async (request): Promise<SigningView> => {
        const view = await linkAction(() => signing().openLink(signingToken(request), clientActor(request)));
        return { ...view, pdfAvailable: await deps.pdf.available() };
      },
    );

    signer.get(
      '/backend/signing/document',
      {
        ...limited,
        schema: {
          tags: ['signing'],
          summary: 'The document to sign as DOCX',
          security: PUBLIC,
          headers: signerHeaders,
          response: {
            200: fileAnswer(DOCX_MIME, 'The document'),
            ...errorAnswers([404, 409, 410, 429], linkErrors),
          },
        },
      },
      async (request, reply) => {
        const file = await linkAction(() => signing().linkDocument(signingToken(request)));
        return sendFile(reply, Buffer.from(file.content), file.fileName, DOCX_MIME);
      },
    );

    signer.get(
      '/backend/signing/document.pdf',
      {
        ...limited,
        schema: {
          tags: ['signing'],
          summary: 'The document to sign as PDF',
          security: PUBLIC,
          headers: signerHeaders,
          response: {
            200: fileAnswer(PDF_MIME, 'The PDF rendition, shown inline'),
            ...errorAnswers([404, 409, 410, 429], {
              ...linkErrors,
              404: 'Unknown or withdrawn link, or no PDF rendition on this server',
            }),
          },
        },
      },
      async (request, reply) => {
        const file = await linkAction(() => signing().linkDocument(signingToken(request)));
        return sendPdf(reply, request, deps.pdf, file.content, file.fileName);
      },
    );

    signer.post(
      '/backend/signing/sign',
      {
        ...limited,
        schema: {
          tags: ['signing'],
          summary: 'Sign the document',
          security: PUBLIC,
          headers: signerHeaders,
          body: signEnvelopeSchema,
          response: {
            200: signingViewSchema.describe('The envelope after signing'),
            ...errorAnswers([400, 404, 409, 410, 429], linkErrors),
          },
        },
      },
      async (request): Promise<SigningView> => {
        const input = parseInput(signEnvelopeSchema, request.body);
        const view = await linkAction(() =>
          signing().sign(signingToken(request), input, clientActor(request)),
        );
        return { ...view, pdfAvailable: await deps.pdf.available() };
      },
    );

    signer.post(
      '/backend/signing/decline',
      {
        ...limited,
        schema: {
          tags: ['signing'],
          summary: 'Decline to sign, with a reason',
          security: PUBLIC,
          headers: signerHeaders,
          body: declineEnvelopeSchema,
          response: {
            200: signingViewSchema.describe('The envelope after declining'),
            ...errorAnswers([400, 404, 409, 410, 429], linkErrors),
          },
        },
      },
      async (request): Promise<SigningView> => {
        const { reason } = parseInput(declineEnvelopeSchema, request.body);
        const view = await linkAction(() =>
          signing().decline(signingToken(request), reason, clientActor(request)),
        );
        return { ...view, pdfAvailable: await deps.pdf.available() };
      },
    );
  });
};

function staffActor(request: FastifyRequest): Actor {
  return { email: currentUser(request).email, ...clientActor(request) };
}

function clientActor(request: FastifyRequest): Omit<Actor, 'email'> {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 500) : null };
}

function signingToken(request: FastifyRequest): string {
  const value = request.headers[SIGNING_TOKEN_HEADER];
  return typeof value === 'string' ? value.trim() : '';
}

async function linkAction<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof SigningLinkProblem) {
      throw new HttpError(SIGNING_LINK_ERRORS[error.code], error.code, error.message);
    }
    if (error instanceof SigningInputProblem) throw new HttpError(400, 'invalid_input', error.message);
    throw error;
  }
}

async function stateChange(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof EnvelopeStateProblem) throw new HttpError(409, 'envelope_closed', error.message);
    throw error;
  }
}

/** The document version the envelope carries; it is never deleted while the envelope exists. */
async function envelopeDocument(
  documents: DocumentsRepository,
  envelope: { document_id: string; document_version: number },
): Promise<Buffer> {
  const content = await documents.versionContent(envelope.document_id, envelope.document_version);
  if (!content) throw notFound('Das Dokument dieses Umschlags gibt es nicht mehr.');
  return Buffer.from(content);
}

/** A PDF rendition where LibreOffice is installed; 404 otherwise, and the browser shows the DOCX. */
async function sendPdf(
  reply: FastifyReply,
  request: FastifyRequest,
  pdf: PdfRenditions,
  docx: Uint8Array,
  fileName: string,
) {
  let rendition: Uint8Array | null;
  try {
    rendition = await pdf.render(docx);
  } catch (error) {
    request.log.warn({ err: error }, 'pdf rendition failed');
    rendition = null;
  }
  if (!rendition) throw notFound('Für dieses Dokument gibt es keine PDF-Ansicht.');
  return reply
    .header('content-type', 'application/pdf')
    .header(
      'content-disposition',
      attachmentHeader(fileName.replace(/\.docx$/i, '.pdf')).replace(/^attachment/, 'inline'),
    )
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(rendition));
}
