import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CrmRequest {
  method: string;
  path: string;
  body: { status?: string; sealedPdf?: Record<string, unknown> | null } & Record<string, unknown>;
}

/**
 * An HTTP CRM's receiving end of the write-back: keeps each request it accepts and answers with the
 * next status of `answers` (default 204); `onAccepted` runs for each accepted one before the answer, as
 * a CRM that acts on what it was told (fetches the sealed PDF) would.
 */
export async function startCrmReceiver() {
  const received: CrmRequest[] = [];
  const answers: number[] = [];
  const receiver = {
    received,
    answers,
    url: '',
    onAccepted: undefined as ((request: CrmRequest) => Promise<void>) | undefined,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const status = answers.shift() ?? 204;
      const accepted: CrmRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      };
      if (status < 300) {
        received.push(accepted);
        await receiver.onAccepted?.(accepted);
      }
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(status < 300 ? '' : JSON.stringify({ error: status === 403 ? 'forbidden' : 'down' }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
export type CrmReceiver = Awaited<ReturnType<typeof startCrmReceiver>>;
