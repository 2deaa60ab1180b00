// Writes the API's OpenAPI description, as GET /backend/docs serves it, to the file named by the first
// argument: an app built in this process on an in-memory database, with every route the configuration
// can switch on, and no server listening. `npm run lint:openapi` runs it from the sources
// (node --conditions=source --import tsx), so it needs no build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, openDatabase } from '../db/database.js';
import { everyOperationApp } from './every-operation-app.js';

const [target] = process.argv.slice(2);
if (!target) throw new Error('usage: write-openapi-description.ts <file.json>');

const db = await openDatabase({ kind: 'pglite', dataDir: undefined });
await migrate(db);
// With DocuSign: its webhook is the one operation the built-in signing does not have.
const { app } = await everyOperationApp(db, { docusign: true });
try {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${JSON.stringify(app.swagger(), null, 2)}\n`);
} finally {
  await app.close();
  await db.destroy();
}
