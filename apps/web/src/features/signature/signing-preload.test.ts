import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/app/providers';
import { jsonResponse, stubApi } from '@/test/utils';
import { signingDocumentKey, signingQueryOptions } from './signing-api';
import { preloadSigningPage } from './signing-preload';
import { signingView, unverifiedView } from './test-fixtures';

const { loadFirstView, loadSuperdoc } = vi.hoisted(() => ({ loadFirstView: vi.fn(), loadSuperdoc: vi.fn() }));
// Both stand for `import()` of a renderer's chunks, which vitest would load for real.
vi.mock('@/components/docx-first-view/load-first-view', () => ({ preloadFirstViewRenderer: loadFirstView }));
vi.mock('@/components/document-viewer/load-renderer', () => ({ loadDocxRenderer: loadSuperdoc }));

const TOKEN = 'Zk9vYmFyLXRva2VuLTEyMzQ1Njc4OTA';
const VIEW = 'GET /backend/signing';
const DOCUMENT = 'GET /backend/signing/document';
const docxView = { ...signingView, pdfAvailable: false };

beforeEach(() => {
  loadFirstView.mockReset().mockResolvedValue({});
  loadSuperdoc.mockReset().mockResolvedValue({});
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Until the prefetch has settled: it runs detached, as the signing entry (app/signing) starts it. */
async function settled(queryClient: ReturnType<typeof createQueryClient>) {
  await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
  await new Promise((resolve) => setTimeout(resolve));
}

describe('preloadSigningPage', () => {
  it.each([
    ['a DOCX', docxView],
    ['a PDF rendition beside it', { ...signingView, pdfAvailable: true }],
  ])(
    'asks for the signing view with the link token, keeps it and the DOCX for the page and starts the first view, never superdoc, when the document comes as %s',
    async (_case, view) => {
      const api = stubApi({ [VIEW]: jsonResponse(200, view), [DOCUMENT]: new Response('DOCX') });
      const queryClient = createQueryClient();
      preloadSigningPage(queryClient, TOKEN);
      await settled(queryClient);

      // The view, then the document (whose path the view's starts).
      expect(api.callsTo(VIEW).map((call) => call.url)).toEqual([
        '/backend/signing',
        '/backend/signing/document',
      ]);
      expect(api.headersOf(VIEW)[0]?.get('x-signing-token')).toBe(TOKEN);
      expect(queryClient.getQueryData(signingQueryOptions(TOKEN).queryKey)).toEqual(view);
      expect(api.headersOf(DOCUMENT)[0]?.get('x-signing-token')).toBe(TOKEN);
      expect(
        await queryClient.getQueryData<Blob>(['document-viewer', signingDocumentKey(view), false])?.text(),
      ).toBe('DOCX');
      expect(loadFirstView).toHaveBeenCalledTimes(1);
      expect(loadSuperdoc).not.toHaveBeenCalled();
    },
  );

  it('starts the first view but asks for no document before the signer confirmed the code', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, unverifiedView) });
    const queryClient = createQueryClient();
    preloadSigningPage(queryClient, TOKEN);
    await settled(queryClient);
    expect(api.callsTo(DOCUMENT)).toHaveLength(0);
    expect(loadFirstView).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['the envelope is signed already', { ...docxView, state: 'signed' }],
    ['it was declined', { ...docxView, state: 'declined' }],
  ])('loads neither renderer nor the document when %s', async (_case, view) => {
    const api = stubApi({ [VIEW]: jsonResponse(200, view) });
    const queryClient = createQueryClient();
    preloadSigningPage(queryClient, TOKEN);
    await settled(queryClient);
    expect(queryClient.getQueryData(signingQueryOptions(TOKEN).queryKey)).toEqual(view);
    expect(api.callsTo(DOCUMENT)).toHaveLength(0);
    expect(loadFirstView).not.toHaveBeenCalled();
    expect(loadSuperdoc).not.toHaveBeenCalled();
  });

  it('leaves a link the server refuses to the page, which asks again and says so', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(410, { code: 'link_expired', message: 'Der Link ist abgelaufen.' }),
    });
    const queryClient = createQueryClient();
    preloadSigningPage(queryClient, TOKEN);
    await settled(queryClient);
    expect(api.callsTo(VIEW)).toHaveLength(1);
    expect(queryClient.getQueryState(signingQueryOptions(TOKEN).queryKey)?.status).toBe('error');
    expect(loadFirstView).not.toHaveBeenCalled();
  });

  it('asks nothing for a signing page without a token', () => {
    const api = stubApi({});
    preloadSigningPage(createQueryClient(), '');
    expect(api.fetchMock).not.toHaveBeenCalled();
  });
});
