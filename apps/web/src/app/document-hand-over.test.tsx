import { renderHook } from '@testing-library/react';
import type { RuntimeConfig } from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { GeneratedFile } from '@/features/generation';
import { captureDownloads } from '@/test/downloads';
import { fakeAuthService, testConfig } from '@/test/utils';
import { useDocumentHandOver } from './document-hand-over';
import { AppProviders } from './providers';

const file: GeneratedFile = { blob: new Blob(['PK']), fileName: 'vertrag.docx', documentId: 'doc-7' };

let downloads: string[];

beforeEach(() => {
  downloads = captureDownloads();
});

function handOver(editor: RuntimeConfig['editor']) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders config={{ ...testConfig, editor }} auth={fakeAuthService()} env="test">
      {children}
    </AppProviders>
  );
  return renderHook(() => useDocumentHandOver(), { wrapper }).result.current;
}

describe('useDocumentHandOver', () => {
  it('builtin: opens the editor page of the stored document in a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    expect(await handOver('builtin')(file)).toEqual({ blockedUrl: null });
    expect(open).toHaveBeenCalledWith('/dokumente/doc-7', '_blank');
    expect(downloads).toEqual([]);
  });

  it('builtin: hands the blocked editor page back for the dialog', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    expect(await handOver('builtin')(file)).toEqual({ blockedUrl: '/dokumente/doc-7' });
    expect(downloads).toEqual([]);
  });

  it('builtin: downloads when opening the tab fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(window, 'open').mockImplementation(() => {
      throw new Error('not allowed');
    });
    expect(await handOver('builtin')(file)).toEqual({ blockedUrl: null });
    expect(downloads).toEqual(['vertrag.docx']);
  });

  it('download: downloads under the server’s file name', async () => {
    const open = vi.spyOn(window, 'open');
    expect(await handOver('download')(file)).toEqual({ blockedUrl: null });
    expect(downloads).toEqual(['vertrag.docx']);
    expect(open).not.toHaveBeenCalled();
  });
});
