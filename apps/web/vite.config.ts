import { basename } from 'node:path';
import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { docxPreviewReadsWithFflate } from './vite-docx-zip';

/** The pages of an e-mail link, each an HTML entry of its own, by the path the server answers with it. */
const LINK_PAGES: Record<string, string> = {
  '/unterschreiben': 'signing.html',
  '/vertragspruefung': 'review.html',
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    docxPreviewReadsWithFflate(),
    linkPagesInDevelopment(),
    preloadOfLinkPageCode(),
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
  // Three builds into dist/: the app (index.html) and the two pages of an e-mail link, each with an entry
  // of its own: the signing page (signing.html, app/signing), which the server answers /unterschreiben
  // with, and the counterparty's review page (review.html, app/review) for /vertragspruefung
  // (apps/server/src/routes/spa.ts). Built apart, they share no chunk: a signer's or reviewer's phone
  // loads React and the Mantine components its page shows and nothing of the signed-in app, and /login
  // nothing of either page.
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
    signing: linkPageEnvironment('signing.html'),
    review: linkPageEnvironment('review.html'),
  },
  builder: {
    async buildApp(builder) {
      // The app's first: it empties dist/.
      for (const name of ['client', 'signing', 'review']) {
        const environment = builder.environments[name];
        if (!environment) throw new Error(`vite.config.ts names no environment ${name}`);
        await builder.build(environment);
      }
    },
  },
  server: { proxy: { '/backend': 'http://localhost:8080', '/idp': 'http://localhost:8080' } },
});

/**
 * The build of one page of an e-mail link, after the app's and beside it in dist/: its HTML entry and
 * what that imports, nothing of the app.
 */
function linkPageEnvironment(html: string) {
  return {
    consumer: 'client' as const,
    // The domain package from its sources, as the app's build reads it (the top-level `resolve` is the app's).
    resolve: { conditions: ['source', ...defaultClientConditions] },
    build: {
      // After the app's build, beside it.
      emptyOutDir: false,
      rolldownOptions: {
        input: `${import.meta.dirname}/${html}`,
        // The domain package makes its zod schemas at the top of its modules, which the bundler keeps as
        // side effects: the page would make all of them where it uses a few, and a constant of a module
        // would bring its schemas along. Making a schema has no effect beyond the schema.
        treeshake: { manualPureFunctions: ['z'] },
        // The page's libraries in a few chunks rather than one of half a megabyte: the browser compiles each
        // script on the page's main thread as it arrives, and one piece that size blocked a phone for a
        // third of a second (Lighthouse's TBT of the link pages fell from about 350 to under 200 ms).
        output: {
          codeSplitting: {
            groups: [
              { name: 'link-react', test: /node_modules[\\/](react-dom|scheduler|react)[\\/]/, priority: 4 },
              { name: 'link-zod', test: /node_modules[\\/]zod[\\/]/, priority: 3 },
              {
                name: 'link-mantine',
                test: /node_modules[\\/](@mantine|@floating-ui|react-transition-group|react-remove-scroll|tslib)/,
                priority: 2,
              },
              { name: 'link-query', test: /node_modules[\\/]@tanstack/, priority: 1 },
            ],
          },
        },
      },
    },
  };
}

/** `vite` (development) answers the paths of the e-mail links' pages with their entries, as the server does. */
function linkPagesInDevelopment(): Plugin {
  return {
    name: 'link-pages-in-development',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const page = LINK_PAGES[request.url?.split('?')[0]?.replace(/\/$/, '') ?? ''];
        if (page) request.url = `/${page}`;
        next();
      });
    },
  };
}

/**
 * The HTML of each e-mail link's page names the page's code, which its small entry imports once it has
 * asked for the link's view (app/signing/main.ts, app/review/main.ts), for preloading: it loads beside
 * the entry, not after it has run. Only what the entry imports dynamically and what that imports
 * statically: the review page's superdoc, imported only on „Änderungen vorschlagen“, is not among it.
 */
function preloadOfLinkPageCode(): Plugin {
  const pages = new Set(Object.values(LINK_PAGES));
  return {
    name: 'preload-of-link-page-code',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { filename, chunk, bundle }) {
        if (!pages.has(basename(filename)) || !chunk || !bundle) return;
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
