import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeAuthService, jsonResponse, renderRoutes, stubFetch } from '@/test/utils';
import { LogoutButton } from './logout-button';

const routes = [
  { path: '/start', element: <LogoutButton /> },
  { path: '/login', element: <p>Anmeldeseite</p> },
];

function signedIn() {
  localStorage.setItem('userMail', 'legal@demo.local');
  localStorage.setItem('permission', '2');
  localStorage.setItem('matchId', 'PL-1');
  sessionStorage.setItem('router-history', JSON.stringify(['/start']));
}

describe('LogoutButton', () => {
  it('ends the session, clears the storage and goes to /login', async () => {
    signedIn();
    const fetchMock = stubFetch(new Response(null, { status: 200 }));
    const auth = fakeAuthService();
    const { router } = renderRoutes(routes, '/start', auth);

    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));

    expect(await screen.findByText('Anmeldeseite')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/backend/private/deleteUser/legal%40demo.local');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST');
    expect(storedKeys()).toEqual(['signedOut']);
    expect(sessionStorage.getItem('router-history')).toBeNull();
    expect(auth.forgetUser).toHaveBeenCalledOnce();
    expect(screen.queryByText('Etwas ist schiefgelaufen...')).not.toBeInTheDocument();
  });

  it('shows the alert and still clears the storage when the server refuses', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    signedIn();
    stubFetch(jsonResponse(503, { error: 'unavailable', message: 'Datenbank nicht erreichbar.' }));
    const auth = fakeAuthService();
    const { router } = renderRoutes(routes, '/start', auth);

    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));

    expect(await screen.findByText('Etwas ist schiefgelaufen...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Schließen' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/start');
    expect(storedKeys()).toEqual(['signedOut']);
    expect(auth.forgetUser).toHaveBeenCalledOnce();
  });

  it('shows the alert and clears the storage when the server is unreachable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    signedIn();
    stubFetch(new TypeError('Failed to fetch'));
    renderRoutes(routes, '/start');

    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));

    expect(await screen.findByText('Etwas ist schiefgelaufen...')).toBeInTheDocument();
    expect(storedKeys()).toEqual(['signedOut']);
  });
});

/** What survives a logout: only the marker that the next sign-in must ask for credentials. */
function storedKeys(): (string | null)[] {
  return Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
}
