import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlaceholderDictionary } from '@vertragsgenerator/domain';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { PlaceholdersPage } from './placeholders-page';

const PLACEHOLDERS = 'GET /backend/templates/placeholders';

const dictionary: PlaceholderDictionary = {
  matchId: 'PL-10001',
  placeholders: [
    {
      name: 'kunde',
      kind: 'text',
      description: 'Name des Kunden',
      syntax: '{kunde}',
      example: 'Elbwerk Logistik AG',
      item: [],
    },
    {
      name: 'startdatum',
      kind: 'text',
      description: 'Projektbeginn, TT.MM.JJJJ',
      syntax: '{startdatum}',
      example: null,
      item: [],
    },
    {
      name: 'mitKunde',
      kind: 'condition',
      description: 'Vertrag mit dem Kunden',
      syntax: '{#mitKunde}…{/mitKunde}',
      example: 'ja bei 24 von 47 Dokumentarten',
      item: [],
    },
    {
      name: 'unterschriften',
      kind: 'loop',
      description: 'Unterschriftsblöcke in Reihenfolge',
      syntax: '{#unterschriften}…{/unterschriften}',
      example: '2 Einträge, z. B. im ersten Dokument mit Einträgen',
      item: [
        {
          name: 'seite',
          description: 'Wer unterschreibt',
          syntax: '{seite}',
          example: 'Für den Auftraggeber',
        },
      ],
    },
  ],
};

describe('PlaceholdersPage', () => {
  it('lists fields, conditions and loops with their meaning and an example from the demo match', async () => {
    stubApi({ [PLACEHOLDERS]: jsonResponse(200, dictionary) });
    renderWithProviders(<PlaceholdersPage />);
    const fields = await screen.findByRole('table', { name: 'Felder' });
    const kunde = within(fields).getByText('{kunde}').closest('tr') as HTMLElement;
    expect(within(kunde).getByText('Name des Kunden')).toBeInTheDocument();
    expect(within(kunde).getByText('Elbwerk Logistik AG')).toBeInTheDocument();
    // A value the demo match lacks has no example.
    expect(
      within(within(fields).getByText('{startdatum}').closest('tr') as HTMLElement).getByText('–'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('table', { name: 'Bedingungen' })).getByText('ja bei 24 von 47 Dokumentarten'),
    ).toBeInTheDocument();
    const loops = screen.getByRole('table', { name: 'Wiederholungen' });
    expect(within(loops).getByText('{seite}')).toBeInTheDocument();
    expect(within(loops).getByText('in {#unterschriften}')).toBeInTheDocument();
    expect(screen.getByText('Die Beispiele stammen aus dem Demo-Match PL-10001.')).toBeInTheDocument();
  });

  it('copies a placeholder as it is written in Word', async () => {
    stubApi({ [PLACEHOLDERS]: jsonResponse(200, dictionary) });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderWithProviders(<PlaceholdersPage />);
    await user.click(await screen.findByRole('button', { name: '{#mitKunde}…{/mitKunde} kopieren' }));
    expect(writeText).toHaveBeenCalledWith('{#mitKunde}…{/mitKunde}');
    expect(await screen.findByRole('button', { name: '{#mitKunde}…{/mitKunde} kopieren' })).toHaveTextContent(
      'Kopiert',
    );
  });

  it('narrows the list to what the search finds, in loops too', async () => {
    stubApi({ [PLACEHOLDERS]: jsonResponse(200, dictionary) });
    renderWithProviders(<PlaceholdersPage />);
    await screen.findByRole('table', { name: 'Felder' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Suchen' }), 'unterschreibt');
    expect(screen.queryByRole('table', { name: 'Felder' })).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Wiederholungen' })).toBeInTheDocument();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Suchen' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Suchen' }), 'gibt es nicht');
    expect(screen.getByText('Kein Platzhalter passt zur Suche.')).toBeInTheDocument();
  });

  it('says in German when the list cannot be loaded', async () => {
    stubApi({
      [PLACEHOLDERS]: jsonResponse(403, { error: 'forbidden', message: 'Dafür fehlt dir die Berechtigung.' }),
    });
    renderWithProviders(<PlaceholdersPage />);
    expect(await screen.findByText('Dafür fehlt dir die Berechtigung.')).toBeInTheDocument();
  });
});
