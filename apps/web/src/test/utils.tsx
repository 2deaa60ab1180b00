import { render } from '@testing-library/react';
import type { RuntimeConfig } from '@vertragsgenerator/domain';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers';
import type { AuthService } from '../features/auth/auth-service';
import { setIdTokenSource } from '../lib/api';

export const testConfig: RuntimeConfig = {
  version: '9.8.7',
  oidc: {
    authority: 'http://localhost/idp',
    clientId: 'vertragsgenerator',
    providerName: 'Demo-SSO',
    scope: 'openid profile email',
  },
  editor: 'builtin',
  signature: 'builtin',
};

export function fakeAuthService(overrides: Partial<AuthService> = {}): AuthService {
  return {
    signInWithPopup: vi.fn(async () => {}),
    completeSignIn: vi.fn(async () => {}),
    currentIdToken: vi.fn(async () => 'id-token'),
    freshIdToken: vi.fn(async () => ({ idToken: 'id-token', renewed: false })),
    forgetUser: vi.fn(async () => {}),
    ...overrides,
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
) {
  setIdTokenSource(() => auth.currentIdToken());
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const view = render(
    <AppProviders config={testConfig} auth={auth} env="test">
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
