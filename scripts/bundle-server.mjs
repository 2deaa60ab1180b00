// `npm run build`, after `tsc -b apps/server`: bundles the compiled server (apps/server/dist/serve.js
// and all it imports, its packages included) into apps/server/dist/bundle/, which
// apps/server/dist/main.js runs while it is current (apps/server/src/server-bundle.ts). A restart
// spent most of its time resolving, reading and compiling some 2,000 modules one by one; the bundle
// is a few files.
//
// The bundle runs the compiled modules' code unchanged: each module's `import.meta.url` (and a
// CommonJS package's `__dirname`) still names the file the module was bundled from, so the worker
// threads (PGlite's, the render threads) still start from their compiled files beside it, and the
// configuration finds config/ and templates/ as before. Kept out are the packages that load files of
// their own at run time: PGlite (its WebAssembly), piscina (its worker), pdf.js (fonts, worker) and
// i18n-iso-countries (its Node entry requires every language's names by a computed path).
import { writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const serverDist = join(root, 'apps/server/dist');
const bundleDir = join(serverDist, 'bundle');
const EXTERNAL = ['@electric-sql/pglite', 'piscina', 'pdfjs-dist', 'i18n-iso-countries'];

/** A path relative to the bundle's folder, as the bundle's files (all in that folder) resolve it. */
const fromBundle = (file) => JSON.stringify(relative(bundleDir, file));

/** Each module keeps its own location: see the top of this file. */
const ownLocation = {
  name: 'own-location',
  transform: {
    filter: { code: /import\.meta\.url|__dirname|__filename/ },
    handler(code, id) {
      if (id.startsWith('\0')) return null;
      const file = id.split('?')[0];
      if (code.includes('import.meta.url')) {
        return code.replaceAll('import.meta.url', `new URL(${fromBundle(file)}, import.meta.url).href`);
      }
      // A CommonJS module: ES modules have neither variable.
      return (
        `var __filename = new URL(${fromBundle(file)}, import.meta.url).pathname, ` +
        `__dirname = new URL(${fromBundle(dirname(file))} + '/', import.meta.url).pathname;\n${code}`
      );
    },
  },
};

const builtAt = Date.now();
const result = await build({
  configFile: false,
  logLevel: 'warn',
  root,
  plugins: [ownLocation],
  ssr: { noExternal: true, external: EXTERNAL, target: 'node' },
  build: {
    ssr: join(serverDist, 'serve.js'),
    outDir: bundleDir,
    emptyOutDir: true,
    target: 'node26',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    copyPublicDir: false,
    rollupOptions: {
      output: {
        format: 'esm',
        // All files in one folder: the relative paths above hold for each of them.
        entryFileNames: 'serve.js',
        chunkFileNames: '[name]-[hash].js',
        // V8 keeps each loaded file's source as a string for as long as the process runs, with two bytes
        // per character once a single one is beyond Latin-1 (a German quotation mark in a message, an
        // author's name in a package's comment). Escaped to ASCII and without the packages' JSDoc, the
        // sources V8 would hold are 13.1 MB instead of 26.5 MB (14.4 MB of files before, 12.9 MB now).
        // License comments stay.
        charset: 'ascii',
        comments: { legal: true, annotation: false, jsdoc: false },
      },
      onwarn(warning, warn) {
        // depd and others call eval; that code is as the packages ship it.
        if (warning.code !== 'EVAL') warn(warning);
      },
    },
  },
});

// The compiled modules the bundle holds: once one of them is newer, the modules run instead.
const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
const modules = [
  ...new Set(
    outputs
      .flatMap((chunk) => chunk.moduleIds ?? [])
      .filter((id) => !id.includes('/node_modules/') && id.startsWith(root))
      .map((id) => relative(bundleDir, id)),
  ),
].sort();
writeFileSync(join(bundleDir, 'inputs.json'), `${JSON.stringify({ builtAt, modules }, null, 1)}\n`);
