import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/test/utils';
import { preloadForPage } from './page-preload';

const { loadFirstView, loadSuperdoc } = vi.hoisted(() => ({ loadFirstView: vi.fn(), loadSuperdoc: vi.fn() }));
// Both stand for `import()` of a renderer's chunks, which vitest would load for real.
vi.mock('@/components/docx-first-view/load-first-view', () => ({ preloadFirstViewRenderer: loadFirstView }));
vi.mock('@/components/document-viewer/load-renderer', () => ({ loadDocxRenderer: loadSuperdoc }));

beforeEach(() => {
  loadFirstView.mockReset().mockResolvedValue({});
  loadSuperdoc.mockReset().mockResolvedValue({});
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('preloadForPage', () => {
  it('starts the first view for the editor tab of a document, and asks the server nothing', () => {
    const api = stubApi({});
    preloadForPage('/dokumente/3f2a');
    expect(loadFirstView).toHaveBeenCalledTimes(1);
    // superdoc, cached in that browser, would hold up the first view while it compiles.
    expect(loadSuperdoc).not.toHaveBeenCalled();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it.each(['/start', '/login', '/dokumente', '/vorlagen/angebot-de', '/contract/docx', '/unterschreiben'])(
    'starts nothing on %s',
    (pathname) => {
      const api = stubApi({});
      preloadForPage(pathname);
      expect(loadFirstView).not.toHaveBeenCalled();
      expect(loadSuperdoc).not.toHaveBeenCalled();
      expect(api.fetchMock).not.toHaveBeenCalled();
    },
  );
});
