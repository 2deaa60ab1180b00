import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { CalendarFeedControl } from './calendar-feed-control';

const FEED = '/backend/contracts/calendar-feed';
const URL = `https://vertrag.example/backend/calendar/vgcal_${'x'.repeat(43)}.ics`;
const CREATED_AT = '2026-11-25T08:00:00.000Z';

describe('CalendarFeedControl', () => {
  it('makes a subscribe link and shows it once, with the copy button focused', async () => {
    const api = stubApi({
      [`GET ${FEED}`]: [
        jsonResponse(200, { exists: false, createdAt: null }),
        jsonResponse(200, { exists: true, createdAt: CREATED_AT }),
      ],
      [`POST ${FEED}`]: jsonResponse(201, { url: URL, createdAt: CREATED_AT }),
    });
    renderWithProviders(<CalendarFeedControl />);
    expect(await screen.findByText('Du hast noch keinen Link.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Link widerrufen' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Link erstellen' }));
    expect(await screen.findByRole('textbox', { name: 'Link zum Abonnieren' })).toHaveValue(URL);
    expect(screen.getByRole('button', { name: 'Link kopieren' })).toHaveFocus();
    expect(api.callsTo(`POST ${FEED}`)).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Fertig' }));
    expect(screen.queryByRole('textbox', { name: 'Link zum Abonnieren' })).toBeNull();
    expect(await screen.findByText(/^Du hast einen Link seit /)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Neuen Link erstellen' })).toBeVisible();
  });

  it('revokes the link after a confirmation', async () => {
    const api = stubApi({
      [`GET ${FEED}`]: [
        jsonResponse(200, { exists: true, createdAt: CREATED_AT }),
        jsonResponse(200, { exists: false, createdAt: null }),
      ],
      [`DELETE ${FEED}`]: jsonResponse(200, { ok: true }),
    });
    renderWithProviders(<CalendarFeedControl />);
    await userEvent.click(await screen.findByRole('button', { name: 'Link widerrufen' }));
    expect(screen.getByText(/^Link wirklich widerrufen\?/)).toBeVisible();
    expect(api.callsTo(`DELETE ${FEED}`)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Widerrufen' }));
    await waitFor(() => expect(api.callsTo(`DELETE ${FEED}`)).toHaveLength(1));
    expect(await screen.findByText('Du hast noch keinen Link.')).toBeVisible();
  });

  it('says in the server’s words why a link could not be made', async () => {
    stubApi({
      [`GET ${FEED}`]: jsonResponse(200, { exists: false, createdAt: null }),
      [`POST ${FEED}`]: jsonResponse(403, {
        error: 'forbidden',
        message: 'Dafür fehlt dir die Berechtigung.',
      }),
    });
    renderWithProviders(<CalendarFeedControl />);
    await userEvent.click(await screen.findByRole('button', { name: 'Link erstellen' }));
    expect(await screen.findByText('Dafür fehlt dir die Berechtigung.')).toBeVisible();
  });
});
