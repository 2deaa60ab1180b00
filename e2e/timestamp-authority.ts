import { startTestPki } from '../apps/server/src/test/test-pki.js';

/**
 * The timestamp authority (and OCSP responder) of the browser tests' first server, on the port given:
 * its seals are B-LTA as in production with TSA_URL. Runs until Playwright stops it.
 */
const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) throw new Error('usage: timestamp-authority.ts <port>');
const pki = await startTestPki(port);
process.on('SIGTERM', () => {
  pki.close().finally(() => process.exit(0));
});
