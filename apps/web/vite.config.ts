import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
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
    emptyOutDir: true,
    sourcemap: true,
    // The seconds the compression above takes are expected, not a slow plugin to warn about.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          groups: [
            // What every first load needs (/login's budget: bench/size), as the entry's one library chunk.
            { name: 'vendor', test: /node_modules|packages[\\/]domain/, tags: ['$initial'], priority: 3 },
            // The later pages' libraries in two chunks, not one per Mantine component and set of pages: a
            // signing link on a phone fetches a few files over its slow connection, in parallel.
            { name: 'schemas', test: /packages[\\/]domain|node_modules[\\/]zod[\\/]/, priority: 2 },
            { name: 'ui', test: /node_modules[\\/](@mantine|@floating-ui|@tanstack|react-)/, priority: 1 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/backend': 'http://localhost:8080', '/idp': 'http://localhost:8080' } },
});
