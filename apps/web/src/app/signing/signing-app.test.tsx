import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { unverifiedView } from '@/features/signature/test-fixtures';
import { jsonResponse, stubApi } from '@/test/utils';
import { SigningApp } from './signing-app';

const VIEW = 'GET /backend/signing';
/** A code is on its way already: the code step sends none. */
const waitingForCode = {
  ...unverifiedView,
  verification: { ...unverifiedView.verification, codeSent: true, resendInSeconds: 60 },
};

afterEach(() => {
  window.location.hash = '';
});

describe('SigningApp', () => {
  it('shows the page of the link in the address, and of another link opened in the same tab', async () => {
    window.location.hash = '#erster-link';
    const api = stubApi({ [VIEW]: jsonResponse(200, waitingForCode) });
    render(<SigningApp />);

    expect(
      await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' }),
    ).toBeInTheDocument();
    expect(api.headersOf(VIEW).map((headers) => headers.get('x-signing-token'))).toEqual(['erster-link']);

    await act(async () => {
      window.location.hash = '#zweiter-link';
      await new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
    });
    await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });
    expect(api.headersOf(VIEW).map((headers) => headers.get('x-signing-token'))).toEqual([
      'erster-link',
      'zweiter-link',
    ]);
  });
});
