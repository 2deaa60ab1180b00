import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/app/providers';
import type { DocumentReaderProps } from '@/components/document-viewer/document-reader';
import { captureDownloads } from '@/test/downloads';
import { jsonResponse, stubApi } from '@/test/utils';
import { preloadSigningPage } from './signing-preload';
import {
  CONSENT,
  expectSignerRequests,
  renderSigning,
  SIGN,
  signAnsweredWith,
  signButton,
  VIEW,
} from './signing-test-page';
import { LINK_TOKEN, signingView } from './test-fixtures';

const viewer = vi.hoisted(() => ({ props: null as DocumentReaderProps | null }));
// jsdom lays nothing out; the reader has its own tests, and e2e/signing-phone.spec.ts checks it in the browser.
vi.mock('@/components/document-viewer/document-reader', () => ({
  DocumentReader: (props: DocumentReaderProps) => {
    viewer.props = props;
    return 'Dokumentansicht';
  },
}));

/** Stands in for signature_pad, which needs a real canvas; `draw()` is a finished stroke. */
const pad = vi.hoisted(() => ({ draw: () => {} }));
vi.mock('signature_pad', () => ({
  default: class {
    private empty = true;
    private endStroke: (() => void) | undefined;
    constructor() {
      pad.draw = () => {
        this.empty = false;
        this.endStroke?.();
      };
    }
    addEventListener(type: string, listener: () => void) {
      if (type === 'endStroke') this.endStroke = listener;
    }
    removeEventListener() {}
    off() {}
    clear() {
      this.empty = true;
    }
    isEmpty() {
      return this.empty;
    }
    toDataURL() {
      return 'data:image/png;base64,iVBORw0KGgo=';
    }
  },
}));

/** `lost`: the decline dialog's code does not arrive, as on a phone whose connection dropped. */
const declineChunk = vi.hoisted(() => ({ lost: false }));
vi.mock('./decline-dialog', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./decline-dialog')>();
  return {
    get DeclineDialog() {
      if (declineChunk.lost) throw new TypeError('Failed to fetch dynamically imported module');
      return actual.DeclineDialog;
    },
  };
});

const DOCUMENT = 'GET /backend/signing/document';
const DECLINE = 'POST /backend/signing/decline';

