import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_VIEW_WAIT_MS } from '@/components/use-superdoc-opening';
import { renderWithProviders } from '@/test/utils';
import { DocxEditorFrame } from './docx-editor-frame';

const control = vi.hoisted(() => ({
  /** How often superdoc (its fake) was asked to open a file. */
  openings: 0,
  /** Finishes the first view's rendering, once it has started. */
  finishFirstView: undefined as (() => void) | undefined,
}));

// jsdom cannot run superdoc; what counts here is when the frame asks it to open the file.
vi.mock('./docx-editor', () => ({
  openDocxEditor: async () => {
    control.openings++;
    return { exportDocx: async () => new Blob(), destroy: () => {} };
  },
}));

// A first view that renders until the test finishes it.
vi.mock('@/components/docx-first-view/load-first-view', () => ({
  loadFirstViewRenderer: async () => ({
    renderFirstView: () =>
      new Promise<void>((resolve) => {
        control.finishFirstView = resolve;
      }),
  }),
}));

afterEach(() => {
  vi.useRealTimers();
  control.openings = 0;
  control.finishFirstView = undefined;
});

function renderFrame() {
  renderWithProviders(
    <DocxEditorFrame
      docx={new Blob(['DOCX'])}
      readOnly={false}
      onEditor={() => {}}
      onChange={() => {}}
      onFailed={() => {}}
    />,
  );
}

describe('DocxEditorFrame', () => {
  it('lets superdoc open the file only once the first view has shown it', async () => {
    renderFrame();
    await waitFor(() => expect(control.finishFirstView).toBeDefined());
    // superdoc's code has long loaded (mocked); its opening still waits for the first view.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(control.openings).toBe(0);

    await act(async () => control.finishFirstView?.());
    await waitFor(() => expect(control.openings).toBe(1));
  });

  it('lets superdoc open the file when the first view does not finish', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderFrame();
    await waitFor(() => expect(control.finishFirstView).toBeDefined());
    expect(control.openings).toBe(0);

    await act(() => vi.advanceTimersByTimeAsync(FIRST_VIEW_WAIT_MS));
    await waitFor(() => expect(control.openings).toBe(1));
  });
});
