import { useCallback } from 'react';
import { downloadFile } from '../../lib/download';
import { useRuntimeConfig } from '../../lib/runtime-config';

/**
 * Where a generated DOCX goes: the editor step (SPEC §4). This is the one place the editors plug in;
 * until they exist, every editor setting saves the file under the server's name.
 */
export function useDocumentHandOver(): (blob: Blob, fileName: string) => void {
  const { editor } = useRuntimeConfig();
  return useCallback(
    function handOverDocument(blob: Blob, fileName: string) {
      switch (editor) {
        case 'builtin':
        case 'google':
        case 'download':
          downloadFile(blob, fileName);
      }
    },
    [editor],
  );
}
