import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectHeadingsInOrder, expectNoSeriousViolations } from '@/test/axe';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { rowTexts } from '@/test/version-library';
import { ClausesPage } from './clauses-page';
import { CLAUSE_PATHS } from './paths';
import { liabilitySummary, liabilityWithBrokenDraft, swissLawSummary } from './test-fixtures';

const routes = [
  { path: CLAUSE_PATHS.clauses, Component: ClausesPage },
  { path: CLAUSE_PATHS.clause, Component: () => <h1>Seite der Klausel</h1> },
];
const open = () => renderRoutes(routes, CLAUSE_PATHS.clauses);
const field = (name: RegExp | string) => screen.getByRole('textbox', { name });
/** The clause's name, not a variant's. */
const CLAUSE_NAME = /^Name( \*)?$/;

describe('ClausesPage', () => {
  it('lists each clause with its key, published version, drafts and templates, and opens one', async () => {
    stubApi({ 'GET /backend/clauses': jsonResponse(200, [liabilitySummary, swissLawSummary]) });
    const { router } = open();
    const table = await screen.findByRole('table', { name: 'Klauseln' });
    expect(rowTexts(table)).toEqual([
      [
        'Haftung',
        'haftung',
        'Version 1seit 20.11.2026 09:00',
        '1 Entwurf',
        'rahmenvertrag-de.docx, angebot-de.docx',
      ],
      ['Schweizer Recht', 'schweizer-recht', 'keine', '1 Entwurf', 'keine'],
    ]);
    await expectNoSeriousViolations();
    expectHeadingsInOrder();
    await userEvent.click(screen.getByRole('link', { name: 'Klausel Schweizer Recht öffnen' }));
    expect(router.state.location.pathname).toBe('/klauseln/schweizer-recht');
  });

  it("tells in the server's words why the list could not be loaded", async () => {
    stubApi({
      'GET /backend/clauses': jsonResponse(403, {
        error: 'forbidden',
        message: 'Dafür fehlt dir die Berechtigung.',
      }),
    });
    open();
    expect(await screen.findByText('Die Klauseln konnten nicht geladen werden.')).toBeInTheDocument();
    expect(screen.getByText('Dafür fehlt dir die Berechtigung.')).toBeInTheDocument();
  });

  it('creates a clause with its first version and opens it', async () => {
    const api = stubApi({
      'GET /backend/clauses': jsonResponse(200, [liabilitySummary]),
      'POST /backend/clauses': jsonResponse(201, { ...liabilityWithBrokenDraft, key: 'datenschutz' }),
    });
    const { router } = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Neue Klausel' }));
    expect(screen.getByRole('heading', { name: 'Neue Klausel' })).toHaveFocus();

    await userEvent.type(field(/^Schlüssel/), 'datenschutz');
    await userEvent.type(field(CLAUSE_NAME), 'Datenschutz');
    await userEvent.click(screen.getByRole('checkbox', { name: /Änderungen brauchen Freigabe/ }));
    await userEvent.type(field(/^Deutscher Text/), 'Daten von {{kunde}');
    await userEvent.type(field(/^Englischer Text/), 'Data of {{kunde}');
    await userEvent.click(screen.getByRole('radio', { name: 'Wählbar beim Erstellen, vorausgewählt' }));
    await userEvent.type(field(/^Kommentar zur ersten Version/), 'Erste Fassung');
    await userEvent.click(screen.getByRole('button', { name: 'Klausel anlegen' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/klauseln/datenschutz'));
    expect(api.callsTo('POST /backend/clauses')[0]?.body).toEqual({
      key: 'datenschutz',
      name: 'Datenschutz',
      needsApproval: true,
      content: {
        variants: [
          {
            name: 'Standard',
            rule: null,
            de: 'Daten von {kunde}',
            en: 'Data of {kunde}',
          },
        ],
        option: 'optional-on',
      },
      comment: 'Erste Fassung',
    });
  });

  it('marks what is missing at its field before sending, with the first of them focused', async () => {
    const api = stubApi({ 'GET /backend/clauses': jsonResponse(200, []) });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Neue Klausel' }));
    await userEvent.type(field(/^Schlüssel/), 'Haftung!');
    await userEvent.click(screen.getByRole('button', { name: 'Klausel anlegen' }));

    const key = field(/^Schlüssel/);
    await waitFor(() => expect(key).toHaveFocus());
    expect(key).toHaveAccessibleDescription(expect.stringContaining('Der Schlüssel besteht aus 2 bis 40'));
    expect(field(CLAUSE_NAME)).toHaveAccessibleDescription('Bitte gib der Klausel einen Namen.');
    expect(field(/^Kommentar zur ersten Version/)).toHaveAccessibleDescription(
      'Bitte kurz beschreiben, was sich ändert.',
    );
    expect(api.callsTo('POST /backend/clauses')).toHaveLength(0);
    await expectNoSeriousViolations();
    expectHeadingsInOrder();
  });

  it("shows the server's field errors and a taken key at their fields", async () => {
    stubApi({
      'GET /backend/clauses': jsonResponse(200, [liabilitySummary]),
      'POST /backend/clauses': [
        jsonResponse(400, {
          error: 'invalid_request',
          message: 'Bitte prüfe die markierten Felder.',
          fields: { 'content.variants.0.de': ['Der deutsche Text nennt {kunde}, das gibt es nicht.'] },
        }),
        jsonResponse(409, { error: 'conflict', message: 'Den Schlüssel „haftung“ gibt es schon.' }),
      ],
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Neue Klausel' }));
    await userEvent.type(field(/^Schlüssel/), 'haftung');
    await userEvent.type(field(CLAUSE_NAME), 'Haftung');
    await userEvent.type(field(/^Deutscher Text/), 'Text mit {{kunde}');
    await userEvent.type(field(/^Kommentar zur ersten Version/), 'Erste Fassung');
    await userEvent.click(screen.getByRole('button', { name: 'Klausel anlegen' }));

    const german = field(/^Deutscher Text/);
    await waitFor(() =>
      expect(german).toHaveAccessibleDescription('Der deutsche Text nennt {kunde}, das gibt es nicht.'),
    );
    expect(screen.getByText('Bitte prüfe die markierten Felder.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Klausel anlegen' }));
    const key = field(/^Schlüssel/);
    await waitFor(() => expect(key).toHaveAccessibleDescription(expect.stringContaining('gibt es schon')));
    expect(key).toHaveAttribute('aria-invalid', 'true');
  });
});
