import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SigningView } from '@vertragsgenerator/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi } from '@/test/utils';
import { renderSigning, VIEW } from './signing-test-page';
import { LINK_TOKEN, signingView, unverifiedView } from './test-fixtures';

// jsdom lays out neither the DOCX (the signing page's reader stands in as a text) nor signature_pad's canvas.
vi.mock('@/components/document-viewer/document-reader', () => ({ DocumentReader: () => 'Dokumentansicht' }));
vi.mock('signature_pad', () => import('@/test/untouched-signature-pad'));

const CODE = 'POST /backend/signing/code';
const VERIFY = 'POST /backend/signing/verify';

/** The view after a code went out: a new one in 60 seconds. */
const codeSent: SigningView = {
  ...unverifiedView,
  verification: { ...unverifiedView.verification, codeSent: true, resendInSeconds: 60 },
};

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterEach(() => {
  vi.useRealTimers();
});

const codeInput = () => screen.getByRole('textbox', { name: 'Code aus der E-Mail (6 Ziffern)' });
const confirmButton = () => screen.getByRole('button', { name: 'Bestätigen' });
const resendButton = () => screen.getByRole('button', { name: /^Code erneut senden/ });

describe('SigningPage: the code step', () => {
  it('mails the first code when it shows, and keeps the document closed', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, unverifiedView), [CODE]: jsonResponse(200, codeSent) });
    renderSigning();

    expect(
      await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Wir haben dir einen Code an k***@kunde.de geschickt.',
      ),
    );
    expect(api.callsTo(CODE)).toHaveLength(1);
    for (const headers of api.headersOf(CODE)) expect(headers.get('x-signing-token')).toBe(LINK_TOKEN);
    expect(screen.queryByText('Dokumentansicht')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unterschreiben' })).not.toBeInTheDocument();
    expect(screen.getByText('a'.repeat(64))).toBeInTheDocument();

    const input = codeInput();
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    expect(input).toBeRequired();
    expect(resendButton()).toBeDisabled();
    expect(resendButton()).toHaveTextContent('Code erneut senden (in 60 s)');
  });

  it('sends no new code when one is still on its way (a reload)', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, codeSent), [CODE]: jsonResponse(200, codeSent) });
    renderSigning();
    await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });
    expect(screen.getByRole('status')).toHaveTextContent(
      'Wir haben dir einen Code an k***@kunde.de geschickt.',
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(api.callsTo(CODE)).toEqual([]);
  });

  it('opens the document with the right code, entered with the keyboard alone', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, codeSent),
      [VERIFY]: jsonResponse(200, signingView),
    });
    renderSigning();
    await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });

    await userEvent.tab();
    expect(codeInput()).toHaveFocus();
    // A pasted code may carry a space; only the digits are sent.
    await userEvent.paste('123 456');
    expect(codeInput()).toHaveValue('123456');
    await userEvent.keyboard('{Enter}');

    expect(await screen.findByText('Dokumentansicht')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unterschreiben' })).toBeInTheDocument();
    expect(api.callsTo(VERIFY)).toEqual([{ url: '/backend/signing/verify', body: { code: '123456' } }]);
    // The document's hash stays in view beside the signing form.
    expect(screen.getByText('a'.repeat(64))).toBeInTheDocument();
  });

  it('asks for six digits before asking the server', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, codeSent) });
    renderSigning();
    await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });
    await userEvent.type(codeInput(), '12a45');
    expect(codeInput()).toHaveValue('1245');
    await userEvent.click(confirmButton());

    expect(screen.getByRole('alert')).toHaveTextContent('Bitte gib die 6 Ziffern aus der E-Mail ein.');
    expect(codeInput()).toHaveAttribute('aria-invalid', 'true');
    expect(codeInput()).toHaveFocus();
    expect(api.callsTo(VERIFY)).toEqual([]);
  });

  it.each([
    ['code_wrong', 'Der Code stimmt nicht. Du hast noch 4 Versuche.'],
    ['code_expired', 'Dieser Code gilt nicht mehr. Bitte fordere einen neuen Code an.'],
  ])('shows %s in the server’s words at the field', async (error, message) => {
    stubApi({ [VIEW]: jsonResponse(200, codeSent), [VERIFY]: jsonResponse(400, { error, message }) });
    renderSigning();
    await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });
    await userEvent.type(codeInput(), '654321');
    await userEvent.click(confirmButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(codeInput()).toHaveAttribute('aria-invalid', 'true');
    expect(codeInput()).toHaveAccessibleDescription(message);
    expect(screen.queryByText('Dokumentansicht')).not.toBeInTheDocument();
  });

  it('says until when the link is locked after too many wrong codes, and offers nothing meanwhile', async () => {
    const lockedUntil = new Date(Date.now() + 15 * 60_000);
    const locked: SigningView = {
      ...codeSent,
      verification: { ...codeSent.verification, codeSent: false, lockedUntil: lockedUntil.toISOString() },
    };
    const time = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(lockedUntil);
    const message = `Zu viele falsche Codes. Der Link ist bis ${time} Uhr gesperrt.`;
    const api = stubApi({
      [VIEW]: [jsonResponse(200, codeSent), jsonResponse(200, locked)],
      [VERIFY]: jsonResponse(429, { error: 'verification_locked', message }),
    });
    renderSigning();
    await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });
    await userEvent.type(codeInput(), '654321');
    await userEvent.click(confirmButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(codeInput()).toBeDisabled();
    expect(confirmButton()).toBeDisabled();
    expect(resendButton()).toBeDisabled();
    expect(api.callsTo(VIEW)).toHaveLength(2);
    expect(api.callsTo(CODE)).toEqual([]);
  });

  it('offers a new code after 60 seconds, counting down, and says the old one no longer works', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const api = stubApi({ [VIEW]: jsonResponse(200, codeSent), [CODE]: jsonResponse(200, codeSent) });
    renderSigning();
    await screen.findByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });
    expect(resendButton()).toBeDisabled();

    await act(() => vi.advanceTimersByTimeAsync(45_000));
    expect(resendButton()).toHaveTextContent(/in 1[45] s/);
    expect(resendButton()).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(16_000));
    expect(resendButton()).toHaveTextContent(/^Code erneut senden$/);
    expect(resendButton()).toBeEnabled();

    await user.click(resendButton());
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Wir haben dir einen neuen Code geschickt. Der vorherige gilt nicht mehr.',
      ),
    );
    expect(api.callsTo(CODE)).toHaveLength(1);
    // The server's pause starts again with the new code.
    expect(resendButton()).toBeDisabled();
  });
});
