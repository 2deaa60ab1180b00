import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { docxWithParagraphs } from '@/test/docx';
import { renderWithProviders } from '@/test/utils';
import { DocxFirstView } from './docx-first-view';

const NOTICE = 'Vorschau – der Editor wird geladen …';

function renderFirstView(docx: Blob) {
  const onShown = vi.fn();
  const onScroll = vi.fn();
  renderWithProviders(
    <DocxFirstView
      docx={docx}
      label="Dokument"
      notice={NOTICE}
      loader={<p>Wird geladen</p>}
      onShown={onShown}
      onScroll={onScroll}
      onRemovedWithFocus={() => {}}
    />,
  );
  return { onShown, onScroll };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DocxFirstView', () => {
  it('shows the document’s text with the notice of what still loads, and reports it once', async () => {
    const { onShown } = renderFirstView(
      await docxWithParagraphs(['Rahmenvertrag', 'zwischen der Kundin AG']),
    );
    expect(screen.getByText('Wird geladen')).toBeInTheDocument();

    const view = await screen.findByRole('document', { name: `Dokument: ${NOTICE}` });
    expect(view).toHaveTextContent('Rahmenvertrag');
    expect(view).toHaveTextContent('zwischen der Kundin AG');
    expect(screen.getByRole('status')).toHaveTextContent(NOTICE);
    // It scrolls, so the keyboard must reach it.
    expect(view).toHaveAttribute('tabindex', '0');
    expect(screen.queryByText('Wird geladen')).not.toBeInTheDocument();
    expect(onShown).toHaveBeenCalledTimes(1);
  });

  it('keeps the loader and reports nothing when the file is no DOCX', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { onShown } = renderFirstView(new Blob(['<html>Fehlerseite</html>'], { type: 'text/html' }));
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(screen.getByText('Wird geladen')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(onShown).not.toHaveBeenCalled();
  });

  it('reports how far the reader has scrolled, as a share of what can be scrolled', async () => {
    const { onScroll } = renderFirstView(await docxWithParagraphs(['Rahmenvertrag']));
    const view = await screen.findByRole('document', { name: `Dokument: ${NOTICE}` });
    // jsdom lays nothing out: the sizes of a rendering three times as tall as the view.
    Object.defineProperties(view, {
      scrollHeight: { value: 1500 },
      clientHeight: { value: 500 },
    });
    view.scrollTop = 250;
    fireEvent.scroll(view);
    expect(onScroll).toHaveBeenLastCalledWith(0.25);
  });

  it('as the only view of a document, names it by its label alone, says nothing loads and reflows it', async () => {
    const onFailed = vi.fn();
    renderWithProviders(
      <DocxFirstView
        docx={await docxWithParagraphs(['Rahmenvertrag'])}
        label="Dokument"
        reflow
        loader={<p>Wird geladen</p>}
        onShown={() => {}}
        onFailed={onFailed}
      />,
    );
    const view = await screen.findByRole('document', { name: 'Dokument' });
    expect(view).toHaveTextContent('Rahmenvertrag');
    expect(view.querySelector('.docx-reflow')).not.toBeNull();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(onFailed).not.toHaveBeenCalled();
  });

  it('tells its owner when the file is no DOCX, if the owner has nothing else to show it with', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const onFailed = vi.fn();
    renderWithProviders(
      <DocxFirstView
        docx={new Blob(['<html>Fehlerseite</html>'], { type: 'text/html' })}
        label="Dokument"
        loader={<p>Wird geladen</p>}
        onShown={() => {}}
        onFailed={onFailed}
      />,
    );
    await waitFor(() => expect(onFailed).toHaveBeenCalledTimes(1));
    expect(warn).not.toHaveBeenCalled();
  });
});