beforeEach(() => {
  viewer.props = null;
  declineChunk.lost = false;
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

afterEach(() => {
  vi.useRealTimers();
});

const nameInput = () => screen.getByRole('textbox', { name: 'Dein vollständiger Name' });

describe('SigningPage: the document', () => {
  it('shows who sent what, the document and the signing form, without the app shell', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, signingView) });
    renderSigning();

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'Rahmenvertrag zur Unterschrift',
    );
    expect(screen.getByText('Vertragsgenerator')).toBeInTheDocument();
    expect(screen.getByText(/Gesendet von/).parentElement).toHaveTextContent(
      'Gesendet von: Lena Legal (legal@demo.local)',
    );
    expect(screen.getByText(/bitte unterschreib/)).toHaveTextContent(
      'Hallo Karl, bitte unterschreib den Rahmenvertrag.',
    );
    expect(screen.getByText('Dokumentansicht')).toBeInTheDocument();
    expect(nameInput()).toHaveValue('Karl Kunde');
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expectSignerRequests(api.fetchMock);
  });

  it('tells the company’s countersignatory that they sign for the company; nobody else', async () => {
    const countersignatory = { name: 'Lea Brandt', email: 'lea.brandt@demo.local', role: 'Firma' } as const;
    stubApi({ [VIEW]: jsonResponse(200, { ...signingView, signer: countersignatory }) });
    const { unmount } = renderSigning();

    expect(await screen.findByText('Du zeichnest für die Firma gegen')).toBeInTheDocument();
    expect(
      screen.getByText(
        /Deine Unterschrift kommt mit deinem Namen und deiner Funktion in den Block der Firma/,
      ),
    ).toBeInTheDocument();
    unmount();

    stubApi({ [VIEW]: jsonResponse(200, signingView) });
    renderSigning();
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Du zeichnest für die Firma gegen')).not.toBeInTheDocument();
  });

  it('loads the DOCX for the reader with the token in the header, even where a PDF rendition exists', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, { ...signingView, pdfAvailable: true }),
      [DOCUMENT]: new Response('DOCX'),
    });
    renderSigning();
    await screen.findByText('Dokumentansicht');

    const blob = await viewer.props?.load(new AbortController().signal);
    expect(await blob?.text()).toBe('DOCX');
    expect(api.callsTo(DOCUMENT).map((call) => call.url)).toEqual(['/backend/signing/document']);
    expectSignerRequests(api.fetchMock);
  });

  it('offers the document as a download beside the reader', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, signingView), [DOCUMENT]: new Response('DOCX') });
    const downloads = captureDownloads();
    renderSigning();
    await screen.findByText('Dokumentansicht');

    await userEvent.click(screen.getByRole('button', { name: 'Dokument herunterladen' }));
    await waitFor(() => expect(downloads).toEqual(['Rahmenvertrag PL-12345.docx']));
    expectSignerRequests(api.fetchMock);
  });

  it('shows the view the link asked for before the page was there, without asking again', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, signingView), [DOCUMENT]: new Response('DOCX') });
    const queryClient = createQueryClient();
    preloadSigningPage(queryClient, LINK_TOKEN);
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    renderSigning(`#${LINK_TOKEN}`, queryClient);

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'Rahmenvertrag zur Unterschrift',
    );
    // The view and the document once each (the document's path starts with the view's).
    expect(api.callsTo(VIEW).map((call) => call.url)).toEqual([
      '/backend/signing',
      '/backend/signing/document',
    ]);
  });
});

describe('SigningPage: signing', () => {
  it('enables Unterschreiben only with consent and a name', async () => {
    stubApi({ [VIEW]: jsonResponse(200, signingView) });
    renderSigning();
    await screen.findByText('Dokumentansicht');

    expect(signButton()).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: CONSENT }));
    expect(signButton()).toBeEnabled();
    await userEvent.clear(nameInput());
    expect(signButton()).toBeDisabled();
    await userEvent.type(nameInput(), '   ');
    expect(signButton()).toBeDisabled();
    await userEvent.type(nameInput(), 'Karl');
    expect(signButton()).toBeEnabled();
    await userEvent.click(screen.getByRole('checkbox', { name: CONSENT }));
    expect(signButton()).toBeDisabled();
  });

  it('refuses a name too short to be a full name, and sends nothing', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, signingView) });
    renderSigning();
    await screen.findByText('Dokumentansicht');
    await userEvent.click(screen.getByRole('checkbox', { name: CONSENT }));
    await userEvent.clear(nameInput());
    await userEvent.type(nameInput(), 'K');
    await userEvent.click(signButton());

    expect(screen.getByRole('alert')).toHaveTextContent('Bitte gib deinen vollständigen Namen ein.');
    expect(nameInput()).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(SIGN)).toEqual([]);
  });

  it('signs once with consent and the typed name, then thanks the signer', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, signingView),
      [SIGN]: jsonResponse(200, { ...signingView, state: 'signed' }),
    });
    renderSigning();
    await screen.findByText('Dokumentansicht');
    await userEvent.click(screen.getByRole('checkbox', { name: CONSENT }));
    await userEvent.clear(nameInput());
    await userEvent.type(nameInput(), '  Karl Kunde ');
    await userEvent.dblClick(signButton());

    expect(await screen.findByRole('heading', { name: 'Vielen Dank' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Vielen Dank, du hast unterschrieben. Sobald alle unterschrieben haben, erhältst du das unterschriebene PDF und das Dokument per E-Mail.',
    );
    expect(screen.queryByRole('button', { name: 'Unterschreiben' })).not.toBeInTheDocument();
    expect(api.callsTo(SIGN)).toEqual([
      { url: '/backend/signing/sign', body: { consent: true, typedName: 'Karl Kunde' } },
    ]);
    expectSignerRequests(api.fetchMock);
  });

  it('sends a drawn signature as PNG, and none after Löschen', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, signingView),
      [SIGN]: jsonResponse(400, {
        error: 'invalid_input',
        message: 'Bitte prüfe deine Angaben.',
        fields: { drawnSignature: ['Die gezeichnete Unterschrift ist zu groß.'] },
      }),
    });
    renderSigning();
    await screen.findByText('Dokumentansicht');
    expect(screen.getByRole('img', { name: 'Unterschrift zeichnen (optional)' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: CONSENT }));

    act(() => pad.draw());
    await userEvent.click(signButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Die gezeichnete Unterschrift ist zu groß.');

    await userEvent.click(screen.getByRole('button', { name: 'Löschen' }));
    await userEvent.click(signButton());
    await waitFor(() => expect(api.callsTo(SIGN)).toHaveLength(2));
    expect(api.callsTo(SIGN).map((call) => call.body)).toEqual([
      { consent: true, typedName: 'Karl Kunde', drawnSignature: 'data:image/png;base64,iVBORw0KGgo=' },
      { consent: true, typedName: 'Karl Kunde' },
    ]);
  });

  it("shows another failure in the server's words and keeps the form", async () => {
    const message = 'Die Unterschrift konnte nicht gespeichert werden. Bitte versuche es erneut.';
    await signAnsweredWith(jsonResponse(500, { error: 'internal', message }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(signButton()).toBeEnabled();
  });
});

