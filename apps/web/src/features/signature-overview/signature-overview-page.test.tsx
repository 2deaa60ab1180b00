import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnvelopeOverview, OverviewEnvelope, SessionUser } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { SESSION_ROUTE } from '@/lib/paths';
import { draftEnvelope } from '@/test/envelopes';
import { jsonResponse, renderRoutes, slowSessionCheck, stubApi } from '@/test/utils';
import { SignatureOverviewPage } from './signature-overview-page';

const LIST = 'GET /backend/signature/envelopes?';

const berta: SessionUser = {
  email: 'berater@demo.local',
  name: 'Berta Berater',
  permission: 1,
  administrator: false,
};

const waitingEnvelope: OverviewEnvelope = {
  id: 'env-1',
  provider: 'builtin',
  status: 'partially_signed',
  matchId: 'PL-1001',
  customer: 'Elbwerk Logistik AG',
  subject: 'Bitte unterschreiben: Kundenvertrag',
  fileName: 'Kundenvertrag PL-1001.docx',
  createdBy: 'berater@demo.local',
  createdAt: '2026-11-20T09:00:00Z',
  updatedAt: '2026-11-21T09:05:00Z',
  signers: [
    {
      id: 'r-1',
      role: 'Kunde',
      name: 'Karl Kunde',
      email: 'karl@kunde.de',
      status: 'signed',
      linkExpiresAt: null,
    },
    {
      id: 'r-2',
      role: 'Kunde2',
      name: 'Kim Kunde',
      email: 'kim@kunde.de',
      status: 'sent',
      linkExpiresAt: '2099-12-01T09:00:00Z',
    },
  ],
  lastEvent: { type: 'signed', at: '2026-11-21T09:05:00Z', actor: 'karl@kunde.de' },
  mayChange: true,
  signedPdfAvailable: false,
  seal: null,
};

const completedEnvelope: OverviewEnvelope = {
  ...waitingEnvelope,
  id: 'env-2',
  status: 'completed',
  matchId: 'PL-1002',
  fileName: 'Projektpartnervertrag PL-1002.docx',
  signers: [{ ...waitingEnvelope.signers[0], id: 'r-3' } as OverviewEnvelope['signers'][number]],
  lastEvent: { type: 'completed', at: '2026-11-22T10:00:00Z', actor: '' },
  mayChange: false,
  signedPdfAvailable: true,
  seal: { state: 'sealed', level: 'B-LTA' },
};

const counts = {
  open: 1,
  all: 2,
  draft: 0,
  awaiting_approval: 0,
  sent: 0,
  partially_signed: 1,
  expired: 0,
  completed: 1,
  declined: 0,
  voided: 0,
  failed: 0,
  lapsed: 0,
};

const page = (envelopes: OverviewEnvelope[], extra: Partial<EnvelopeOverview> = {}): EnvelopeOverview => ({
  envelopes,
  total: envelopes.length,
  page: 1,
  pageSize: 25,
  counts,
  ...extra,
});

function renderOverview(path = '/signaturen', user: SessionUser = berta) {
  return renderRoutes(
    [
      {
        id: SESSION_ROUTE,
        loader: () => user,
        children: [{ path: '/signaturen', Component: SignatureOverviewPage }],
      },
    ],
    path,
  );
}

const table = () => screen.findByRole('table', { name: 'Umschläge' });

