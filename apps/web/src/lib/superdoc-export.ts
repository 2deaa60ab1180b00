import type { SuperDoc } from 'superdoc';

/**
 * The document as it is now, as DOCX. superdoc reports a failed export as an event and then hands out the
 * file it was opened with: saving or sending that back would silently drop every edit and suggestion, so
 * such an export fails here instead.
 */
export async function exportDocx(superdoc: SuperDoc): Promise<Blob> {
  const failures: unknown[] = [];
  const remember = (payload: { error?: unknown }) => failures.push(payload.error ?? payload);
  superdoc.on('exception', remember);
  try {
    const exported = await superdoc.export({ exportType: ['docx'], triggerDownload: false });
    if (failures.length > 0) throw failures[0];
    return exported as Blob;
  } finally {
    superdoc.off('exception', remember);
  }
}
