import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi } from '@/test/utils';
import { renderSigning, signAnsweredWith, VIEW } from './signing-test-page';
import { signingView } from './test-fixtures';

// jsdom lays out neither the DOCX (the signing page's reader stands in as a text) nor signature_pad's canvas.
vi.mock('@/components/document-viewer/document-reader', () => ({ DocumentReader: () => 'Dokumentansicht' }));
vi.mock('signature_pad', () => import('@/test/untouched-signature-pad'));

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

describe('SigningPage: a link that does not work', () => {
  it.each([
    [
      404,
      'link_invalid',
      'Dieser Link ist ungültig. Bitte prüfe, ob du ihn vollständig aus der E-Mail übernommen hast.',
    ],
    [
      410,
      'link_expired',
      'Dieser Link ist abgelaufen. Bitte Lena Legal (legal@demo.local) um einen neuen Link.',
    ],
    [409, 'envelope_closed', 'Der Absender hat dieses Dokument zurückgezogen.'],
  ])('%i %s: shows the message on its own page, without a form', async (status, error, message) => {
    stubApi({ [VIEW]: jsonResponse(status, { error, message }) });
    renderSigning();

    expect(
      await screen.findByRole('heading', { name: 'Dieser Link funktioniert nicht' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unterschreiben' })).not.toBeInTheDocument();
    expect(screen.queryByText('Dokumentansicht')).not.toBeInTheDocument();
  });

  it('says so when the link stops working while the page is open', async () => {
    const message = 'Der Absender hat dieses Dokument zurückgezogen.';
    await signAnsweredWith(jsonResponse(409, { error: 'envelope_closed', message }));

    expect(
      await screen.findByRole('heading', { name: 'Dieser Link funktioniert nicht' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('asks for the link from the e-mail when the token is missing, and loads nothing', () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, signingView) });
    renderSigning('');
    expect(screen.getByRole('heading', { name: 'Dieser Link funktioniert nicht' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Der Link ist unvollständig. Bitte öffne ihn direkt aus deiner E-Mail.',
    );
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('offers to try again when the server is not reachable', async () => {
    stubApi({ [VIEW]: [new TypeError('Failed to fetch'), jsonResponse(200, signingView)] });
    renderSigning();

    expect(
      await screen.findByRole('heading', { name: 'Die Seite konnte nicht geladen werden' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Der Server ist nicht erreichbar. Bitte versuche es erneut.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Dokumentansicht')).toBeInTheDocument();
  });
});
