import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReviewerView } from '@vertragsgenerator/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi } from '@/test/utils';
import { COMMENTS, contractResponse, DOCUMENT, RETURN, renderReview, VIEW } from './review-test-page';
import { reviewerView } from './test-fixtures';

/**
 * Stands in for superdoc's loader (lib/superdoc.ts), whose module this test watches being imported: the
 * factory runs on its first import, which must wait for „Änderungen vorschlagen“. jsdom could not lay
 * superdoc out anyway; e2e tests see the real one.
 */
const superdoc = vi.hoisted(() => {
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const state = {
    imported: false,
    /** What the reviewer has selected in superdoc. */
    selected: '',
    /** The export fails as superdoc reports it: as an event, handing out a file anyway. */
    exportFails: false,
    exported: new Blob(['PK exported with suggestions']),
    handlers,
    /** The reviewer types in superdoc: it reports an update. */
    change() {
      for (const handler of handlers.get('editor-update') ?? []) handler({});
    },
  };
  const instance = {
    on: (event: string, handler: (payload: unknown) => void) => {
      handlers.set(event, (handlers.get(event) ?? new Set()).add(handler));
    },
    off: (event: string, handler: (payload: unknown) => void) => handlers.get(event)?.delete(handler),
    export: vi.fn(async () => {
      if (state.exportFails)
        for (const handler of handlers.get('exception') ?? []) handler({ error: 'broken' });
      return state.exported;
    }),
    destroy: vi.fn(),
    get activeEditor() {
      const selected = state.selected;
      return {
        state: {
          selection: { empty: selected === '', from: 3, to: 3 + selected.length },
          doc: { textBetween: () => selected },
        },
      };
    },
  };
  return { state, instance, open: vi.fn(async (..._args: unknown[]) => instance) };
});
vi.mock('@/lib/superdoc', () => {
  superdoc.state.imported = true;
  return { openSuperdoc: superdoc.open };
});

beforeEach(() => {
  superdoc.state.selected = '';
  superdoc.state.exportFails = false;
  superdoc.state.handlers.clear();
  superdoc.open.mockClear();
  superdoc.instance.export.mockClear();
});

const suggestButton = () => screen.getByRole('button', { name: 'Änderungen vorschlagen' });

async function openEditor(api: ReturnType<typeof stubApi>) {
  renderReview();
  await screen.findByRole('document', { name: 'Vertrag' });
  await userEvent.click(suggestButton());
  await waitFor(() => expect(superdoc.open).toHaveBeenCalledTimes(1));
  await screen.findByText(
    'Sie können jetzt im Vertrag schreiben und löschen; jede Änderung wird als Vorschlag markiert.',
  );
  return api;
}

