import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClauseDetail } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { expectHeadingsInOrder, expectNoSeriousViolations } from '@/test/axe';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import {
  bodyRows,
  confirmPublication,
  expectNotPublishable,
  expectStalePublicationRefused,
  publishWithComment,
  rowTexts,
  stalePublication,
  versionRows,
} from '@/test/version-library';
import { ClausePage } from './clause-page';
import { CLAUSE_PATHS } from './paths';
import {
  cleanDraft,
  comparison,
  liabilityWithBrokenDraft,
  liabilityWithCleanDraft,
  publishedVersion,
  trial,
} from './test-fixtures';

const BASE = '/backend/clauses/haftung';
const routes = [
  { path: CLAUSE_PATHS.clause, Component: ClausePage },
  { path: CLAUSE_PATHS.clauses, Component: () => <h1>Alle Klauseln</h1> },
  { path: '/vertraege/:contractId', Component: () => <h1>Seite des Vertrags</h1> },
];
const open = (search = '') => renderRoutes(routes, `/klauseln/haftung${search}`);

const publishedClean: ClauseDetail = {
  ...liabilityWithCleanDraft,
  publishedVersion: 3,
  drafts: 0,
  versions: [
    {
      ...cleanDraft,
      status: 'veröffentlicht',
      publishedBy: 'legal@demo.local',
      publishedAt: '2026-11-26T10:00:00Z',
      publishComment: 'Freigegeben',
    },
    ...liabilityWithCleanDraft.versions.slice(1, 2),
    { ...publishedVersion, status: 'ersetzt' },
  ],
};

