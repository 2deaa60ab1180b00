import { writeBlankDump } from './pglite-blank.js';

// Run by `npm run build` once the server is compiled: see pglite-blank.ts.
await writeBlankDump();
