import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { unverifiedView } from '@/features/review-link/test-fixtures';
import { jsonResponse, stubApi } from '@/test/utils';
import { ReviewApp } from './review-app';

const VIEW = 'GET /backend/review';
/** A code is on its way already: the code step sends none. */
const waitingForCode = {
  ...unverifiedView,
  verification: { ...unverifiedView.verification, codeSent: true, resendInSeconds: 60 },
};

afterEach(() => {
  window.location.hash = '';
});

describe('ReviewApp', () => {
  it('shows the page of the link in the address, and of another link opened in the same tab', async () => {
    window.location.hash = '#erster-link';
    const api = stubApi({ [VIEW]: jsonResponse(200, waitingForCode) });
    render(<ReviewApp />);

    expect(
      await screen.findByRole('heading', { name: 'Bestätigen Sie Ihre E-Mail-Adresse' }),
    ).toBeInTheDocument();
    expect(api.headersOf(VIEW).map((headers) => headers.get('x-review-token'))).toEqual(['erster-link']);

    await act(async () => {
      window.location.hash = '#zweiter-link';
      await new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
    });
    await screen.findByRole('heading', { name: 'Bestätigen Sie Ihre E-Mail-Adresse' });
    expect(api.headersOf(VIEW).map((headers) => headers.get('x-review-token'))).toEqual([
      'erster-link',
      'zweiter-link',
    ]);
  });
});
