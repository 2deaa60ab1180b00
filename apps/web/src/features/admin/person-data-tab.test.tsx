import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PersonErase, PersonSearch } from '@vertragsgenerator/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { captureDownloads } from '@/test/downloads';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { AdministrationPage } from './administration-page';

const found: PersonSearch = {
  query: 'paula@kandidat.example',
  hits: [
    {
      source: 'recipient',
      id: 'r-1',
      matchId: 'PL-31',
      where: 'Umschlag e-1 · Rolle Projektpartner · Status completed',
      value: 'Paula Kandidatin, paula@kandidat.example',
    },
    { source: 'mail_file', id: 'a.eml', matchId: null, where: 'Mail-Ordner', value: 'a.eml' },
  ],
  truncated: [],
};
const erased: PersonErase = {
  erased: [{ what: 'IP-Adressen von Unterschriften', count: 1 }],
  retained: [
    {
      what: 'Vertrag Vertrag.docx (abgeschlossen)',
      id: 'd-1',
      matchId: 'PL-31',
      rule: 'Abgeschlossene Verträge und ihre gesiegelten PDFs',
      until: '2035-03-01T00:00:00.000Z',
    },
  ],
};

let downloads: string[];
beforeEach(() => {
  downloads = captureDownloads();
});

async function searchFor(query: string) {
  renderWithProviders(<AdministrationPage />);
  await userEvent.click(screen.getByRole('tab', { name: 'Personendaten' }));
  const input = await screen.findByRole('textbox', { name: 'E-Mail-Adresse oder Name' });
  await userEvent.type(input, `${query}{Enter}`);
}

describe('AdministrationPage: Personendaten', () => {
  it('finds a person and says where each hit is, searching with the keyboard', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'POST /backend/admin/person-data/search': jsonResponse(200, found),
    });
    await searchFor('paula@kandidat.example');
    const hits = await screen.findByRole('region', { name: '2 Fundstellen' });
    const rows = within(hits).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Empfänger eines UmschlagsPL-31Umschlag e-1 · Rolle Projektpartner · Status completedPaula Kandidatin, paula@kandidat.example',
      'Mail im Mail-OrdnerMail-Ordnera.eml',
    ]);
    expect(api.callsTo('POST /backend/admin/person-data/search')[0]?.body).toEqual({
      query: 'paula@kandidat.example',
    });
  });

  it('says where the search stopped at its limit', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'POST /backend/admin/person-data/search': jsonResponse(200, {
        ...found,
        truncated: ['document', 'audit'],
      }),
    });
    await searchFor('paula@kandidat.example');
    expect(
      await screen.findByText(
        /höchstens 200 Fundstellen; mehr gibt es bei: Daten eines Dokuments, Audit-Log\./,
      ),
    ).toBeInTheDocument();
  });

  it('exports the person as a ZIP download', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'POST /backend/admin/person-data/search': jsonResponse(200, found),
      'POST /backend/admin/person-data/exports': jsonResponse(201, {
        id: 'x-1',
        expiresAt: '2026-11-28T00:00:00Z',
        records: 5,
        files: 2,
      }),
      'GET /backend/admin/person-data/exports/x-1': new Response(new Blob(['zip']), { status: 200 }),
    });
    await searchFor('paula@kandidat.example');
    await userEvent.click(await screen.findByRole('button', { name: 'Auskunft als ZIP exportieren' }));
    await waitFor(() => expect(downloads).toEqual(['Auskunft-paula_kandidat.example.zip']));
  });

  it('erases after a confirmation and lists what a duty keeps', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'POST /backend/admin/person-data/search': jsonResponse(200, found),
      'POST /backend/admin/person-data/erase': jsonResponse(200, erased),
    });
    await searchFor('paula@kandidat.example');
    await userEvent.click(await screen.findByRole('button', { name: 'Personendaten löschen …' }));
    const dialog = await screen.findByRole('dialog', { name: 'Personendaten löschen' });
    expect(api.callsTo('POST /backend/admin/person-data/erase')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    const retained = await screen.findByRole('region', { name: 'Aufbewahrt (Pflicht)' });
    expect(
      within(retained).getByText('Abgeschlossene Verträge und ihre gesiegelten PDFs'),
    ).toBeInTheDocument();
    expect(screen.getByText('IP-Adressen von Unterschriften: 1')).toBeInTheDocument();
    expect(api.callsTo('POST /backend/admin/person-data/erase')[0]?.body).toEqual({
      email: 'paula@kandidat.example',
      confirm: true,
    });
  });

  it('erases a person known by name only after a confirmation that says what a name reaches', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'POST /backend/admin/person-data/search': jsonResponse(200, { ...found, query: 'Piet Partner' }),
      'POST /backend/admin/person-data/erase': jsonResponse(200, {
        erased: [{ what: 'Matches (Person pseudonymisiert)', count: 2 }],
        retained: [],
      }),
    });
    await searchFor('Piet Partner');
    const button = await screen.findByRole('button', { name: 'Personendaten löschen …' });
    expect(button).toBeEnabled();
    expect(screen.queryByText(/Löschen geht über die E-Mail-Adresse oder den vollen Namen/)).toBeNull();
    button.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Personendaten löschen' });
    expect(
      within(dialog).getByText(/^Alles zu Piet Partner, was keine Aufbewahrungspflicht hält/),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/nur über ihre E-Mail-Adresse gelöscht/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    expect(await screen.findByText('Matches (Person pseudonymisiert): 2')).toBeInTheDocument();
    expect(api.callsTo('POST /backend/admin/person-data/erase')[0]?.body).toEqual({
      name: 'Piet Partner',
      confirm: true,
    });
  });

  it('offers no erase for a first name alone, which would reach whoever else bears it', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'POST /backend/admin/person-data/search': jsonResponse(200, { ...found, query: 'Piet' }),
    });
    await searchFor('Piet');
    expect(await screen.findByRole('button', { name: 'Personendaten löschen …' })).toBeDisabled();
    expect(
      screen.getByText(
        'Löschen geht über die E-Mail-Adresse oder den vollen Namen (Vor- und Nachname) der Person: suche danach.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /backend/admin/person-data/erase')).toHaveLength(0);
  });

  it('shows the refusal for running envelopes', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'POST /backend/admin/person-data/search': jsonResponse(200, found),
      'POST /backend/admin/person-data/erase': jsonResponse(409, {
        error: 'running_envelopes',
        message:
          'An diese Person laufen noch ein Umschlag: PL-34: „Bitte unterschreiben“ (e-9). Bitte verwirf ihn zuerst, dann lösche erneut.',
      }),
    });
    await searchFor('paula@kandidat.example');
    await userEvent.click(await screen.findByRole('button', { name: 'Personendaten löschen …' }));
    const dialog = await screen.findByRole('dialog', { name: 'Personendaten löschen' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    expect(await within(dialog).findByText(/Bitte verwirf ihn zuerst/)).toBeInTheDocument();
  });
});
