import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { APP_SERVERS, type AppServer } from '../playwright.config.js';

/**
 * How long the app servers together may take to answer. Each starts on about one core (its migrations,
 * its identity provider), so the four share two cores: together they do what four entries of
 * `webServer` did one after the other, each allowed 60 s.
 */
const START_TIMEOUT_MS = 120_000;

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

/**
 * The global setup: starts the app servers side by side, each with a fresh data folder, and returns
 * once every one answers. Playwright starts the entries of `webServer` one after the other, each once
 * the one before answers, so four app servers took 40 s of one core each in turn before the first test.
 * A server's output goes to server.log in its data folder: a failure is easier to explain with it.
 */
export default async function startAppServers(): Promise<() => Promise<void>> {
  // A server left from another run would answer for the one started here.
  for (const server of APP_SERVERS) {
    if (await health(server)) throw new Error(`${server.baseUrl} is already in use`);
  }
  const running = APP_SERVERS.map((server) => ({ server, child: start(server) }));
  // The runner ends without its teardown when it fails itself; the servers must not outlive it.
  const killAll = () => {
    for (const { child } of running) kill(child);
  };
  process.on('exit', killAll);
  const stopAll = async () => {
    process.off('exit', killAll);
    await Promise.all(running.map(({ child }) => stop(child)));
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    await Promise.all(running.map(({ server, child }) => answers(server, child, deadline)));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

function start(server: AppServer): ChildProcess {
  rmSync(server.dataDir, { recursive: true, force: true });
  mkdirSync(server.dataDir, { recursive: true });
  const log = openSync(logOf(server), 'a');
  try {
    // A process group of its own, so that stopping it also stops the processes it started.
    return spawn(process.execPath, ['apps/server/dist/main.js'], {
      cwd: REPOSITORY,
      env: { ...process.env, ...server.env },
      stdio: ['ignore', log, log],
      detached: true,
    });
  } finally {
    closeSync(log);
  }
}

async function answers(server: AppServer, child: ChildProcess, deadline: number): Promise<void> {
  while (!(await health(server))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The app server for ${server.baseUrl} ended at its start:\n${tail(logOf(server))}`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `The app server for ${server.baseUrl} did not answer within ${START_TIMEOUT_MS / 1000} s:\n${tail(logOf(server))}`,
      );
    }
    await sleep(100);
  }
}

async function health(server: AppServer): Promise<boolean> {
  try {
    return (await fetch(`${server.baseUrl}/backend/health`)).ok;
  } catch {
    return false;
  }
}

function kill(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Its group has ended already.
  }
}

async function stop(child: ChildProcess): Promise<void> {
  const ended = new Promise((resolve) => child.once('exit', resolve));
  if (child.exitCode !== null || child.signalCode !== null) return;
  kill(child);
  await ended;
}

function logOf(server: AppServer): string {
  return join(server.dataDir, 'server.log');
}

function tail(file: string): string {
  return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
}
