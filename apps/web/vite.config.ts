import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { docxPreviewReadsWithFflate } from './vite-docx-zip';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    docxPreviewReadsWithFflate(),
    signingPageInDevelopment(),
    preloadOfSigningPageCode(),
    // .gz and .br beside every asset, which the server sends as they are (routes/spa.ts). Brotli at
    // quality 10 takes about 6 s of the build on two cores; the maximum 11 takes about 16 s (9 s for
    // the editor chunk alone) for files only 2 % smaller, 9 under a second for files 7 % larger.
    compression({
      algorithms: [
        defineAlgorithm('gzip', { level: 9 }),
        defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 10 } }),
      ],
      logLevel: 'silent',
    }),
  ],
  resolve: {
    conditions: ['source', ...defaultClientConditions],
    // `@/…` is apps/web/src (tsconfig.json `paths`; the web tests set it in vitest.config.ts too).
    alias: { '@': `${import.meta.dirname}/src` },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // The seconds the compression above takes are expected, not a slow plugin to warn about.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  // Two builds into dist/: the app (index.html) and the signing page of an e-mail link (signing.html,
  // app/signing), which the server answers /unterschreiben with (apps/server/src/routes/spa.ts).
  // Built apart, they share no chunk: a signer's phone loads React and the Mantine components the page
  // shows and nothing of the signed-in app, and /login nothing of the signing page.
  environments: {
    client: {
      build: {
        emptyOutDir: true,
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // What every first load needs (/login's budget: bench/size), as the entry's one library chunk.
                { name: 'vendor', test: /node_modules|packages[\\/]domain/, tags: ['$initial'], priority: 3 },
                // The later pages' libraries in two chunks, not one per Mantine component and set of pages.
                { name: 'schemas', test: /packages[\\/]domain|node_modules[\\/]zod[\\/]/, priority: 2 },
                // Not the charts (recharts and its react-redux): a group takes its modules' dependencies along,
                // and they belong to /auswertung alone.
                {
                  name: 'ui',
                  test: /node_modules[\\/](@mantine[\\/](?!charts)|@floating-ui|@tanstack|react-(?!redux|is[\\/]))/,
                  priority: 1,
                },
              ],
            },
          },
        },
      },
    },
    signing: {
      consumer: 'client',
      // The domain package from its sources, as the app's build reads it (the top-level `resolve` is the app's).
      resolve: { conditions: ['source', ...defaultClientConditions] },
      build: {
        // After the app's build, beside it.
        emptyOutDir: false,
        rolldownOptions: {
          input: `${import.meta.dirname}/signing.html`,
          // The domain package makes its zod schemas at the top of its modules, which the bundler keeps as
          // side effects: the page would make all of them where it uses a few, and a constant of a module
          // would bring its schemas along. Making a schema has no effect beyond the schema.
          treeshake: { manualPureFunctions: ['z'] },
        },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      // The app's first: it empties dist/.
      for (const name of ['client', 'signing']) {
        const environment = builder.environments[name];
        if (!environment) throw new Error(`vite.config.ts names no environment ${name}`);
        await builder.build(environment);
      }
    },
  },
  server: { proxy: { '/backend': 'http://localhost:8080', '/idp': 'http://localhost:8080' } },
});

/** `vite` (development) answers /unterschreiben with the signing page's entry, as the server does. */
function signingPageInDevelopment(): Plugin {
  return {
    name: 'signing-page-in-development',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        if (request.url?.split('?')[0] === '/unterschreiben') request.url = '/signing.html';
        next();
      });
    },
  };
}

/**
 * signing.html names the page's code, which its small entry imports once it has asked for the signer's
 * view (app/signing/main.ts), for preloading: it loads beside the entry, not after it has run.
 */
function preloadOfSigningPageCode(): Plugin {
  return {
    name: 'preload-of-signing-page-code',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { filename, chunk, bundle }) {
        if (!filename.endsWith('signing.html') || !chunk || !bundle) return;
        // The entry itself is in the page already (the page's code imports what the two share from it).
        const files = new Set<string>([chunk.fileName]);
        const add = (file: string) => {
          if (files.has(file)) return;
          files.add(file);
          const imported = bundle[file];
          if (imported?.type === 'chunk') imported.imports.forEach(add);
        };
        chunk.dynamicImports.forEach(add);
        files.delete(chunk.fileName);
        return [...files].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
