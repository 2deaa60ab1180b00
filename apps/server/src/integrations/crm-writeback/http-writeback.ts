import { CrmSignInRefusedError, CrmTransientError } from '../../matches/crm/crm-client.js';
import { type CrmAuth, MATCH_ID_PLACEHOLDER } from '../../matches/crm/http-crm-client.js';
import { crmSealedPdfPath, newSealedPdfGrant, SEALED_PDF_TOKEN_HEADER } from './crm-sealed-pdf.js';
import { type CrmWriteBack, CrmWritebackRefused, type CrmWriter, type Progress } from './crm-writer.js';

export interface HttpWritebackOptions {
  /** With `{matchId}` where the URL-encoded ID goes. */
  url: string;
  method: 'POST' | 'PUT' | 'PATCH';
  auth: CrmAuth | undefined;
  timeoutMs: number;
  /** PUBLIC_URL: the sealed PDF's address in the body starts with it. */
  publicUrl: string;
  /** Stands for the clock (tests): the token's validity counts from it. */
  now?: () => Date;
}

/**
 * The write-back to an HTTP CRM: one request per status change to `CRM_WRITEBACK_URL`, with the
 * status, its time and, on completion, the sealed PDF's SHA-256, its address and the header that
 * fetches it: a token of this write-back's own, valid for a week and only for that envelope (the CRM
 * has no webhook endpoint's secret to sign with). The body carries the delivery's id (`writebackId`),
 * the same on every attempt, so a CRM can drop a repeat.
 */
export class HttpWriteback implements CrmWriter {
  constructor(private readonly options: HttpWritebackOptions) {}

  async write(
    writeBack: CrmWriteBack,
    progress: Progress = {},
    save: (progress: Progress) => Promise<void> = async () => {},
  ): Promise<string> {
    const url = this.options.url.replaceAll(MATCH_ID_PLACEHOLDER, encodeURIComponent(writeBack.matchId));
    const shown = url.split('?')[0] ?? url;
    const body = JSON.stringify({
      writebackId: writeBack.id,
      event: writeBack.type,
      matchId: writeBack.matchId,
      envelopeId: writeBack.envelopeId,
      status: writeBack.status,
      at: writeBack.at.toISOString(),
      sealedPdf: await this.sealedPdf(writeBack, progress, save),
    });
    let response: Response;
    try {
      response = await fetch(url, {
        method: this.options.method,
        body,
        headers: { 'content-type': 'application/json', ...authorization(this.options.auth) },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `keine Antwort innerhalb von ${this.options.timeoutMs} ms`
          : `${(error as Error).message} (${String((error as Error).cause ?? '')})`;
      throw new CrmTransientError(`${this.options.method} ${shown}: ${reason}`, { cause: error });
    }
    const text = (await response.text().catch(() => '')).slice(0, 200).trim();
    if (response.ok) return `Status „${writeBack.status}“ an das CRM gemeldet`;
    const problem = `${this.options.method} ${shown} antwortete ${response.status}${text ? `: ${text}` : ''}`;
    // Too many requests, a server error, a redirect (not followed): another attempt may arrive.
    if (
      response.status === 429 ||
      response.status >= 500 ||
      (response.status >= 300 && response.status < 400)
    )
      throw new CrmTransientError(problem);
    // Credentials an operator corrects: the attempts after that arrive.
    if (response.status === 401) throw new CrmSignInRefusedError(problem);
    if (response.status === 413)
      throw new CrmWritebackRefused(`Das CRM lehnt die Meldung ab: zu groß (${problem}).`);
    if (response.status === 403)
      throw new CrmWritebackRefused(`Das CRM verweigert die Berechtigung (${problem}).`);
    throw new CrmWritebackRefused(`Das CRM lehnt die Meldung ab (${problem}).`);
  }

  /**
   * The sealed PDF as the CRM fetches it. Each attempt gives a fresh token, kept (as its SHA-256) before
   * the request leaves, so the CRM can use it while it still answers.
   */
  private async sealedPdf(
    writeBack: CrmWriteBack,
    progress: Progress,
    save: (progress: Progress) => Promise<void>,
  ): Promise<Record<string, unknown> | null> {
    if (!writeBack.sealedPdf || !writeBack.envelopeId) return null;
    const { token, grant } = newSealedPdfGrant(this.options.now?.() ?? new Date());
    await save({ ...progress, sealedPdfGrant: grant });
    return {
      sha256: writeBack.sealedPdf.sha256,
      url: `${this.options.publicUrl}${crmSealedPdfPath(writeBack.envelopeId)}`,
      headers: { [SEALED_PDF_TOKEN_HEADER]: token },
      expiresAt: grant.expiresAt,
    };
  }
}

function authorization(auth: CrmAuth | undefined): Record<string, string> {
  if (!auth) return {};
  if (auth.kind === 'bearer') return { authorization: `Bearer ${auth.token}` };
  return { authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}` };
}
