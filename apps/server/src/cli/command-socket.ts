import { chmod, mkdir, rm } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { CliOutput, CommandLineTool, ToolContext } from './tool.js';

/**
 * The running server's door for its command-line tools on the embedded database (`npm run users`,
 * `npm run matches:import`): a Unix socket in DATA_DIR that only this machine's user (the owner of the
 * database files) can open. The tool sends one request line — which tool, its arguments, the files it
 * reads — and the server runs the very same tool on its own database, answering with the tool's output
 * lines and its exit code. JSON lines, so an answer streams as the tool prints.
 */

export function commandSocketPath(dataDir: string): string {
  return join(dataDir, 'run', 'commands.sock');
}

export type SentFiles = Record<string, { text: string } | { error: string }>;

const requestSchema = z.object({
  tool: z.string(),
  args: z.array(z.string()),
  actor: z.string().regex(/^cli:/),
  files: z.record(z.string(), z.union([z.object({ text: z.string() }), z.object({ error: z.string() })])),
});
type CommandRequest = z.infer<typeof requestSchema>;

const answerSchema = z.union([
  z.object({ out: z.string() }),
  z.object({ err: z.string() }),
  z.object({ exit: z.number().int() }),
]);

/** A match file of 20 MB and its JSON escaping, with room to spare. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/**
 * Sends a tool's work to the server listening on `path`. Resolves with the tool's exit code, or with
 * `no server` when nobody listens there (no server, or one that stopped without removing the socket).
 */
export function sendToRunningServer(
  path: string,
  request: CommandRequest,
  io: CliOutput,
): Promise<number | 'no server'> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    let connected = false;
    let exit: number | undefined;
    socket.on('connect', () => {
      connected = true;
      createInterface({ input: socket })
        .on('line', (line) => {
          const answer = answerSchema.safeParse(safeJson(line));
          if (!answer.success) return;
          if ('out' in answer.data) io.out(answer.data.out);
          else if ('err' in answer.data) io.err(answer.data.err);
          else exit = answer.data.exit;
        })
        .on('error', () => {});
      socket.end(`${JSON.stringify(request)}\n`);
    });
    socket.on('error', () => {
      // Refused or missing before connecting: no server. After: reported on close.
    });
    socket.on('close', () => {
      if (!connected) return resolve('no server');
      if (exit === undefined) {
        io.err('Die Verbindung zum laufenden Server ist abgebrochen; bitte prüfe das Ergebnis.');
        return resolve(1);
      }
      resolve(exit);
    });
  });
}

export interface CommandServer {
  close(): Promise<void>;
}

/** Listens on `path` for the tools given; each request runs with the server's database. */
export async function serveCommands({
  path,
  tools,
  context,
  log,
}: {
  path: string;
  tools: readonly CommandLineTool[];
  context: Omit<ToolContext, 'actor' | 'readText'>;
  log: { warn(obj: object, msg: string): void };
}): Promise<CommandServer> {
  // Owner only from the first moment: the folder admits nobody else, whatever the socket's own mode.
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await chmod(dirname(path), 0o700);
  // The server holds the data folder's lock, so a socket file there is left from a process that died.
  await rm(path, { force: true });
  // Half-open: the tool ends its side after the request; the answer still has to go back.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    handle(socket).catch((error) => {
      log.warn({ err: error }, 'command from the command line failed');
      socket.destroy();
    });
  });

  async function handle(socket: Socket): Promise<void> {
    const send = (answer: z.infer<typeof answerSchema>) => socket.write(`${JSON.stringify(answer)}\n`);
    const request = requestSchema.safeParse(safeJson(await readRequest(socket)));
    const tool = request.success ? tools.find((t) => t.name === request.data.tool) : undefined;
    if (!request.success || !tool) {
      send({ err: 'Unbekannter Auftrag an den laufenden Server.' });
      send({ exit: 1 });
      socket.end();
      return;
    }
    const { args, actor, files } = request.data;
    const readText = async (file: string) => {
      const sent = files[file];
      if (!sent) throw new Error('nicht mitgeschickt');
      if ('error' in sent) throw new Error(sent.error);
      return sent.text;
    };
    let exit: number;
    try {
      exit = await tool.run(
        args,
        { ...context, actor, readText },
        {
          out: (line) => send({ out: line }),
          err: (line) => send({ err: line }),
        },
      );
    } catch (error) {
      log.warn({ err: error }, `${tool.name} failed in the server`);
      send({ err: `Fehler im laufenden Server: ${(error as Error).message}` });
      exit = 1;
    }
    send({ exit });
    socket.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rm(path, { force: true }).catch(() => {});
      }),
  };
}

/** The request line; a request beyond the limit is cut off and then refused as unreadable. */
function readRequest(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        socket.pause();
        resolve('');
        return;
      }
      chunks.push(chunk);
    });
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
