import { screen, waitFor } from '@testing-library/react';
import type { StoredDocument } from '@vertragsgenerator/domain';
import { expect, it, vi } from 'vitest';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { EditorPage } from './editor-page';
import { contractFields } from './test-fixtures';

// jsdom cannot run superdoc; what counts here is only when the page loads the editor's module.
vi.mock('./docx-editor', () => ({ openDocxEditor: () => new Promise(() => {}) }));

const storedDocument: StoredDocument = {
  ...contractFields,
  versions: [
    {
      version: 1,
      size: 24_310,
      sha256: 'a'.repeat(64),
      createdBy: 'legal@demo.local',
      createdAt: '2026-11-20T09:00:00Z',
    },
  ],
};

it('loads the editor with superdoc while the document is still on its way', async () => {
  stubApi({
    'GET /backend/documents/doc-1/file': () => new Promise<Response>(() => {}),
    'GET /backend/documents/doc-1': jsonResponse(200, storedDocument),
  });
  renderRoutes([{ path: '/dokumente/:documentId', element: <EditorPage /> }], '/dokumente/doc-1');
  await screen.findByRole('heading', { name: storedDocument.fileName });
  await waitFor(() => expect(performance.getEntriesByName('editor:code-loaded', 'mark')).toHaveLength(1));
  // Asked for once, before it loaded (the browser benchmark reads the two apart).
  const [requested] = performance.getEntriesByName('editor:code-requested', 'mark');
  const [loaded] = performance.getEntriesByName('editor:code-loaded', 'mark');
  expect(performance.getEntriesByName('editor:code-requested', 'mark')).toHaveLength(1);
  expect(requested?.startTime).toBeLessThanOrEqual(loaded?.startTime ?? Number.NaN);
  // The file has not arrived: the page still waits for it.
  expect(screen.queryByRole('document')).not.toBeInTheDocument();
});
