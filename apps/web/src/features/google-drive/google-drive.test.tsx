import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RuntimeConfig } from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import type { AuthService } from '@/lib/auth/auth-service';
import { captureDownloads } from '@/test/downloads';
import { type ApiAnswer, fakeAuthService, jsonResponse, stubApi, testConfig } from '@/test/utils';
import { useDriveTokenMonitor, useGoogleDocsHandOver } from './index';
import { renewDriveSession } from './session-renewal';

const API = 'https://drive.example';
const ABOUT = `GET ${API}/drive/v3/about?fields=user`;
const SAVE_USER = 'POST /backend/private/saveUser';
const EXPIRED = 'Deine Google-Drive-Sitzung ist abgelaufen. Möchtest du dich jetzt erneut anmelden?';
const DOC_URL = 'https://docs.google.com/document/d/doc-1/edit';

const aboutOk = () => jsonResponse(200, { user: { emailAddress: 'legal@demo.local' } });
const unauthorized = () => jsonResponse(401, { error: { code: 401 } });
const savedUser = () => jsonResponse(200, { email: 'legal@demo.local', name: 'Lena Legal', permission: 2 });

function googleConfig(editor: RuntimeConfig['editor'] = 'google'): RuntimeConfig {
  return { ...testConfig, editor, googleDriveApiUrl: API };
}

function driveAuth(overrides: Partial<AuthService> = {}) {
  return fakeAuthService({ driveAccessToken: vi.fn(() => 'token-1'), ...overrides });
}

function providers(auth: AuthService, config = googleConfig()) {
  return ({ children }: { children: ReactNode }) => (
    <AppProviders config={config} auth={auth} env="test">
      {children}
    </AppProviders>
  );
}

function Monitor() {
  useDriveTokenMonitor();
  return null;
}

function renderMonitor(auth: AuthService, config = googleConfig()) {
  return render(<Monitor />, { wrapper: providers(auth, config) });
}

async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

function stubDriveAndServer(about: ApiAnswer | ApiAnswer[]) {
  return stubApi({ [ABOUT]: about, [SAVE_USER]: savedUser });
}

let downloads: string[];

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  downloads = captureDownloads();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('useDriveTokenMonitor', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });

  it('checks the Drive token every 30 s with about', async () => {
    const { callsTo, headersOf } = stubDriveAndServer(aboutOk);
    const { unmount } = renderMonitor(driveAuth());

    await advance(29_999);
    expect(callsTo(ABOUT)).toHaveLength(0);
    await advance(1);
    expect(callsTo(ABOUT)).toHaveLength(1);
    expect(headersOf(ABOUT)[0]?.get('Authorization')).toBe('Bearer token-1');
    await advance(30_000);
    expect(callsTo(ABOUT)).toHaveLength(2);
    expect(screen.queryByText(EXPIRED)).not.toBeInTheDocument();

    unmount();
    await advance(60_000);
    expect(callsTo(ABOUT)).toHaveLength(2);
  });

  it('does nothing with another editor or without a token', async () => {
    const { fetchMock } = stubDriveAndServer(aboutOk);
    renderMonitor(driveAuth(), googleConfig('builtin'));
    renderMonitor(driveAuth({ driveAccessToken: vi.fn(() => null) }));
    await advance(90_000);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks on a 401 and signs in again on "Ja"', async () => {
    const { callsTo } = stubDriveAndServer([unauthorized, aboutOk]);
    const auth = driveAuth();
    renderMonitor(auth);

    await advance(30_000);
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ja' }));

    expect(auth.signInWithPopup).toHaveBeenCalledOnce();
    await waitFor(() => expect(callsTo(SAVE_USER)).toHaveLength(1));
    expect(localStorage.getItem('userMail')).toBe('legal@demo.local');
    await waitFor(() => expect(screen.queryByText(EXPIRED)).not.toBeInTheDocument());
    await advance(30_000);
    expect(callsTo(ABOUT)).toHaveLength(2);
  });

  it('after "Nein" leaves the same token alone, but checks a new one', async () => {
    const { callsTo } = stubDriveAndServer(unauthorized);
    const auth = driveAuth();
    renderMonitor(auth);

    await advance(30_000);
    await userEvent.click(await screen.findByRole('button', { name: 'Nein' }));
    await waitFor(() => expect(screen.queryByText(EXPIRED)).not.toBeInTheDocument());
    expect(auth.signInWithPopup).not.toHaveBeenCalled();

    await advance(60_000);
    expect(callsTo(ABOUT)).toHaveLength(1);
    vi.mocked(auth.driveAccessToken).mockReturnValue('token-2');
    await advance(30_000);
    expect(callsTo(ABOUT)).toHaveLength(2);
    expect(await screen.findByText(EXPIRED)).toBeInTheDocument();
    // The question is shared across the module: answer it, or the next test would wait on it.
    await userEvent.click(screen.getByRole('button', { name: 'Nein' }));
  });
});

