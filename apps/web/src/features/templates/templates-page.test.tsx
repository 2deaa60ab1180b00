import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PATHS } from '@/lib/paths';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { rowTexts } from '@/test/version-library';
import { TemplatesPage } from './templates-page';
import { offerSummary } from './test-fixtures';

const contract = {
  ...offerSummary,
  name: 'rahmenvertrag-de.docx',
  families: ['Vertrag'],
  keys: ['de-wm-k-rv-1', 'de-wm-k-rv-2', 'docx-de-wm-rv'],
  publishedVersion: 4,
  publishedBy: 'legal@demo.local',
  publishedAt: '2026-11-25T13:30:00Z',
  drafts: 0,
};

const routes = [
  { path: PATHS.templates, Component: TemplatesPage },
  { path: PATHS.template, Component: () => <p>Seite der Vorlage</p> },
];

describe('TemplatesPage', () => {
  it('lists each template with its family, keys, published version and drafts, and opens one', async () => {
    stubApi({ 'GET /backend/templates': jsonResponse(200, [offerSummary, contract]) });
    const { router } = renderRoutes(routes, PATHS.templates);
    const table = await screen.findByRole('table', { name: 'Vorlagen' });
    expect(rowTexts(table)).toEqual([
      [
        'angebot-de.docx',
        'Angebot',
        '2 Dokumenteangebot-wm, angebot-we',
        'Version 1von Vorlagenordner am 20.11.2026 09:00',
        '2 Entwürfe',
      ],
      [
        'rahmenvertrag-de.docx',
        'Vertrag',
        '3 Dokumentede-wm-k-rv-1, de-wm-k-rv-2, docx-de-wm-rv',
        'Version 4von legal@demo.local am 25.11.2026 14:30',
        '–',
      ],
    ]);
    await userEvent.click(screen.getByRole('link', { name: 'Vorlage rahmenvertrag-de.docx öffnen' }));
    expect(router.state.location.pathname).toBe('/vorlagen/rahmenvertrag-de');
  });

  it('links to the placeholders', async () => {
    stubApi({ 'GET /backend/templates': jsonResponse(200, []) });
    renderRoutes(routes, PATHS.templates);
    expect(await screen.findByRole('link', { name: 'Platzhalter ansehen' })).toHaveAttribute(
      'href',
      PATHS.placeholders,
    );
  });

  it("tells in the server's words why the list could not be loaded", async () => {
    stubApi({
      'GET /backend/templates': jsonResponse(403, {
        error: 'forbidden',
        message: 'Dafür fehlt dir die Berechtigung.',
      }),
    });
    renderRoutes(routes, PATHS.templates);
    expect(await screen.findByText('Die Vorlagen konnten nicht geladen werden.')).toBeInTheDocument();
    expect(screen.getByText('Dafür fehlt dir die Berechtigung.')).toBeInTheDocument();
  });
});
