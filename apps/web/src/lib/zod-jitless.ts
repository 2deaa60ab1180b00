// Imported first by each entry (main.tsx, app/signing/main.ts), for its side effect alone.
// Under the server's CSP (no 'unsafe-eval') zod's probe for `new Function` would raise a CSP violation
// report. Set before any schema is made, as zod reads it when it makes one; the schemas come with later
// chunks. Through the global that zod's `config` writes to (zod/v4/core/core.js), because importing zod
// for `z.config` would add about 4 kB gzip of it to /login (bench/size).
Object.assign(globalThis, { __zod_globalConfig: { jitless: true } });
