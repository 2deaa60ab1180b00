import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkTarget, guardedLookup } from './target-address.js';

/** One attempt's deadline, from connecting to the last byte of the answer. */
export const ATTEMPT_DEADLINE_MS = 10_000;
/** Of an answer's body only this much is read (for the attempt log); the rest is dropped. */
const BODY_KEPT = 500;

export interface PostOutcome {
  /** Null when no answer came. */
  statusCode: number | null;
  /** Why it failed; null for a 2xx. */
  error: string | null;
}

/**
 * POSTs a signed payload and tells how it went. A 2xx is delivered; anything else fails: a 3xx too,
 * as redirects are never followed (the receiver's address is the one registered), and an answer
 * whose body stalls is cut off at the deadline.
 */
export async function postWebhook(
  url: URL,
  body: string,
  headers: Record<string, string>,
  { allowPrivate, deadlineMs = ATTEMPT_DEADLINE_MS }: { allowPrivate: boolean; deadlineMs?: number },
): Promise<PostOutcome> {
  try {
    await checkTarget(url, allowPrivate);
  } catch (error) {
    return { statusCode: null, error: (error as Error).message };
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = send(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Vertragsgenerator-Webhooks',
        },
        lookup: guardedLookup(allowPrivate),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let kept = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (kept.length < BODY_KEPT) kept += chunk.slice(0, BODY_KEPT - kept.length);
        });
        response.on('error', (error) => finish({ statusCode: status, error: error.message }));
        response.on('end', () => {
          if (status >= 200 && status < 300) finish({ statusCode: status, error: null });
          else if (status >= 300 && status < 400)
            finish({
              statusCode: status,
              error: `Weiterleitung nach ${response.headers.location ?? '(ohne Ziel)'} – Weiterleitungen werden nicht verfolgt.`,
            });
          else finish({ statusCode: status, error: `HTTP ${status}${kept ? `: ${kept.trim()}` : ''}` });
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({
        statusCode: null,
        error: `Keine vollständige Antwort innerhalb von ${deadlineMs / 1000} s.`,
      });
    }, deadlineMs);
    request.on('error', (error) => finish({ statusCode: null, error: error.message }));
    request.end(body);
  });
}
