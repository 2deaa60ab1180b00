import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SealCheck } from '@vertragsgenerator/domain';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { SealCheckPage } from './seal-check-page';

const CHECK = 'POST /backend/signature/check';

const sealed: SealCheck = {
  verdict: 'sealed',
  sha256: 'ab'.repeat(32),
  signature: {
    commonName: 'Vertragsgenerator-Siegel vertraege.firma.example',
    valid: true,
    coversWholeFile: true,
  },
  envelope: {
    id: 'env-1',
    matchId: 'PL-10002',
    subject: 'Bitte unterschreiben: Rahmenvertrag',
    fileName: 'PL-10002 Rahmenvertrag.docx',
    completedAt: '2026-11-24T09:30:00Z',
    sealLevel: 'B-LTA',
    signers: [
      { role: 'Kunde', name: 'Klara Kunde', email: 'klara@kunde.example', signedAt: '2026-11-24T09:00:00Z' },
      { role: 'Kunde2', name: 'Karl Zweit', email: 'karl@kunde.example', signedAt: '2026-11-24T09:30:00Z' },
    ],
  },
};

function renderPage() {
  renderWithProviders(
    <MemoryRouter>
      <SealCheckPage />
    </MemoryRouter>,
  );
  return document.querySelector('input[type="file"]') as HTMLInputElement;
}
const pdfFile = (name = 'Rahmenvertrag - unterschrieben.pdf') =>
  new File(['%PDF-1.7 …'], name, { type: 'application/pdf' });

describe('SealCheckPage', () => {
  it('gives the file input itself a name, not only the button that opens it', () => {
    const input = renderPage();
    expect(screen.getByLabelText('PDF-Datei', { selector: 'input[type="file"]' })).toBe(input);
  });

  it('sends the chosen PDF and shows the envelope, its match and who signed when', async () => {
    const api = stubApi({ [CHECK]: jsonResponse(200, sealed) });
    const input = renderPage();
    await userEvent.upload(input, pdfFile());
    expect(await screen.findByText('Unverändert und von uns versiegelt')).toBeInTheDocument();
    expect(screen.getByText('Geprüft: Rahmenvertrag - unterschrieben.pdf')).toBeInTheDocument();
    expect(screen.getByText('PL-10002')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'PL-10002 Rahmenvertrag.docx' })).toHaveAttribute(
      'href',
      '/signatur/env-1',
    );
    const signers = screen.getByRole('table', { name: 'Unterschriften' });
    expect(within(signers).getByText('Klara Kunde')).toBeInTheDocument();
    expect(within(signers).getByText('24.11.2026 10:30')).toBeInTheDocument();
    const [request] = api.fetchMock.mock.calls;
    expect(new Headers(request?.[1]?.headers).get('content-type')).toBe('application/pdf');
  });

  it.each([
    {
      level: 'B-LTA' as const,
      explanation:
        'Siegel mit Zeitstempel und Langzeitnachweis: Die Prüfdaten (Zertifikate und Sperrauskünfte) sind im PDF eingebettet, ein Archivzeitstempel wird vor seinem Ablauf erneuert.',
    },
    {
      level: 'B-B' as const,
      explanation:
        'Siegel ohne vertrauenswürdige Zeit: Wann versiegelt wurde, bestätigt kein Zeitstempeldienst.',
    },
  ])(
    'names the PAdES level $level of a sealed PDF and says in words what it proves',
    async ({ level, explanation }) => {
      stubApi({
        [CHECK]: jsonResponse(200, { ...sealed, envelope: { ...sealed.envelope, sealLevel: level } }),
      });
      await userEvent.upload(renderPage(), pdfFile());
      const details = await screen.findByRole('table', { name: 'Dokument' });
      const row = within(details).getByText('Siegel').closest('tr') as HTMLElement;
      expect(row.querySelector('td')).toHaveTextContent(`Versiegelt · PAdES ${level}${explanation}`);
    },
  );

  it('shows no level for a sealed PDF whose envelope has none recorded', async () => {
    stubApi({ [CHECK]: jsonResponse(200, { ...sealed, envelope: { ...sealed.envelope, sealLevel: null } }) });
    await userEvent.upload(renderPage(), pdfFile());
    const details = await screen.findByRole('table', { name: 'Dokument' });
    expect(within(details).getByText('PL-10002')).toBeInTheDocument();
    expect(within(details).queryByText('Siegel')).toBeNull();
    expect(within(details).queryByText(/PAdES/)).toBeNull();
  });

  it('says plainly that a changed PDF is not the signed one', async () => {
    stubApi({
      [CHECK]: jsonResponse(200, {
        ...sealed,
        verdict: 'changed',
        envelope: null,
        signature: { ...sealed.signature, valid: false },
      }),
    });
    const input = renderPage();
    await userEvent.upload(input, pdfFile());
    expect(await screen.findByText('Verändert')).toBeInTheDocument();
    expect(screen.getByText(/verlasse dich nicht auf seinen Inhalt/)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Unterschriften' })).not.toBeInTheDocument();
  });

  it("shows the server's German answer for a file dropped that is no PDF", async () => {
    stubApi({
      [CHECK]: jsonResponse(422, {
        error: 'not_pdf',
        message:
          'Diese Datei ist kein PDF. Prüfen kann nur das unterschriebene PDF aus der Abschluss-E-Mail.',
      }),
    });
    renderPage();
    // The file picker offers only PDFs; a file dropped can be anything.
    const dropArea = screen
      .getByText('PDF hierher ziehen oder oben auswählen')
      .closest('.mantine-Paper-root');
    fireEvent.drop(dropArea as HTMLElement, { dataTransfer: { files: [new File(['PK'], 'vertrag.docx')] } });
    expect(await screen.findByText(/Diese Datei ist kein PDF/)).toBeInTheDocument();
  });

  it('refuses a file over 20 MB before sending it', async () => {
    const api = stubApi({ [CHECK]: jsonResponse(200, sealed) });
    const input = renderPage();
    const huge = pdfFile('riesig.pdf');
    Object.defineProperty(huge, 'size', { value: 21 * 1024 * 1024 });
    await userEvent.upload(input, huge);
    expect(await screen.findByText('Die Datei ist zu groß (höchstens 20 MB).')).toBeInTheDocument();
    expect(api.callsTo(CHECK)).toHaveLength(0);
  });
});
