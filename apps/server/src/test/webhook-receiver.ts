import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A payload the receiver verified with the Standard Webhooks library, as a receiver of ours would. */
export interface VerifiedWebhook {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** How the receiver answers the next request: a status, a redirect, or headers and then silence. */
export type Answer = { status: number } | { redirect: string } | 'stall';

/**
 * A webhook receiver on loopback that verifies every request with `standardwebhooks` (not with the
 * server's code) and keeps what it verified; `answer` decides how it replies. On `port` when given: a
 * receiver closed for a while comes back where its endpoint points.
 */
export async function startWebhookReceiver({ port: wanted = 0 }: { port?: number } = {}) {
  let secret: string | undefined;
  const verified: VerifiedWebhook[] = [];
  const refused: string[] = [];
  const requests: string[] = [];
  let answer: (payload: VerifiedWebhook | undefined) => Answer | Promise<Answer> = () => ({ status: 204 });
  const stalled: ServerResponse[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      requests.push(request.url ?? '');
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: VerifiedWebhook | undefined;
      try {
        if (!secret) throw new Error('no secret yet');
        const parsed = new Webhook(secret).verify(body, request.headers as Record<string, string>) as {
          type: string;
          data: Record<string, unknown>;
        };
        payload = { id: String(request.headers['webhook-id']), type: parsed.type, data: parsed.data };
      } catch (error) {
        refused.push(String((error as Error).message));
      }
      const reply = await answer(payload);
      if (reply === 'stall') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
        stalled.push(response);
        return;
      }
      if ('redirect' in reply) {
        response.writeHead(302, { location: reply.redirect }).end();
        return;
      }
      if (payload && reply.status >= 200 && reply.status < 300) verified.push(payload);
      response
        .writeHead(reply.status, { 'content-type': 'text/plain' })
        .end(reply.status < 300 ? '' : 'kaputt');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    origin: `http://127.0.0.1:${port}`,
    /** Accepted and verified, in the order they arrived. */
    verified,
    /** Requests whose signature did not verify, with the library's reason. */
    refused,
    /** Every request's path, answered or not. */
    requests,
    useSecret(value: string) {
      secret = value;
    },
    /** How to answer from now on; a promise holds the answer back until it settles. */
    answerWith(next: (payload: VerifiedWebhook | undefined) => Answer | Promise<Answer>) {
      answer = next;
    },
    async close() {
      for (const response of stalled) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