describe('SigningPage: declining', () => {
  it('keeps the page and says so when the decline dialog’s code does not arrive, and opens it on a second try', async () => {
    stubApi({ [VIEW]: jsonResponse(200, signingView) });
    renderSigning();
    await screen.findByText('Dokumentansicht');

    declineChunk.lost = true;
    await userEvent.click(screen.getByRole('button', { name: 'Ablehnen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Der Server ist nicht erreichbar. Bitte versuche es erneut.',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unterschreiben' })).toBeInTheDocument();

    declineChunk.lost = false;
    await userEvent.click(screen.getByRole('button', { name: 'Ablehnen' }));
    expect(await screen.findByRole('dialog', { name: 'Unterschrift ablehnen' })).toBeInTheDocument();
    expect(screen.queryByText('Der Server ist nicht erreichbar. Bitte versuche es erneut.')).toBeNull();
  });

  it('asks for a reason of at least 3 characters, then tells the signer the sender knows', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, signingView),
      [DECLINE]: jsonResponse(200, { ...signingView, state: 'declined' }),
    });
    renderSigning();
    await screen.findByText('Dokumentansicht');

    await userEvent.click(screen.getByRole('button', { name: 'Ablehnen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unterschrift ablehnen' });
    const reason = within(dialog).getByRole('textbox', { name: 'Grund der Ablehnung' });
    // The dialog, whose code loads on this first click, opens with the keyboard in its reason.
    await waitFor(() => expect(reason).toHaveFocus());
    await userEvent.type(reason, ' no ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Bitte gib einen Grund für die Ablehnung an.',
    );
    expect(api.callsTo(DECLINE)).toEqual([]);

    await userEvent.clear(reason);
    await userEvent.type(reason, 'Der Stundensatz stimmt nicht.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));

    expect(await screen.findByRole('heading', { name: 'Du hast abgelehnt' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Du hast das Dokument abgelehnt. Lena Legal wurde darüber informiert.',
    );
    expect(api.callsTo(DECLINE)).toEqual([
      { url: '/backend/signing/decline', body: { reason: 'Der Stundensatz stimmt nicht.' } },
    ]);
    expectSignerRequests(api.fetchMock);
  });
});
