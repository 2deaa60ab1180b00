import { useCallback } from 'react';
import type { GeneratedFile, HandOverDocument } from '@/features/generation';
import { useGoogleDocsHandOver } from '@/features/google-drive';
import { downloadFile } from '@/lib/download';
import { openInNewTab } from '@/lib/new-tab';
import { documentPath } from '@/lib/paths';
import { useRuntimeConfig } from '@/lib/runtime-config';

/**
 * Where a generated DOCX goes: the editor step, the one place the editors plug in. The built-in editor
 * opens the stored document in a new tab, Google mode the converted Google Doc; whatever cannot go there
 * is saved under the server's file name, so the user always gets the document.
 */
export function useDocumentHandOver(): HandOverDocument {
  const { editor } = useRuntimeConfig();
  const handOverToGoogleDocs = useGoogleDocsHandOver();
  return useCallback(
    async function handOverDocument(file: GeneratedFile) {
      if (editor === 'google') {
        // Never throws: a Drive failure has already downloaded the file.
        const outcome = await handOverToGoogleDocs(file);
        if (outcome.kind === 'downloaded') return { blockedUrl: null };
        return { blockedUrl: openInNewTab(outcome.url) ? null : outcome.url };
      }
      if (editor === 'builtin' && file.documentId !== null) {
        const url = documentPath(file.documentId);
        try {
          return { blockedUrl: openInNewTab(url) ? null : url };
        } catch (error) {
          console.error('Opening the editor failed; downloading the document instead', error);
        }
      }
      downloadFile(file.blob, file.fileName);
      return { blockedUrl: null };
    },
    [editor, handOverToGoogleDocs],
  );
}
