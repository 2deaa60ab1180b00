import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuthService } from '@/lib/auth/auth-service';
import { fakeAuthService, jsonResponse, renderRoutes, stubFetch } from '@/test/utils';
import { LoginPage } from './login-page';

const routes = [
  { path: '/login', element: <LoginPage /> },
  { path: '/start', element: <p>Startseite</p> },
  { path: '/verwaltung', element: <p>Verwaltungsseite</p> },
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

  it('keeps a user without permission signed in on /login, who asks Team-Operations once', async () => {
    const requestedAt = '2026-11-25T09:30:00.000Z';
    const fetchMock = stubFetch(
      jsonResponse(200, { email: 'neu@demo.local', name: 'Nina Neu', permission: null }),
      jsonResponse(200, { request: null }),
      jsonResponse(200, { request: { requestedAt, status: 'open', reason: null } }),
    );
    const auth = fakeAuthService();
    const { router } = await clickSignIn(auth);

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Du hast noch keine Berechtigung. Bitte beantrage den Zugang bei Team-Operations.',
    );
    await userEvent.type(
      await screen.findByRole('textbox', { name: /Nachricht an Team-Operations/ }),
      'Ich bin neu im Legal-Team.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Zugang anfragen' }));

    const requested = await screen.findByRole('button', { name: /^Zugang angefragt am 25\.11\.2026/ });
    expect(requested).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[2] ?? [];
    expect(url).toBe('/backend/access-requests');
    expect(JSON.parse(String(init?.body))).toEqual({ message: 'Ich bin neu im Legal-Team.' });
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('permission')).toBeNull();
    expect(localStorage.getItem('userMail')).toBe('neu@demo.local');
    expect(auth.forgetUser).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Abmelden (neu@demo.local)' })).toBeInTheDocument();
  });

  it('shows an open request on a reload, and leads on once access is granted', async () => {
    localStorage.setItem('userMail', 'neu@demo.local');
    stubFetch(
      jsonResponse(200, { email: 'neu@demo.local', name: 'Nina Neu', permission: null }),
      jsonResponse(200, {
        request: { requestedAt: '2026-11-25T09:30:00.000Z', status: 'open', reason: null },
      }),
    );
    const first = renderRoutes(routes, '/login');
    expect(await screen.findByRole('button', { name: /^Zugang angefragt am/ })).toBeDisabled();
    first.unmount();

    stubFetch(jsonResponse(200, { email: 'neu@demo.local', name: 'Nina Neu', permission: 2 }));
    const { router } = renderRoutes(routes, '/login');
    expect(await screen.findByText('Startseite')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/start');
  });

  it('leads an administrator without a level to the administration', async () => {
    stubFetch(
      jsonResponse(200, {
        email: 'ops@demo.local',
        name: 'Olga Operations',
        permission: null,
        administrator: true,
      }),
    );
    const { router } = await clickSignIn(fakeAuthService());
    expect(await screen.findByText('Verwaltungsseite')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verwaltung');
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