describe('ClausePage', () => {
  it('opens the newest draft and lists its problems with their places; it cannot be published', async () => {
    stubApi({
      [`GET ${BASE}`]: jsonResponse(200, liabilityWithBrokenDraft),
      [`GET ${BASE}/versions/2/compare`]: jsonResponse(200, { ...comparison, version: 2 }),
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Version 2', level: 2 })).toBeInTheDocument();
    const rows = versionRows();
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Entwurf2 Probleme',
      'veröffentlicht',
    ]);
    expect(rows[0]).toHaveAttribute('aria-current', 'true');
    expect(rows[1]).toHaveTextContent('„Von der Rechtsabteilung freigegeben“');

    const problems = screen.getByRole('alert');
    expect(problems).toHaveTextContent('2 Probleme – so kann die Version nicht veröffentlicht werden');
    const items = within(problems).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Variante „Ab 120 €“, Regel: „satz“ ist eine Zahl: vergleiche mit einer Zahl, z. B. satz >= 120.',
      'Ganze Klausel: Die englische Fassung nennt {kundeName}, die deutsche nicht.',
    ]);
    expectNotPublishable();
    expect(screen.queryByRole('heading', { name: 'An einem Deal ausprobieren' })).not.toBeInTheDocument();

    const content = screen.getByRole('region', { name: 'Inhalt' });
    expect(within(content).getByRole('heading', { name: 'Variante 1: Ab 120 €' })).toBeInTheDocument();
    expect(content).toHaveTextContent('Regel: satz >= hoch');
    expect(content).toHaveTextContent('Regel: gilt immer');

    await screen.findByRole('region', { name: 'Variante „Standard“, Deutsch' });
    await expectNoSeriousViolations();
    expectHeadingsInOrder();
  });

  it('shows the changes per variant and language, tries the version on a deal, and publishes it', async () => {
    const api = stubApi({
      [`GET ${BASE}`]: jsonResponse(200, liabilityWithCleanDraft),
      [`GET ${BASE}/versions/3/compare`]: jsonResponse(200, comparison),
      [`POST ${BASE}/versions/3/trial`]: jsonResponse(200, trial),
      [`POST ${BASE}/versions/3/publish`]: jsonResponse(200, publishedClean),
    });
    open();
    expect(
      await screen.findByText('Keine Probleme gefunden: Regeln, Texte und Platzhalter passen.'),
    ).toBeInTheDocument();

    const standard = await screen.findByRole('region', { name: 'Variante „Standard“, Deutsch' });
    expect(within(standard).getByText('stets').closest('del')).toHaveTextContent('gestrichen: stets');
    expect(within(standard).getByText('unbeschränkt').closest('ins')).toHaveTextContent(
      'eingefügt: unbeschränkt',
    );
    expect(screen.getByRole('region', { name: 'Variante „Ab 120 €“, Deutsch' })).toHaveTextContent(
      'eingefügt: Die Haftung ist auf das Doppelte',
    );
    expect(screen.getByText('Unverändert: Variante „Standard“, Englisch.')).toBeInTheDocument();
    expect(
      screen.getByText('Der Text dieser Version gegenüber Version 1, je Variante und Sprache.'),
    ).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: /Match-ID/ }), 'PL-10001');
    await userEvent.click(screen.getByRole('button', { name: 'Ausprobieren' }));
    const tried = await screen.findByRole('table', { name: 'Mit PL-10001:' });
    expect(api.callsTo(`POST ${BASE}/versions/3/trial`)[0]?.body).toEqual({ matchId: 'PL-10001' });
    expect(rowTexts(tried)).toEqual([
      [
        'de-wm-k-rv-1rahmenvertrag-de.docx',
        'Deutsch',
        'Ab 120 € (Version 3)',
        'Regel „satz >= 120“ trifft zusatz >= 120',
        'Die Haftung ist auf das Doppelte des Auftragswerts von 48.000 € begrenzt.',
      ],
      ['en-wm-p-rv-1rahmenvertrag-en.docx', 'Englisch', 'weggelassen', 'Keine Regel trifft zu', '–'],
    ]);

    await publishWithComment(api, `POST ${BASE}/versions/3/publish`, 3, 1);
    expect(screen.getByText('Das ist die veröffentlichte Version.')).toBeInTheDocument();
  });

  it("says in the server's words why publishing was refused", async () => {
    stubApi({
      [`GET ${BASE}`]: jsonResponse(200, liabilityWithCleanDraft),
      [`GET ${BASE}/versions/3/compare`]: jsonResponse(200, comparison),
      [`POST ${BASE}/versions/3/publish`]: stalePublication(),
    });
    open();
    await expectStalePublicationRefused();
  });

  it('publishes an earlier version again, replacing the one published, and compares with any version', async () => {
    const api = stubApi({
      [`GET ${BASE}`]: jsonResponse(200, publishedClean),
      [`GET ${BASE}/versions/1/compare?base=2`]: jsonResponse(200, { ...comparison, base: 2, version: 1 }),
      [`GET ${BASE}/versions/1/compare`]: jsonResponse(200, { ...comparison, base: 3, version: 1 }),
      [`POST ${BASE}/versions/1/publish`]: jsonResponse(200, liabilityWithCleanDraft),
    });
    const { router } = open('?version=1');
    expect(await screen.findByRole('heading', { name: 'Version 1', level: 2 })).toBeInTheDocument();
    expect(await screen.findByText(/gegenüber Version 3,/)).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Vergleichen mit' }), 'Version 2');
    expect(await screen.findByText(/gegenüber Version 2,/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Version 1 wieder veröffentlichen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Version 1 wieder veröffentlichen' });
    await confirmPublication(dialog, 'Zurück zur alten Fassung');
    await waitFor(() =>
      expect(api.callsTo(`POST ${BASE}/versions/1/publish`)[0]?.body).toEqual({
        comment: 'Zurück zur alten Fassung',
        replaces: 3,
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Version 3 ansehen' }));
    expect(router.state.location.search).toBe('?version=3');
  });

  it('lists where the clause is used, the contracts with an older version first, each linked', async () => {
    stubApi({
      [`GET ${BASE}`]: jsonResponse(200, liabilityWithBrokenDraft),
      [`GET ${BASE}/versions/2/compare`]: jsonResponse(200, comparison),
    });
    const { router } = open();
    const usage = await screen.findByRole('region', { name: 'Verwendung' });
    const templates = within(usage).getByRole('table', { name: 'Vorlagen, die die Klausel einsetzen' });
    expect(bodyRows(templates).map((row) => row.textContent)).toEqual([
      'rahmenvertrag-de.docxin der veröffentlichten VersionVersionen 3, 4',
      'angebot-de.docxnur in EntwürfenVersion 5',
    ]);
    const contracts = within(usage).getByRole('table', { name: 'Laufende Verträge' });
    expect(bodyRows(contracts).map((row) => row.textContent)).toEqual([
      'Rahmenvertrag Elbwerk Logistik AGPL-100010 ältere VersionStandard',
      'Rahmenvertrag Nordlicht GmbHPL-100021 aktuellStandard',
    ]);
    await userEvent.click(
      within(contracts).getByRole('link', { name: 'Vertrag Rahmenvertrag Elbwerk Logistik AG öffnen' }),
    );
    expect(router.state.location.pathname).toBe('/vertraege/c-old');
  });

  it("keeps a used clause when the server refuses to delete it, in the server's words", async () => {
    const api = stubApi({
      [`GET ${BASE}`]: jsonResponse(200, liabilityWithBrokenDraft),
      [`GET ${BASE}/versions/2/compare`]: jsonResponse(200, comparison),
      [`DELETE ${BASE}`]: jsonResponse(409, {
        error: 'clause_in_use',
        message: 'Die Vorlage rahmenvertrag-de.docx setzt die Klausel ein.',
      }),
    });
    const { router } = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Klausel löschen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Klausel „Haftung“ löschen?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    expect(
      await screen.findByText('Die Vorlage rahmenvertrag-de.docx setzt die Klausel ein.'),
    ).toBeInTheDocument();
    expect(api.callsTo(`DELETE ${BASE}`)).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/klauseln/haftung');
  });

  it('deletes an unused clause and returns to the list', async () => {
    stubApi({
      [`GET ${BASE}`]: jsonResponse(200, { ...liabilityWithBrokenDraft, usedInTemplates: [], contracts: [] }),
      [`GET ${BASE}/versions/2/compare`]: jsonResponse(200, comparison),
      [`DELETE ${BASE}`]: new Response(null, { status: 204 }),
    });
    const { router } = open();
    expect(await screen.findByText('Keine Vorlage setzt die Klausel ein.')).toBeInTheDocument();
    expect(screen.getByText('Kein laufender Vertrag enthält die Klausel.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Klausel löschen' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Endgültig löschen' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/klauseln'));
  });

  it('changes the name and the approval flag', async () => {
    const api = stubApi({
      [`GET ${BASE}`]: jsonResponse(200, liabilityWithBrokenDraft),
      [`GET ${BASE}/versions/2/compare`]: jsonResponse(200, comparison),
      [`PUT ${BASE}`]: jsonResponse(200, { ...liabilityWithBrokenDraft, name: 'Haftung und Gewährleistung' }),
    });
    open();
    const settings = await screen.findByRole('region', { name: 'Einstellungen' });
    const name = within(settings).getByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.click(within(settings).getByRole('button', { name: 'Einstellungen speichern' }));
    await waitFor(() => expect(name).toHaveAccessibleDescription('Bitte gib der Klausel einen Namen.'));
    expect(name).toHaveFocus();
    await userEvent.type(name, 'Haftung und Gewährleistung');
    await userEvent.click(within(settings).getByRole('checkbox', { name: /Änderungen brauchen Freigabe/ }));
    await userEvent.click(within(settings).getByRole('button', { name: 'Einstellungen speichern' }));
    expect(await within(settings).findByText('Die Einstellungen sind gespeichert.')).toBeInTheDocument();
    expect(api.callsTo(`PUT ${BASE}`)[0]?.body).toEqual({
      name: 'Haftung und Gewährleistung',
      needsApproval: false,
    });
    expect(screen.getByRole('heading', { name: 'Haftung und Gewährleistung', level: 1 })).toBeInTheDocument();
  });

  it("names an unknown clause in the server's words", async () => {
    stubApi({
      [`GET ${BASE}`]: jsonResponse(404, {
        error: 'not_found',
        message: 'Die Klausel „haftung“ gibt es nicht.',
      }),
    });
    open();
    expect(await screen.findByRole('heading', { name: 'Klausel nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByText('Die Klausel „haftung“ gibt es nicht.')).toBeInTheDocument();
  });
});
