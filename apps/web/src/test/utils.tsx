import type { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { RuntimeConfig, SessionUser } from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { setIdTokenSource } from '@/lib/api';
import type { AuthService } from '@/lib/auth/auth-service';
import { SESSION_ROUTE } from '@/lib/paths';

export const testConfig: RuntimeConfig = {
  version: '9.8.7',
  oidc: {
    authority: 'http://localhost/idp',
    clientId: 'vertragsgenerator',
    providerName: 'Demo-SSO',
    scope: 'openid profile email',
  },
  editor: 'builtin',
  googleDriveApiUrl: 'https://www.googleapis.com',
  signature: 'builtin',
};

export function fakeAuthService(overrides: Partial<AuthService> = {}): AuthService {
  return {
    signInWithPopup: vi.fn(async () => {}),
    completeSignIn: vi.fn(async () => {}),
    currentIdToken: vi.fn(async () => 'id-token'),
    freshIdToken: vi.fn(async () => ({ idToken: 'id-token', renewed: false })),
    forgetUser: vi.fn(async () => {}),
    driveAccessToken: vi.fn(() => null),
    ...overrides,
  };
}

/**
 * The signed-in pages' route as the app's route guard makes it, with a slow server: every navigation waits
 * 600 ms for the session check before the address changes — longer than a typed search's 300 ms.
 */
export function slowSessionCheck(user: SessionUser, children: RouteObject[]): RouteObject {
  return {
    id: SESSION_ROUTE,
    loader: () => new Promise((resolve) => setTimeout(() => resolve(user), 600)),
    shouldRevalidate: () => true,
    children,
  };
}

/**
 * Renders routes in a memory router inside the app's providers, wired to `auth` as main.tsx wires them;
 * returns the router to inspect its location.
 */
export function renderRoutes(
  routes: RouteObject[],
  initialPath: string,
  auth: AuthService = fakeAuthService(),
  queryClient?: QueryClient,
) {
  setIdTokenSource(() => auth.currentIdToken());
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const view = render(
    <AppProviders config={testConfig} auth={auth} queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, auth };
}

export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Replaces `fetch` with one that answers each call with the next of `answers` (the last one repeats). */
export function stubFetch(...answers: Array<Response | Error>) {
  let call = 0;
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    const answer = answers[Math.min(call++, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    if (!answer) throw new Error('stubFetch needs an answer');
    return answer.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export type ApiAnswer = Response | Error | ((init?: RequestInit) => Response | Error | Promise<Response>);

/**
 * Replaces `fetch` with one that answers by `METHOD /path` prefix, e.g. `'POST /backend/generateDocx/'`.
 * A list answers call by call, its last entry repeating; an unknown call fails the test loudly.
 */
export function stubApi(routes: Record<string, ApiAnswer | ApiAnswer[]>) {
  const served = new Map<string, number>();
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${String(input)}`;
    const route = Object.keys(routes)
      .filter((prefix) => call.startsWith(prefix))
      .sort((a, b) => b.length - a.length)[0];
    if (route === undefined) throw new Error(`unexpected call ${call}`);
    const answers = ([] as ApiAnswer[]).concat(routes[route] ?? []);
    const index = served.get(route) ?? 0;
    served.set(route, index + 1);
    const answer = answers[Math.min(index, answers.length - 1)];
    const resolved = typeof answer === 'function' ? await answer(init) : answer;
    if (resolved === undefined) throw new Error(`no answer for ${call}`);
    if (resolved instanceof Error) throw resolved;
    return resolved.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    /** The calls whose `METHOD /path` starts with `prefix`, with their parsed JSON bodies. */
    callsTo(prefix: string) {
      return fetchMock.mock.calls
        .filter(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`.startsWith(prefix))
        .map(([input, init]) => ({
          url: String(input),
          body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
        }));
    },
    /** The request headers of those calls. */
    headersOf(prefix: string) {
      return fetchMock.mock.calls
        .filter(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`.startsWith(prefix))
        .map(([, init]) => new Headers(init?.headers));
    },
  };
}

/** Renders a component inside the app's providers, without a router; `rerender` keeps the providers. */
export function renderWithProviders(ui: ReactNode) {
  const auth = fakeAuthService();
  return render(ui, {
    wrapper: ({ children }) => (
      <AppProviders config={testConfig} auth={auth} env="test">
        {children}
      </AppProviders>
    ),
  });
}
