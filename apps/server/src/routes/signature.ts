import {
  apiErrorSchema,
  approvalRequiredErrorSchema,
  COUNTERSIGNER_ROLE,
  type EnvelopeView,
  envelopeViewSchema,
  matchHistorySchema,
  sendEnvelopeSchema,
  voidEnvelopeSchema,
} from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mayManageEnvelope, mayReadDocument } from '../auth/document-access.js';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import {
  deletedFiles,
  type EnvelopeRequest,
  envelopeErrors,
  envelopeParams,
  keptFileName,
  readableEnvelope,
} from '../http/envelope-access.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { requestActor } from '../http/request-actor.js';
import { forbidden, HttpError, notFound, parseInput } from '../shared/http-error.js';
import { ApprovalRequiredProblem, type EnvelopeApprovalSource } from '../signature/approval-gate.js';
import type { BuiltinSigning } from '../signature/builtin-signing.js';
import type { Countersignature } from '../signature/countersignature.js';
import type { Actor, EnvelopesRepository } from '../signature/envelopes-repository.js';
import type { SigningReminders } from '../signature/reminders/signing-reminders.js';
import { EnvelopeStateProblem, LAPSED_ENVELOPE } from '../signature/signing-problems.js';

export interface SignatureRoutesDeps {
  guards: AuthGuards;
  envelopes: EnvelopesRepository;
  /** Present when built-in signing is the provider: the sender view's actions and the signer links. */
  signing: BuiltinSigning | undefined;
  /** `Erinnern`, with built-in signing. */
  reminders: SigningReminders | undefined;
  pdf: PdfRenditions;
  /** Who may countersign an envelope, and whether it may go out without (built-in signing). */
  countersignature: Countersignature;
  /** Freigabe: whether a draft needs an approval, and its latest request (the view's `approval`). */
  approvals?: EnvelopeApprovalSource | undefined;
}

const changeErrors = {
  ...envelopeErrors,
  ...deletedFiles,
  403: 'Only the envelope’s creator and legal staff may change it',
  409: 'The envelope is no longer open, or DocuSign handles it',
};

/**
 * The sender view (`/signatur/:id`, staff) and the document history of a match; the sender view's files
 * are in envelope-files.ts, the signing pages' routes in signing.ts.
 */