describe('SignatureOverviewPage', () => {
  it("shows the open envelopes with each signer's progress, the last event and the counts per status", async () => {
    const api = stubApi({ [LIST]: jsonResponse(200, page([waitingEnvelope])) });
    renderOverview();
    const rows = within(await table()).getAllByRole('row');
    expect(rows).toHaveLength(2);
    const row = within(rows[1] as HTMLElement);
    expect(row.getByText('PL-1001')).toBeInTheDocument();
    expect(row.getByText('Elbwerk Logistik AG')).toBeInTheDocument();
    expect(row.getByText('Teilweise unterschrieben')).toBeInTheDocument();
    expect(row.getByText('1 von 2 unterschrieben')).toBeInTheDocument();
    expect(row.getByText('Karl Kunde · Unterschrieben')).toBeInTheDocument();
    expect(row.getByText('Kim Kunde · Link versendet')).toBeInTheDocument();
    expect(row.getByText('21.11.2026 10:05')).toBeInTheDocument();
    // Only the signer who waits can be reminded.
    expect(row.getAllByRole('button', { name: /erinnern$/ })).toHaveLength(1);
    expect(row.getByRole('button', { name: 'Kim Kunde erinnern' })).toBeInTheDocument();
    expect(
      row.getByRole('link', { name: 'Umschlag öffnen: Bitte unterschreiben: Kundenvertrag' }),
    ).toHaveAttribute('href', '/signatur/env-1');
    expect(api.callsTo(LIST)[0]?.url).toBe('/backend/signature/envelopes?status=open&page=1');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('Offen (1)');
    expect(screen.getByText(/Deine Umschläge/)).toBeInTheDocument();
  });

  it.each([
    { level: 2 as const, intro: /^Alle Umschläge/ },
    { level: 3 as const, intro: /^Deine Umschläge/ },
  ])('tells level $level whose envelopes the list holds', async ({ level, intro }) => {
    stubApi({ [LIST]: jsonResponse(200, page([waitingEnvelope])) });
    renderOverview('/signaturen', { ...berta, permission: level });
    await table();
    expect(screen.getByText(intro)).toBeInTheDocument();
  });

  it('filters by status; a closed envelope offers its signed PDF and no changes', async () => {
    const api = stubApi({
      [`${LIST}status=open`]: jsonResponse(200, page([waitingEnvelope])),
      [`${LIST}status=completed`]: jsonResponse(200, page([completedEnvelope])),
    });
    const { router } = renderOverview();
    await table();
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Abgeschlossen (1)' }));
    await waitFor(() => expect(screen.getByText('PL-1002')).toBeInTheDocument());
    expect(router.state.location.search).toBe('?status=completed');
    expect(api.callsTo(`${LIST}status=completed`)).toHaveLength(1);
    const row = within(screen.getByText('PL-1002').closest('tr') as HTMLElement);
    expect(row.getByRole('button', { name: /Signiertes PDF herunterladen/ })).toBeInTheDocument();
    expect(row.queryByRole('button', { name: /^Verwerfen/ })).not.toBeInTheDocument();
    expect(row.queryByRole('button', { name: /erinnern/ })).not.toBeInTheDocument();
    expect(row.getByText('automatisch')).toBeInTheDocument();
  });

  it('keeps the status chosen while its navigation still waits for the session check when a search follows', async () => {
    stubApi({ [LIST]: jsonResponse(200, page([completedEnvelope])) });
    // The search is written before the status's navigation has arrived.
    const { router } = renderRoutes(
      [slowSessionCheck(berta, [{ path: '/signaturen', Component: SignatureOverviewPage }])],
      '/signaturen',
    );
    await table();
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Abgeschlossen (1)' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Suche' }), 'karl');
    await waitFor(() => expect(router.state.location.search).toBe('?status=completed&q=karl'), {
      timeout: 3000,
    });
    // The router has the address before React renders the page for it.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('Abgeschlossen (1)'),
    );
  });

  it('lists an envelope whose document a retention rule deleted, without a file to download', async () => {
    stubApi({
      [`${LIST}status=open`]: jsonResponse(
        200,
        page([{ ...completedEnvelope, fileName: null, signedPdfAvailable: true }]),
      ),
    });
    renderOverview();
    await table();
    const row = within(screen.getByText('PL-1002').closest('tr') as HTMLElement);
    expect(row.getByText('Dokument gelöscht (Aufbewahrungsfrist)')).toBeInTheDocument();
    expect(row.queryByRole('button', { name: /Signiertes PDF herunterladen/ })).not.toBeInTheDocument();
    expect(row.getByRole('link', { name: /Umschlag öffnen/ })).toBeInTheDocument();
  });

  it('shows the seal of each completed envelope in words: its PAdES level, or pending and why', async () => {
    const completed = (
      id: string,
      matchId: string,
      seal: OverviewEnvelope['seal'],
      provider = 'builtin',
    ) => ({
      ...completedEnvelope,
      id,
      matchId,
      provider: provider as OverviewEnvelope['provider'],
      signedPdfAvailable: seal?.state !== 'pending',
      seal,
    });
    stubApi({
      [LIST]: jsonResponse(
        200,
        page([
          completed('env-lta', 'PL-2001', { state: 'sealed', level: 'B-LTA' }),
          completed('env-bb', 'PL-2002', { state: 'sealed', level: 'B-B' }),
          completed('env-wait', 'PL-2003', { state: 'pending', problem: null }),
          completed('env-tsa', 'PL-2004', { state: 'pending', problem: 'timestamp_unreachable' }),
          completed('env-odd', 'PL-2005', { state: 'pending', problem: 'other' }),
          completed('env-ds', 'PL-2006', { state: 'docusign' }, 'docusign'),
          completed('env-ds-wait', 'PL-2007', { state: 'pending', problem: 'docusign' }, 'docusign'),
          waitingEnvelope,
        ]),
      ),
    });
    renderOverview();
    await table();
    const row = (matchId: string) => within(screen.getByText(matchId).closest('tr') as HTMLElement);

    expect(row('PL-2001').getByText('Versiegelt · PAdES B-LTA')).toBeVisible();
    expect(row('PL-2001').getByText(/^Siegel mit Zeitstempel und Langzeitnachweis/)).toBeVisible();
    expect(row('PL-2002').getByText('Versiegelt · PAdES B-B')).toBeVisible();
    expect(row('PL-2002').getByText(/^Siegel ohne vertrauenswürdige Zeit/)).toBeVisible();
    expect(row('PL-2003').getByText('Siegel ausstehend')).toBeVisible();
    expect(
      row('PL-2004').getByText(
        'Siegel ausstehend: Zeitstempeldienst nicht erreichbar – wird erneut versucht',
      ),
    ).toBeVisible();
    expect(
      row('PL-2005').getByText(
        'Siegel ausstehend: Beim Versiegeln ist ein Fehler aufgetreten – wird erneut versucht',
      ),
    ).toBeVisible();
    expect(row('PL-2006').getByText('Von DocuSign versiegelt')).toBeVisible();
    expect(
      row('PL-2007').getByText(
        'Signiertes PDF von DocuSign ausstehend: Abruf bei DocuSign fehlgeschlagen – wird erneut versucht',
      ),
    ).toBeVisible();
    // A pending seal offers no signed PDF yet; an open envelope has no seal to show.
    expect(row('PL-2004').queryByRole('button', { name: /Signiertes PDF/ })).toBeNull();
    expect(row('PL-1001').queryByText(/Siegel|versiegelt/i)).toBeNull();
  });

  it('searches by what was typed, from the first page, and says when nothing matches', async () => {
    const api = stubApi({
      [`${LIST}status=open&page=1&q=`]: jsonResponse(200, page([], { counts: { ...counts, open: 0 } })),
      [LIST]: jsonResponse(200, page([waitingEnvelope])),
    });
    const { router } = renderOverview('/signaturen?page=2');
    await table();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Suche' }), 'Ölwerk');
    expect(await screen.findByText('Keine Umschläge zu „Ölwerk“ gefunden.')).toBeInTheDocument();
    const searches = api.callsTo(`${LIST}status=open&page=1&q=`);
    // One request for the whole word, not one per letter.
    expect(searches.map((c) => decodeURIComponent(c.url.split('q=')[1] ?? ''))).toEqual(['Ölwerk']);
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('Ölwerk');
    expect(new URLSearchParams(router.state.location.search).get('page')).toBeNull();
  });

  it('Erinnern reminds the signer and loads the list again', async () => {
    const api = stubApi({
      [LIST]: jsonResponse(200, page([waitingEnvelope])),
      'POST /backend/signature/envelopes/env-1/recipients/r-2/remind': jsonResponse(200, {
        ...draftEnvelope,
        id: 'env-1',
        status: 'sent',
      }),
    });
    renderOverview();
    await table();
    await userEvent.click(screen.getByRole('button', { name: 'Kim Kunde erinnern' }));
    expect(await screen.findByText(/Kim Kunde erhält eine Erinnerung/)).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(LIST)).toHaveLength(2));
  });

  it('pages through more than 25 envelopes', async () => {
    const api = stubApi({ [LIST]: jsonResponse(200, page([waitingEnvelope], { total: 30 })) });
    const { router } = renderOverview();
    await table();
    expect(screen.getByText('30 Umschläge')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Seite 2' }));
    await waitFor(() => expect(api.callsTo(`${LIST}status=open&page=2`)).toHaveLength(1));
    expect(router.state.location.search).toBe('?page=2');
  });

  it('says in German when the list cannot be loaded, and tries again on request', async () => {
    const api = stubApi({
      [LIST]: [
        jsonResponse(503, { error: 'unavailable', message: 'Die Datenbank ist gerade nicht erreichbar.' }),
        jsonResponse(200, page([waitingEnvelope])),
      ],
    });
    renderOverview();
    expect(await screen.findByText('Die Datenbank ist gerade nicht erreichbar.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await table()).toBeInTheDocument();
    expect(api.callsTo(LIST)).toHaveLength(2);
  });
});
