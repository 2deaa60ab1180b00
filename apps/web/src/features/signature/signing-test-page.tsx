import type { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { SigningPage } from './signing-page';
import { LINK_TOKEN, signingView } from './test-fixtures';

// What the signing page's tests share: the page as a signer opens it from the link in their mail.

export const VIEW = 'GET /backend/signing';
export const SIGN = 'POST /backend/signing/sign';
export const CONSENT =
  'Ich stimme zu, dieses Dokument elektronisch zu unterschreiben. Meine elektronische Unterschrift ist so verbindlich wie eine handschriftliche.';

export function renderSigning(hash = `#${LINK_TOKEN}`, queryClient?: QueryClient) {
  return renderRoutes(
    [{ path: '/unterschreiben', element: <SigningPage token={hash.replace(/^#/, '')} /> }],
    `/unterschreiben${hash}`,
    undefined,
    queryClient,
  );
}

export const signButton = () => screen.getByRole('button', { name: 'Unterschreiben' });

/** Every request carried the link token in its header, never in the URL, and no staff credentials. */
export function expectSignerRequests(fetchMock: ReturnType<typeof stubApi>['fetchMock']) {
  expect(fetchMock).toHaveBeenCalled();
  for (const [url, init] of fetchMock.mock.calls) {
    const headers = new Headers(init?.headers);
    expect(headers.get('x-signing-token')).toBe(LINK_TOKEN);
    expect(headers.has('Authorization')).toBe(false);
    expect(init?.credentials).toBe('omit');
    expect(String(url)).not.toContain(LINK_TOKEN);
  }
}

/** Opens the page, consents and presses Unterschreiben, which the server answers with `answer`. */
export async function signAnsweredWith(answer: Response) {
  stubApi({ [VIEW]: jsonResponse(200, signingView), [SIGN]: answer });
  renderSigning();
  await screen.findByText('Dokumentansicht');
  await userEvent.click(screen.getByRole('checkbox', { name: CONSENT }));
  await userEvent.click(signButton());
}
