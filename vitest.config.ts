import { defaultClientConditions, defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { docxPreviewReadsWithFflate } from './apps/web/vite-docx-zip.js';

// Workspace packages are consumed from their TypeScript sources in tests ("source" export condition),
// so no build step is needed before `vitest`.
const resolve = { conditions: ['source', ...defaultClientConditions] };
const ssr = { resolve: { conditions: ['source', ...defaultServerConditions] } };

/** Web test files that call vi.mock (apps/web/src/test/mocked-files.test.ts keeps the list true). */
export const WEB_FILES_WITH_MOCKS = [
  'src/app/page-preload.test.ts',
  'src/features/approvals/approvals-page.test.tsx',
  'src/features/editor/docx-editor-frame.test.tsx',
  'src/features/editor/editor-page.test.tsx',
  'src/features/editor/load-docx-editor.test.tsx',
  'src/features/forms/preload-editor.test.tsx',
  'src/features/review-link/review-suggesting.test.tsx',
  'src/features/signature/envelope-draft-approval.test.tsx',
  'src/features/signature/envelope-draft-countersignature.test.tsx',
  'src/features/signature/envelope-draft-signer-code.test.tsx',
  'src/features/signature/sender-view-page.test.tsx',
  'src/features/signature/signing-code-step.test.tsx',
  'src/features/signature/signing-page-broken-link.test.tsx',
  'src/features/signature/signing-page.test.tsx',
  'src/features/signature/signing-preload.test.ts',
];

function webProject(options: { name: string; isolate: boolean; include?: string[]; exclude?: string[] }) {
  return {
    plugins: [docxPreviewReadsWithFflate()],
    resolve: { ...resolve, alias: { '@': `${import.meta.dirname}/apps/web/src` } },
    ssr,
    test: {
      name: options.name,
      root: 'apps/web',
      environment: 'jsdom',
      setupFiles: ['src/test/setup.ts'],
      isolate: options.isolate,
      // Node 26 puts a localStorage and sessionStorage of its own on the global (undefined without
      // --localstorage-file), and vitest copies no key of jsdom's window that the global already has:
      // without Node's, the tests get jsdom's. (Node 20 has neither, nor the flag.)
      execArgv: 'localStorage' in globalThis ? ['--no-webstorage'] : [],
      ...(options.include ? { include: options.include } : {}),
      ...(options.exclude ? { exclude: [...configDefaults.exclude, ...options.exclude] } : {}),
      // A form test types and clicks through a whole form: 2–3 s alone, twice that beside three others.
      testTimeout: 20_000,
      // Through Vite, so that docx-preview reads DOCX files as in the build (docxPreviewReadsWithFflate).
      server: { deps: { inline: ['docx-preview'] } },
    },
  };
}

export default defineConfig({
  test: {
    // Many server tests wait on child processes, sockets and database threads rather than the CPU: four
    // files at once finish the suite in about two thirds of the time on two cores.
    maxWorkers: 4,
    projects: [
      {
        resolve,
        ssr,
        test: { name: 'domain', root: 'packages/domain', environment: 'node' },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          globalSetup: ['src/test/postgres-global-setup.ts'],
          // Files share a worker's loaded modules instead of importing the server afresh each: the import
          // was most of a route test's time. Server modules keep no state between apps, and the files that
          // fake the clock restore it after each test.
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      // The web files share a worker's modules and jsdom too, except those that replace a module with
      // vi.mock: a mock would leak into the files after them. They run isolated, as the project `web-mocks`.
      webProject({ name: 'web', exclude: WEB_FILES_WITH_MOCKS, isolate: false }),
      webProject({ name: 'web-mocks', include: WEB_FILES_WITH_MOCKS, isolate: true }),
    ],
  },
});
