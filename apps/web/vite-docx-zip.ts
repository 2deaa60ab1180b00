import type { Plugin } from 'vite';

/** apps/web/src/components/docx-first-view/docx-zip.ts, which says why. */
const DOCX_ZIP = `${import.meta.dirname}/src/components/docx-first-view/docx-zip.ts`;

/**
 * Gives docx-preview, the first view's renderer, our module on fflate for `jszip`; every other importer
 * (superdoc, the tests' DOCX builder) keeps JSZip. Used by the build and by the web tests alike.
 */
export function docxPreviewReadsWithFflate(): Plugin {
  return {
    name: 'docx-preview-reads-with-fflate',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'jszip' && importer && /[\\/]node_modules[\\/]docx-preview[\\/]/.test(importer)) {
        return DOCX_ZIP;
      }
      return null;
    },
  };
}
