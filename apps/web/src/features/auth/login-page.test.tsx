import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeAuthService, jsonResponse, renderRoutes, stubFetch } from '../../test/utils';
import type { AuthService } from './auth-service';
import { LoginPage } from './login-page';

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '/start', element: <p>Startseite</p> },
];

async function clickSignIn(auth: AuthService) {
  const view = renderRoutes(routes, '/login', auth);
  await userEvent.click(screen.getByRole('button', { name: 'Mit Demo-SSO anmelden' }));
  return view;
}

describe('LoginPage', () => {
  it('saves the user and goes to /start when the server answers with a permission', async () => {
    const fetchMock = stubFetch(
      jsonResponse(200, { email: 'legal@demo.local', name: 'Lena Legal', permission: 2 }),
    );
    const auth = fakeAuthService();
    const { router } = await clickSignIn(auth);

    expect(await screen.findByText('Startseite')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/start');
    expect(auth.signInWithPopup).toHaveBeenCalledOnce();
    expect(localStorage.getItem('permission')).toBe('2');
    expect(localStorage.getItem('userMail')).toBe('legal@demo.local');

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/backend/private/saveUser');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer id-token');
    expect(init?.body).toBe('{}');
  });

  it('stays on /login and points a user without permission to Team-Operations', async () => {
    stubFetch(jsonResponse(200, { email: 'neu@demo.local', name: 'Nina Neu', permission: null }));
    const auth = fakeAuthService();
    const { router } = await clickSignIn(auth);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Du hast noch keine Berechtigung. Bitte beantrage den Zugang bei Team-Operations.',
    );
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('permission')).toBeNull();
    expect(auth.forgetUser).toHaveBeenCalled();
  });

  it('says the sign-in window was closed when the user closes the popup', async () => {
    const fetchMock = stubFetch(jsonResponse(500));
    const auth = fakeAuthService({
      signInWithPopup: vi.fn(async () => {
        throw new Error('Popup closed by user');
      }),
    });
    await clickSignIn(auth);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Das Anmeldefenster wurde geschlossen, bevor die Anmeldung abgeschlossen war. Bitte versuche es erneut.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeEnabled();
  });

  it('reports any other authentication failure, logs it, and lets the user retry', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(jsonResponse(200, { email: 'berater@demo.local', name: 'Berta Berater', permission: 1 }));
    const failure = new TypeError('Failed to fetch');
    const auth = fakeAuthService({
      signInWithPopup: vi.fn<AuthService['signInWithPopup']>().mockRejectedValueOnce(failure),
    });
    const { router } = await clickSignIn(auth);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Die Authentifizierung ist fehlgeschlagen. Bitte versuche es erneut. Details findest du in der Konsole.',
    );
    expect(consoleError).toHaveBeenCalledWith(expect.any(String), failure);

    await userEvent.click(screen.getByRole('button', { name: 'Mit Demo-SSO anmelden' }));
    expect(await screen.findByText('Startseite')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/start');
  });

  it('reports a failing saveUser as a login error and forgets the half sign-in', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(jsonResponse(401, { error: 'unauthorized', message: 'Token ungültig.' }));
    const auth = fakeAuthService();
    const { router } = await clickSignIn(auth);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Bei der Anmeldung ist ein Fehler aufgetreten. Bitte versuche es erneut.',
    );
    expect(router.state.location.pathname).toBe('/login');
    expect(auth.forgetUser).toHaveBeenCalled();
  });

  it('reports an unreachable server as a login error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(new TypeError('Failed to fetch'));
    await clickSignIn(fakeAuthService());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Bei der Anmeldung ist ein Fehler aufgetreten. Bitte versuche es erneut.',
    );
  });
});
