import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeAuthService, jsonResponse, renderRoutes, stubApi, stubFetch } from '@/test/utils';
import { createRouteGuard } from './route-guard';
import { appRoutes } from './router';

const legal = { email: 'legal@demo.local', name: 'Lena Legal', permission: 2 };

// The shell and the pages load lazily (router.tsx). Loaded once before the tests, so that these wait for
// what the app shows, not for the first transform of the modules behind a route.
beforeAll(async () => {
  await Promise.all([
    import('./session-layout'),
    import('@/features/match/start-page'),
    import('@/features/format/format-page'),
    import('@/features/admin'),
  ]);
}, 120_000);

function renderApp(path: string, auth = fakeAuthService()) {
  return renderRoutes(appRoutes(auth), path, auth);
}

describe('route guard and shell', () => {
  it('shows a loader, verifies the session, then the page inside the shell', async () => {
    const fetchMock = stubFetch(jsonResponse(200, legal));
    renderApp('/start');

    expect(screen.getByRole('status', { name: 'Wird geladen …' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Match-ID eingeben' })).not.toBeInTheDocument();

    expect(await screen.findByRole('heading', { name: 'Match-ID eingeben' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Problem melden' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByText('Version 9.8.7')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Besuchte Seiten' })).toHaveTextContent('ID-Input');

    expect(fetchMock).toHaveBeenCalledOnce();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/backend/private/verifyUser');
    expect(localStorage.getItem('permission')).toBe('2');
  });

  it('sends a signed-in user without a level to /login, still signed in', async () => {
    localStorage.setItem('userMail', 'neu@demo.local');
    stubFetch(
      jsonResponse(200, { email: 'neu@demo.local', name: 'Nina Neu', permission: null }),
      jsonResponse(200, { email: 'neu@demo.local', name: 'Nina Neu', permission: null }),
      jsonResponse(200, { request: null }),
    );
    const auth = fakeAuthService();
    const { router } = renderApp('/start', auth);
    expect(await screen.findByRole('button', { name: 'Zugang anfragen' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(auth.forgetUser).not.toHaveBeenCalled();
  });

  it('offers the administration to administrators, and only it to one without a level', async () => {
    const ops = { email: 'ops@demo.local', name: 'Olga Operations', permission: null, administrator: true };
    stubApi({
      'POST /backend/private/verifyUser': jsonResponse(200, ops),
      'GET /backend/admin/access-requests': jsonResponse(200, []),
    });
    const { router } = renderApp('/start');
    expect(await screen.findByRole('heading', { name: 'Verwaltung' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verwaltung');
    expect(screen.getByRole('link', { name: 'Verwaltung' })).toHaveAttribute('href', '/verwaltung');
  });

  it('shows no administration link to others', async () => {
    // Legal staff have it for the approval rules; a leader who does not administer has none.
    stubFetch(jsonResponse(200, { ...legal, permission: 3 }));
    renderApp('/start');
    expect(await screen.findByRole('heading', { name: 'Match-ID eingeben' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Verwaltung' })).not.toBeInTheDocument();
  });

  it.each([
    { who: 'consultant', permission: 1, administrator: false, offered: false },
    { who: 'legal', permission: 2, administrator: false, offered: true },
    { who: 'leader', permission: 3, administrator: false, offered: false },
    { who: 'leader who administers', permission: 3, administrator: true, offered: true },
  ])(
    'offers the templates and the clauses to $who: $offered',
    async ({ permission, administrator, offered }) => {
      stubFetch(jsonResponse(200, { ...legal, permission, administrator }));
      renderApp('/start');
      expect(await screen.findByRole('heading', { name: 'Match-ID eingeben' })).toBeInTheDocument();
      const link = screen.queryByRole('link', { name: 'Vorlagen' });
      const clauses = screen.queryByRole('link', { name: 'Klauseln' });
      if (offered) {
        expect(link).toHaveAttribute('href', '/vorlagen');
        expect(clauses).toHaveAttribute('href', '/klauseln');
      } else {
        expect(link).not.toBeInTheDocument();
        expect(clauses).not.toBeInTheDocument();
      }
    },
  );

  // Whether the rules name the user as approver is the server's answer (`approver`): a consultant
  // named as deputy approves too.
  it.each([
    { who: 'consultant', permission: 1, approvals: false, administration: false },
    { who: 'a consultant named deputy', permission: 1, approvals: true, administration: false },
    { who: 'legal', permission: 2, approvals: true, administration: true },
    { who: 'leader', permission: 3, approvals: true, administration: false },
  ])(
    'offers /freigaben to $who: $approvals, and /verwaltung (approval rules): $administration',
    async ({ permission, approvals, administration }) => {
      stubFetch(jsonResponse(200, { ...legal, permission, administrator: false, approver: approvals }));
      renderApp('/start');
      expect(await screen.findByRole('heading', { name: 'Match-ID eingeben' })).toBeInTheDocument();
      const approvalsLink = screen.queryByRole('link', { name: 'Freigaben' });
      if (approvals) expect(approvalsLink).toHaveAttribute('href', '/freigaben');
      else expect(approvalsLink).not.toBeInTheDocument();
      const administrationLink = screen.queryByRole('link', { name: 'Verwaltung' });
      if (administration) expect(administrationLink).toHaveAttribute('href', '/verwaltung');
      else expect(administrationLink).not.toBeInTheDocument();
    },
  );

  it('sends the user to /login and clears the storage when the server rejects the session', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem('userMail', 'legal@demo.local');
    localStorage.setItem('permission', '2');
    stubFetch(jsonResponse(401, { error: 'unauthorized', message: 'Sitzung abgelaufen.' }));
    const auth = fakeAuthService();
    const { router } = renderApp('/format', auth);

    expect(await screen.findByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.length).toBe(0);
    expect(auth.forgetUser).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  const retryLater = (status: number, error: string) =>
    jsonResponse(status, { error, message: 'Bitte versuche es in einem Moment erneut.' });

  it.each([
    ['is unreachable', () => new TypeError('Failed to fetch')],
    ['answers 503', () => retryLater(503, 'unavailable')],
    ['answers 500', () => retryLater(500, 'internal')],
    ['answers 429', () => retryLater(429, 'too_many_requests')],
    ['answers with a body that is not its JSON', () => new Response('<html>', { status: 200 })],
  ])('sends the user to /login but keeps the session when the server %s', async (_, answer) => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem('userMail', 'legal@demo.local');
    stubFetch(answer());
    const auth = fakeAuthService();
    const { router } = renderApp('/start', auth);
    expect(await screen.findByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    // Other tabs of the same user keep working once the server answers again.
    expect(localStorage.getItem('userMail')).toBe('legal@demo.local');
    expect(auth.forgetUser).not.toHaveBeenCalled();
  });

  it('keeps the session when the page is being left while the check runs', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem('userMail', 'legal@demo.local');
    stubFetch(jsonResponse(401, { error: 'unauthorized', message: 'Sitzung abgelaufen.' }));
    const auth = fakeAuthService();
    const guard = createRouteGuard(auth);
    window.dispatchEvent(new Event('beforeunload'));
    const url = 'http://localhost/start';
    await expect(
      guard({ request: new Request(url), url: new URL(url), pattern: '/start', params: {}, context: {} }),
    ).resolves.toBeNull();
    expect(localStorage.getItem('userMail')).toBe('legal@demo.local');
    expect(auth.forgetUser).not.toHaveBeenCalled();
  });

  it('keeps the session when a newer navigation aborted the check', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem('userMail', 'legal@demo.local');
    stubFetch(jsonResponse(401, { error: 'unauthorized', message: 'Sitzung abgelaufen.' }));
    const auth = fakeAuthService();
    const navigation = new AbortController();
    navigation.abort();
    const guard = createRouteGuard(auth);
    await expect(
      guard({
        request: new Request('http://localhost/start', { signal: navigation.signal }),
        url: new URL('http://localhost/start'),
        pattern: '/start',
        params: {},
        context: {},
      }),
    ).resolves.toBeNull();
    expect(localStorage.getItem('userMail')).toBe('legal@demo.local');
    expect(auth.forgetUser).not.toHaveBeenCalled();
  });

  it('sends the user to /login without asking the server when there is no token', async () => {
    const fetchMock = stubFetch(jsonResponse(200, legal));
    const { router } = renderApp('/start', fakeAuthService({ freshIdToken: vi.fn(async () => null) }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves the user with a silently renewed token before verifying it', async () => {
    const fetchMock = stubFetch(jsonResponse(200, legal));
    renderApp(
      '/start',
      fakeAuthService({ freshIdToken: vi.fn(async () => ({ idToken: 'new', renewed: true })) }),
    );

    expect(await screen.findByRole('heading', { name: 'Match-ID eingeben' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/backend/private/saveUser',
      '/backend/private/verifyUser',
    ]);
  });

  it('checks the session again on every navigation', async () => {
    const fetchMock = stubFetch(
      jsonResponse(200, legal),
      jsonResponse(200, legal),
      jsonResponse(200, { data: legal.permission }),
    );
    const { router } = renderApp('/start');
    await screen.findByRole('heading', { name: 'Match-ID eingeben' });

    await router.navigate('/format');
    expect(await screen.findByRole('link', { name: 'Kündigungen' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/backend/private/verifyUser',
      '/backend/private/verifyUser',
      '/backend/private/getPermission/legal%40demo.local',
    ]);
  });

  it('redirects / to /login without a check', async () => {
    const fetchMock = stubFetch(jsonResponse(200, legal));
    const { router } = renderApp('/');
    expect(await screen.findByRole('button', { name: 'Mit Demo-SSO anmelden' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a German 404 page inside the shell for unknown paths', async () => {
    stubFetch(jsonResponse(200, legal));
    renderApp('/gibt-es-nicht');
    expect(await screen.findByRole('heading', { name: 'Seite nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('completes the sign-in on /auth/callback without the guard', async () => {
    const fetchMock = stubFetch(jsonResponse(200, legal));
    const auth = fakeAuthService();
    renderApp('/auth/callback?code=abc&state=xyz', auth);

    expect(await screen.findByText('Anmeldung wird abgeschlossen …')).toBeInTheDocument();
    expect(auth.completeSignIn).toHaveBeenCalledOnce();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
