import { cleanup, renderHook } from '@testing-library/react';
import type { RuntimeConfig } from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GenerationTarget } from '@/lib/document-generation';
import { RuntimeConfigProvider } from '@/lib/runtime-config';
import { testConfig } from '@/test/utils';
import { usePreloadedEditor } from './preload-editor';

const superdoc = vi.hoisted(() => ({ loaded: false }));

// jsdom cannot run superdoc; what counts here is whether the form loads it.
vi.mock('@/lib/superdoc', () => {
  superdoc.loaded = true;
  return {};
});

/** The idle callbacks the form asked for, run when the test says the browser is idle. */
let idleCallbacks: (() => void)[];

beforeEach(() => {
  idleCallbacks = [];
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => idleCallbacks.push(callback));
  vi.stubGlobal('cancelIdleCallback', () => {});
});

afterEach(() => {
  // Unmounted first: leaving the form cancels its idle callback.
  cleanup();
  vi.unstubAllGlobals();
});

function renderForm(editor: RuntimeConfig['editor'], target: GenerationTarget) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <RuntimeConfigProvider config={{ ...testConfig, editor }}>{children}</RuntimeConfigProvider>
  );
  renderHook(() => usePreloadedEditor(target), { wrapper });
}

describe('a form whose document the built-in editor opens', () => {
  it('loads superdoc once the browser is idle', async () => {
    renderForm('builtin', 'docx');
    expect(superdoc.loaded).toBe(false);
    for (const callback of idleCallbacks) callback();
    await vi.waitFor(() => expect(superdoc.loaded).toBe(true));
  });

  it('loads nothing for another editor or an envelope', () => {
    renderForm('google', 'docx');
    renderForm('download', 'offer');
    renderForm('builtin', 'signature');
    expect(idleCallbacks).toHaveLength(0);
  });
});
