import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/components/page-providers';
import { jsonResponse, stubApi } from '@/test/utils';
import { documentFileQueryOptions, storedDocumentQueryOptions } from './api';
import { preloadStoredDocument } from './document-preload';
import { contractFields } from './test-fixtures';
import { LATEST } from './use-editor-session';

const DOCUMENT = 'GET /backend/documents/doc-1';
const LATEST_FILE = 'GET /backend/documents/doc-1/file';
const storedDocument = {
  ...contractFields,
  versions: [
    {
      version: 2,
      size: 7,
      sha256: 'b'.repeat(64),
      createdBy: 'legal@demo.local',
      createdAt: '2026-11-21T10:30:00Z',
    },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('preloadStoredDocument', () => {
  it('asks for the document and its newest file at once, and keeps both where the page looks for them', async () => {
    // The document's answer waits until the file was asked for: one after the other would never settle.
    let fileAsked: () => void = () => {};
    const fileRequested = new Promise<void>((resolve) => {
      fileAsked = resolve;
    });
    stubApi({
      [DOCUMENT]: async () => {
        await fileRequested;
        return jsonResponse(200, storedDocument);
      },
      [LATEST_FILE]: () => {
        fileAsked();
        return new Response('DOCX v2', { status: 200, headers: { 'x-document-version': '2' } });
      },
    });
    const queryClient = createQueryClient();

    preloadStoredDocument(queryClient, 'doc-1');

    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(queryClient.getQueryData(storedDocumentQueryOptions('doc-1').queryKey)).toEqual(storedDocument);
    const file = queryClient.getQueryData(documentFileQueryOptions('doc-1', LATEST.version, 0).queryKey);
    expect(file?.version).toBe(2);
    expect(await file?.docx.text()).toBe('DOCX v2');
  });

  it('leaves nothing in the cache when the server refuses, so that the page asks again', async () => {
    stubApi({
      [DOCUMENT]: jsonResponse(403, { error: 'forbidden', message: 'Kein Zugriff.' }),
      [LATEST_FILE]: jsonResponse(403, { error: 'forbidden', message: 'Kein Zugriff.' }),
    });
    const queryClient = createQueryClient();

    preloadStoredDocument(queryClient, 'doc-1');

    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(queryClient.getQueryData(storedDocumentQueryOptions('doc-1').queryKey)).toBeUndefined();
    expect(
      queryClient.getQueryData(documentFileQueryOptions('doc-1', LATEST.version, 0).queryKey),
    ).toBeUndefined();
  });
});