export const signatureRoutes: FastifyPluginAsync<SignatureRoutesDeps> = async (app, deps) => {
  const { guards, envelopes } = deps;
  const staff = { preHandler: guards.session('staff') };

  /** The envelope if the user may change it and built-in signing handles it. */
  async function changeableEnvelope(request: EnvelopeRequest) {
    const envelope = await readableEnvelope(envelopes, request);
    if (!mayManageEnvelope(currentUser(request), envelope.created_by)) {
      throw forbidden('Nur wer den Umschlag erstellt hat (oder Legal) darf ihn versenden oder verwerfen.');
    }
    // Ended with its document, whichever provider had it: what is left to do is in the answer.
    if (envelope.status === 'lapsed') throw new HttpError(409, 'envelope_lapsed', LAPSED_ENVELOPE);
    if (envelope.provider !== 'builtin' || !deps.signing || !deps.reminders) {
      throw new HttpError(409, 'envelope_closed', 'Dieser Umschlag wird bei DocuSign bearbeitet.');
    }
    keptFileName(envelope);
    return { envelope, signing: deps.signing, reminders: deps.reminders };
  }

  async function envelopeView(id: string, request?: FastifyRequest): Promise<EnvelopeView> {
    // Freigabe first: a draft follows its document's latest version before it is shown.
    const approval =
      deps.approvals && request
        ? await deps.approvals
            .envelopeApproval(id, currentUser(request), request.log)
            .catch((error: unknown) => {
              // The CRM may be down: the view still opens, the send asks the gate again.
              request.log.warn({ err: error }, 'approval state of the envelope unavailable');
              return undefined;
            })
        : undefined;
    const view = await envelopes.view(id, await deps.pdf.available());
    if (!view) throw notFound('Diesen Umschlag gibt es nicht.');
    const withApproval = approval ? { ...view, approval } : view;
    if (view.provider === 'docusign' && view.status === 'created' && approval?.held) {
      // A DocuSign draft held for Freigabe goes out from here once approved, not from DocuSign's sender
      // view: its sender chooses the countersignatory as with built-in signing (the approval's send
      // checks it), instead of the `Firma` recipient proposed when it was created.
      return {
        ...withApproval,
        recipients: view.recipients.filter((r) => r.role !== COUNTERSIGNER_ROLE),
        countersignature: await deps.countersignature.setting(view.docKey),
      };
    }
    if (view.provider !== 'builtin' || !deps.signing) return withApproval;
    return {
      ...withApproval,
      signerCode: await deps.signing.signerCodeSetting(id),
      countersignature: await deps.countersignature.setting(view.docKey),
    };
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
      const envelope = await readableEnvelope(envelopes, request);
      return envelopeView(envelope.id, request);
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
          ...errorAnswers([400, 401, 403, 404, 410, 503], changeErrors),
          409: z
            .union([approvalRequiredErrorSchema, apiErrorSchema])
            .describe(
              'The envelope needs an approval it does not have (`approval_required`, with the reasons: send it for approval instead), is no longer open, or DocuSign handles it',
            ),
        },
      },
    },
    async (request, reply) => {
      const { envelope, signing } = await changeableEnvelope(request);
      const input = parseInput(sendEnvelopeSchema, request.body);
      try {
        await stateChange(() => signing.send(envelope.id, input, requestActor(request)));
      } catch (error) {
        if (error instanceof ApprovalRequiredProblem) return reply.status(409).send(error.body);
        throw error;
      }
      return envelopeView(envelope.id, request);
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
          ...errorAnswers([400, 401, 403, 404, 409, 410], changeErrors),
        },
      },
    },
    async (request) => {
      const { envelope, signing } = await changeableEnvelope(request);
      const { reason } = parseInput(voidEnvelopeSchema, request.body ?? {});
      await stateChange(() => signing.voidEnvelope(envelope.id, reason, requestActor(request)));
      return envelopeView(envelope.id, request);
    },
  );

  /** The sender view's actions on one waiting signer, each answered with the envelope as it is after. */
  function signerAction(
    action: string,
    doc: { summary: string; answer: string; conflict: string },
    run: (
      changeable: Awaited<ReturnType<typeof changeableEnvelope>>,
      recipientId: string,
      actor: Actor,
    ) => Promise<void>,
  ) {
    app.post<{ Params: { id: string; recipientId: string } }>(
      `/backend/signature/envelopes/:id/recipients/:recipientId/${action}`,
      {
        ...staff,
        schema: {
          tags: ['signature'],
          summary: doc.summary,
          security: BEARER,
          params: envelopeParams.extend({ recipientId: z.string().describe('The recipient id') }),
          response: {
            200: envelopeViewSchema.describe(doc.answer),
            ...errorAnswers([401, 403, 404, 409, 410], { ...changeErrors, 409: doc.conflict }),
          },
        },
      },
      async (request) => {
        const changeable = await changeableEnvelope(request);
        await stateChange(() => run(changeable, request.params.recipientId, requestActor(request)));
        return envelopeView(changeable.envelope.id, request);
      },
    );
  }

  signerAction(
    'renew-link',
    {
      summary: 'Mail a signer a new link; the old one stops working',
      answer: 'The envelope with the signer’s new expiry',
      conflict: 'The envelope is no longer open, DocuSign handles it, or the signer is not waiting to sign',
    },
    ({ envelope, signing }, recipientId, actor) => signing.renewLink(envelope.id, recipientId, actor),
  );

  signerAction(
    'remind',
    {
      summary: 'Remind a signer now, with the link they hold',
      answer: 'The envelope with the reminder among its events',
      conflict:
        'The envelope is no longer open, DocuSign handles it, the signer is not waiting to sign, or their link expired',
    },
    ({ envelope, reminders }, recipientId, actor) => reminders.remind(envelope.id, recipientId, actor),
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
      return history.filter((entry) => mayReadDocument(user, entry.docKey));
    },
  );
};

async function stateChange(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof EnvelopeStateProblem) throw new HttpError(409, 'envelope_closed', error.message);
    throw error;
  }
}
