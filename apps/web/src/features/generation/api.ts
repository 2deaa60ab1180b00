import {
  type ApprovalRequest,
  approvalRequestSchema,
  type GenerationApprovalRequired,
  generationApprovalRequiredSchema,
} from '@vertragsgenerator/domain';
import { z } from 'zod';
import { ApiRequestError, apiFetch, apiJson, parseJsonAnswer } from '@/lib/api';
import type { DocumentOrder, GenerationTarget } from '@/lib/document-generation';

const ENDPOINTS: Record<GenerationTarget, string> = {
  docx: 'generateDocx',
  offer: 'generateDocxOffer',
  signature: 'generateDocusign',
};

export interface GenerationRequest extends DocumentOrder {
  /**
   * One key per click, the same for all its retries: the server answers a retry from what the first
   * attempt already created (an e-signature envelope is never made twice).
   */
  idempotencyKey: string;
}

export interface GeneratedFile {
  blob: Blob;
  fileName: string;
  /** The stored document the built-in editor opens; null from a server that stored none. */
  documentId: string | null;
}

const DEFAULT_FILE_NAME = 'document.docx';

function generationPath({ target, docId, matchId }: GenerationRequest): string {
  return `/backend/${ENDPOINTS[target]}/${encodeURIComponent(docId)}/${encodeURIComponent(matchId)}`;
}

/** Sends the request; resolves once the server answered with its headers. */
export function sendGenerationRequest(request: GenerationRequest): Promise<Response> {
  return apiFetch(generationPath(request), {
    method: 'POST',
    body: { dataList: request.dataList },
    headers: { 'Idempotency-Key': request.idempotencyKey },
  });
}

export async function readGeneratedFile(response: Response): Promise<GeneratedFile> {
  return {
    blob: await response.blob(),
    fileName: fileNameFromDisposition(response.headers.get('content-disposition')),
    documentId: response.headers.get('x-document-id') || null,
  };
}

/**
 * The stored document a generation held back because it needs an approval (409 `approval_required` with
 * its id, from a server whose editor would hand out the final file); null for any other failure.
 */
export function heldForApproval(error: unknown): GenerationApprovalRequired | null {
  if (!(error instanceof ApiRequestError) || error.status !== 409 || error.code !== 'approval_required') {
    return null;
  }
  const parsed = generationApprovalRequiredSchema.safeParse(error.body);
  return parsed.success ? parsed.data : null;
}

/** `Zur Freigabe senden` for a held document: the same request the editor makes. */
export function askForApproval(documentId: string): Promise<ApprovalRequest> {
  return apiJson(`/backend/documents/${encodeURIComponent(documentId)}/approval`, approvalRequestSchema, {
    method: 'POST',
  });
}

// A relative URL is allowed: the built-in signing pages live under the app's own origin.
const signatureAnswerSchema = z.object({ data: z.string().min(1) });

export async function readSignatureUrl(response: Response): Promise<string> {
  return (await parseJsonAnswer(response, signatureAnswerSchema)).data;
}

/**
 * The file name of a `Content-Disposition` header (RFC 6266): the UTF-8 `filename*` where given, the
 * plain `filename` otherwise, `document.docx` without either.
 */
export function fileNameFromDisposition(header: string | null): string {
  if (!header) return DEFAULT_FILE_NAME;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed encoding: the plain name below is the better guess.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
  if (quoted !== undefined) return quoted.replace(/\\(.)/g, '$1') || DEFAULT_FILE_NAME;
  const token = /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  return token ?? DEFAULT_FILE_NAME;
}
