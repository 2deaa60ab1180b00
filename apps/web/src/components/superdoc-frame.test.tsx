import { cleanup, screen, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { docxWithParagraphs } from '@/test/docx';
import { renderWithProviders } from '@/test/utils';
import { SuperdocFrame } from './superdoc-frame';

const NOTICE = 'Vorschau – der Editor wird geladen …';
const FIRST_VIEW = `Dokument: ${NOTICE}`;

async function renderFrame(
  ready: boolean,
  file: Blob | Promise<Blob> = docxWithParagraphs(['Rahmenvertrag', 'zwischen der Kundin AG']),
) {
  const container = createRef<HTMLDivElement>();
  const onShown = vi.fn();
  const onFirstViewDone = vi.fn();
  let docx = await file;
  const frame = (isReady: boolean) => (
    <SuperdocFrame
      containerRef={container}
      height={600}
      label="Dokument"
      docx={docx}
      ready={isReady}
      loader={<p>Wird geladen</p>}
      firstViewNotice={NOTICE}
      onShown={onShown}
      onFirstViewDone={onFirstViewDone}
    />
  );
  const view = renderWithProviders(frame(ready));
  return {
    container,
    onShown,
    onFirstViewDone,
    setReady: (isReady: boolean) => view.rerender(frame(isReady)),
    /** Another file in the same frame, as a viewer shows the next document while superdoc opens it. */
    openAnother: (another: Blob) => {
      docx = another;
      view.rerender(frame(false));
    },
  };
}

describe('SuperdocFrame', () => {
  it('shows the first view while superdoc opens, then superdoc alone, and reports the document shown once', async () => {
    const { container, onShown, setReady } = await renderFrame(false);
    // superdoc's element is laid out for it to measure, but out of reach until it is ready.
    expect(container.current).toHaveAttribute('inert');

    expect(await screen.findByRole('document', { name: FIRST_VIEW })).toHaveTextContent(
      'zwischen der Kundin AG',
    );
    expect(onShown).toHaveBeenCalledTimes(1);

    setReady(true);
    expect(screen.queryByRole('document', { name: FIRST_VIEW })).not.toBeInTheDocument();
    expect(screen.getByRole('document', { name: 'Dokument' })).toBe(container.current);
    expect(container.current).not.toHaveAttribute('inert');
    expect(onShown).toHaveBeenCalledTimes(1);
  });

  it('tells superdoc when the first view has shown the document, and when it cannot', async () => {
    const { onFirstViewDone } = await renderFrame(false);
    await screen.findByRole('document', { name: FIRST_VIEW });
    expect(onFirstViewDone).toHaveBeenCalledTimes(1);
    cleanup();

    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const broken = await renderFrame(false, new Blob(['kein DOCX']));
    await waitFor(() => expect(broken.onFirstViewDone).toHaveBeenCalledTimes(1));
    // Nothing shows until superdoc decides about the file.
    expect(broken.onShown).not.toHaveBeenCalled();
    expect(screen.getByText('Wird geladen')).toBeInTheDocument();
  });

  it('reports another file in the same frame shown anew', async () => {
    const { onShown, setReady, openAnother } = await renderFrame(false);
    await screen.findByRole('document', { name: FIRST_VIEW });
    setReady(true);
    expect(onShown).toHaveBeenCalledTimes(1);

    openAnother(await docxWithParagraphs(['Kündigung']));
    expect(await screen.findByRole('document', { name: FIRST_VIEW })).toHaveTextContent('Kündigung');
    expect(onShown).toHaveBeenCalledTimes(2);
  });

  it('reports the document shown when superdoc is ready first', async () => {
    const { onShown, setReady } = await renderFrame(false);
    setReady(true);
    expect(onShown).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('document', { name: FIRST_VIEW })).not.toBeInTheDocument();
  });

  it('lets superdoc take over where the reader of the first view had scrolled to', async () => {
    const { container, setReady } = await renderFrame(false);
    const firstView = await screen.findByRole('document', { name: FIRST_VIEW });
    const frame = container.current?.parentElement;
    if (!frame) throw new Error('superdoc’s element has no frame');
    // jsdom lays nothing out: a first view and a superdoc rendering of different heights.
    Object.defineProperties(firstView, { scrollHeight: { value: 1500 }, clientHeight: { value: 500 } });
    Object.defineProperties(frame, { scrollHeight: { value: 2600 }, clientHeight: { value: 600 } });
    firstView.scrollTop = 500;
    firstView.dispatchEvent(new Event('scroll'));

    setReady(true);
    expect(frame.scrollTop).toBe(1000);
  });

  it('hands the keyboard focus on to superdoc’s frame when it replaces the first view the reader was in', async () => {
    const { container, setReady } = await renderFrame(false);
    const firstView = await screen.findByRole('document', { name: FIRST_VIEW });
    firstView.focus();
    setReady(true);
    expect(document.activeElement).toBe(container.current?.parentElement);
  });

  it('leaves the focus where it is when the reader was elsewhere', async () => {
    const { setReady } = await renderFrame(false);
    await screen.findByRole('document', { name: FIRST_VIEW });
    setReady(true);
    expect(document.activeElement).toBe(document.body);
  });
});
