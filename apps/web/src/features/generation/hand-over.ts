import { useCallback } from 'react';
import { useGoogleDocsHandOver } from '@/features/google-drive';
import { downloadFile } from '@/lib/download';
import { documentPath } from '@/lib/paths';
import { useRuntimeConfig } from '@/lib/runtime-config';
import type { GeneratedFile } from './api';

/** A page the browser refused to open in a new tab waits in the generation flow's dialog. */
export interface HandOverOutcome {
  blockedUrl: string | null;
}

/** Opens `url` in a new tab; false when the browser blocked it. */
export function openInNewTab(url: string): boolean {
  const opened = window.open(url, '_blank');
  if (!opened) return false;
  // The opened page must not be able to navigate this tab.
  opened.opener = null;
  return true;
}

/**
 * Where a generated DOCX goes: the editor step (SPEC §4), the one place the editors plug in. The
 * built-in editor opens the stored document in a new tab, Google mode the converted Google Doc;
 * whatever cannot go there is saved under the server's file name, so the user always gets the document.
 */
export function useDocumentHandOver(): (file: GeneratedFile) => Promise<HandOverOutcome> {
  const { editor } = useRuntimeConfig();
  const handOverToGoogleDocs = useGoogleDocsHandOver();
  return useCallback(
    async function handOverDocument(file: GeneratedFile): Promise<HandOverOutcome> {
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