describe('ReviewPage: suggesting changes', () => {
  // The first test of the file to render the page: a module, once imported, stays imported for the file.
  it('loads superdoc only on „Änderungen vorschlagen“, then opens the contract in suggesting mode as the reviewer', async () => {
    stubApi({ [VIEW]: jsonResponse(200, reviewerView), [DOCUMENT]: await contractResponse() });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    // The whole page is there, the comments' form included, and still no superdoc.
    expect(screen.getByRole('textbox', { name: 'Kommentar' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(superdoc.state.imported).toBe(false);

    await userEvent.click(suggestButton());
    await waitFor(() => expect(superdoc.open).toHaveBeenCalledTimes(1));
    expect(superdoc.state.imported).toBe(true);
    const [container, docx, options] = superdoc.open.mock.calls[0] ?? [];
    expect(container).toBeInstanceOf(HTMLElement);
    expect(docx).toBeInstanceOf(Blob);
    expect(options).toMatchObject({
      documentMode: 'suggesting',
      role: 'suggester',
      user: { name: 'Karla Kundin', email: 'karla@kunde.de' },
    });
    expect(options).not.toHaveProperty('toolbar');
    expect(
      await screen.findByText(
        'Sie können jetzt im Vertrag schreiben und löschen; jede Änderung wird als Vorschlag markiert.',
      ),
    ).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Änderungen vorschlagen' })).not.toBeInTheDocument();
  });

  it('sends the exported DOCX with source browser once the reviewer changed something', async () => {
    const api = await openEditor(
      stubApi({
        [VIEW]: jsonResponse(200, reviewerView),
        [DOCUMENT]: await contractResponse(),
        [RETURN]: jsonResponse(200, { ...reviewerView, returnedAt: '2026-07-03T12:15:00.000Z' }),
      }),
    );
    // Opened but unchanged: nothing to send but the comments.
    expect(
      screen.getByText('Sie senden Ihre Kommentare zurück, ohne Änderungen am Vertrag.'),
    ).toBeInTheDocument();
    superdoc.state.change();
    expect(
      await screen.findByText(
        'Sie senden Ihre Änderungsvorschläge aus dem Editor und Ihre Kommentare zurück.',
      ),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Zurücksenden' }));
    await userEvent.click(screen.getByRole('button', { name: 'Ja, zurücksenden' }));

    await screen.findByText(/^Zurückgesendet am/);
    expect(superdoc.instance.export).toHaveBeenCalledWith({ exportType: ['docx'], triggerDownload: false });
    const [, init] = api.fetchMock.mock.calls.find(([, call]) => call?.method === 'POST') ?? [];
    const headers = new Headers(init?.headers);
    expect(headers.get('x-review-source')).toBe('browser');
    expect(headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const body = init?.body;
    expect(body).toBeInstanceOf(Blob);
    expect(await (body as Blob).text()).toBe('PK exported with suggestions');
    // Read-only: superdoc is closed again.
    await waitFor(() => expect(superdoc.instance.destroy).toHaveBeenCalled());
  });

  it('sends nothing when the export fails, and says so', async () => {
    const api = await openEditor(
      stubApi({ [VIEW]: jsonResponse(200, reviewerView), [DOCUMENT]: await contractResponse() }),
    );
    superdoc.state.change();
    superdoc.state.exportFails = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await userEvent.click(await screen.findByRole('button', { name: 'Zurücksenden' }));
    await userEvent.click(screen.getByRole('button', { name: 'Ja, zurücksenden' }));

    expect(
      await screen.findByText(/^Ihre Änderungen konnten nicht aus dem Editor übernommen werden/),
    ).toBeInTheDocument();
    expect(api.callsTo(RETURN)).toEqual([]);
  });

  it('quotes what the reviewer selected in superdoc', async () => {
    const api = await openEditor(
      stubApi({
        [VIEW]: jsonResponse(200, reviewerView),
        [DOCUMENT]: await contractResponse(),
        [COMMENTS]: jsonResponse(200, reviewerView),
      }),
    );
    superdoc.state.selected = '1.000 Euro';
    await userEvent.click(screen.getByRole('button', { name: 'Markierten Text übernehmen' }));
    expect(screen.getByRole('textbox', { name: /^Textstelle/ })).toHaveValue('1.000 Euro');
    await userEvent.type(screen.getByRole('textbox', { name: 'Kommentar' }), 'Zu hoch.');
    await userEvent.click(screen.getByRole('button', { name: 'Kommentar senden' }));

    await waitFor(() =>
      expect(api.callsTo(COMMENTS).map(({ body }) => body)).toEqual([
        { text: 'Zu hoch.', quote: '1.000 Euro' },
      ]),
    );
  });
});

it('never opens superdoc for a return without the editor', async () => {
  const view: ReviewerView = { ...reviewerView, returnedAt: null };
  stubApi({
    [VIEW]: jsonResponse(200, view),
    [DOCUMENT]: await contractResponse(),
    [RETURN]: jsonResponse(200, { ...view, returnedAt: '2026-07-03T12:15:00.000Z' }),
  });
  renderReview();
  await screen.findByRole('document', { name: 'Vertrag' });
  await userEvent.click(screen.getByRole('button', { name: 'Zurücksenden' }));
  await userEvent.click(screen.getByRole('button', { name: 'Ja, zurücksenden' }));
  await screen.findByText(/^Zurückgesendet am/);
  expect(superdoc.open).not.toHaveBeenCalled();
});