describe('useGoogleDocsHandOver', () => {
  const file = { blob: new Blob(['PK']), fileName: 'Vertrag.docx' };

  function stubHappyDrive(about: ApiAnswer | ApiAnswer[]) {
    return stubApi({
      [ABOUT]: about,
      [`POST ${API}/upload/drive/v3/files`]: jsonResponse(200, { id: 'upload-1' }),
      [`POST ${API}/drive/v3/files/upload-1/copy`]: jsonResponse(200, { id: 'doc-1', webViewLink: DOC_URL }),
      [`DELETE ${API}/drive/v3/files/upload-1`]: new Response(null, { status: 204 }),
      [SAVE_USER]: savedUser,
    });
  }

  it('on a 401 asks, signs in with the popup and retries with the new token', async () => {
    const { headersOf } = stubHappyDrive([unauthorized, aboutOk]);
    const driveAccessToken = vi.fn(() => 'token-1');
    const auth = driveAuth({
      driveAccessToken,
      signInWithPopup: vi.fn(async () => {
        driveAccessToken.mockReturnValue('token-2');
      }),
    });
    const { result } = renderHook(() => useGoogleDocsHandOver(), { wrapper: providers(auth) });

    const outcome = result.current(file);
    await userEvent.click(await screen.findByRole('button', { name: 'Ja' }));

    expect(await outcome).toEqual({ kind: 'open', url: DOC_URL });
    expect(headersOf(ABOUT).map((headers) => headers.get('Authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);
    expect(downloads).toEqual([]);
  });

  it('on "Nein" downloads the file and says so', async () => {
    stubHappyDrive(unauthorized);
    const { result } = renderHook(() => useGoogleDocsHandOver(), { wrapper: providers(driveAuth()) });

    const outcome = result.current(file);
    await userEvent.click(await screen.findByRole('button', { name: 'Nein' }));

    expect(await outcome).toEqual({ kind: 'downloaded' });
    expect(downloads).toEqual(['Vertrag.docx']);
    expect(await screen.findByText('Das Dokument wurde stattdessen heruntergeladen.')).toBeInTheDocument();
  });

  it('downloads when the popup sign-in fails', async () => {
    stubHappyDrive(unauthorized);
    const auth = driveAuth({
      signInWithPopup: vi.fn(async () => Promise.reject(new Error('Popup closed by user'))),
    });
    const { result } = renderHook(() => useGoogleDocsHandOver(), { wrapper: providers(auth) });

    const outcome = result.current(file);
    await userEvent.click(await screen.findByRole('button', { name: 'Ja' }));

    expect(await outcome).toEqual({ kind: 'downloaded' });
    expect(downloads).toEqual(['Vertrag.docx']);
  });
});

describe('renewDriveSession', () => {
  it('asks once for callers that meet the expired token at the same time', async () => {
    stubApi({ [SAVE_USER]: savedUser });
    const auth = driveAuth();
    render(<p>App</p>, { wrapper: providers(auth) });

    const first = renewDriveSession(auth);
    const second = renewDriveSession(auth);
    expect(await screen.findAllByText(EXPIRED)).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Ja' }));

    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(auth.signInWithPopup).toHaveBeenCalledOnce();
  });
});
