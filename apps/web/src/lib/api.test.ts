import { permissionAnswerSchema } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/test/utils';
import { ApiRequestError, apiFetch, apiJson, setIdTokenSource } from './api';

describe('apiFetch', () => {
  it('sends the ID token only as bearer header', async () => {
    setIdTokenSource(async () => 'the-id-token');
    const fetchMock = stubFetch(jsonResponse(200, {}));

    await apiFetch('/backend/private/verifyUser', { method: 'POST', body: {} });

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/backend/private/verifyUser');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer the-id-token');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{}');
  });

  it('sends a file as is, with its own type', async () => {
    const fetchMock = stubFetch(jsonResponse(200, {}));
    const file = new Blob(['PK'], {
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });

    await apiFetch('/backend/documents/doc-1', { method: 'PUT', body: file });

    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe(file);
    expect(new Headers(init?.headers).get('Content-Type')).toBe(file.type);
  });

  it('sends no Authorization header without a token', async () => {
    setIdTokenSource(async () => null);
    const fetchMock = stubFetch(jsonResponse(200, {}));
    await apiFetch('/backend/config');
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).has('Authorization')).toBe(false);
  });

  it('turns an error answer into an ApiRequestError with status, code and message', async () => {
    stubFetch(jsonResponse(403, { error: 'forbidden', message: 'Dafür fehlt dir die Berechtigung.' }));
    const error = await apiFetch('/backend/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      status: 403,
      code: 'forbidden',
      message: 'Dafür fehlt dir die Berechtigung.',
    });
  });

  it('names an error answer without the error shape by its status', async () => {
    stubFetch(new Response('<html>Bad Gateway</html>', { status: 502 }));
    await expect(apiFetch('/backend/x')).rejects.toMatchObject({ status: 502, code: 'http_502' });
  });

  it('reports an unreachable server with status 0', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    await expect(apiFetch('/backend/x')).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
      message: 'Der Server ist nicht erreichbar. Bitte versuche es erneut.',
    });
  });
});

describe('apiJson', () => {
  it('returns the validated answer', async () => {
    stubFetch(jsonResponse(200, { data: 2 }));
    expect(await apiJson('/backend/x', permissionAnswerSchema)).toEqual({ data: 2 });
  });

  it('refuses an answer of the wrong shape', async () => {
    stubFetch(jsonResponse(200, { data: 'zwei' }));
    await expect(apiJson('/backend/x', permissionAnswerSchema)).rejects.toMatchObject({
      status: 200,
      code: 'invalid_response',
    });
  });
});

describe('ApiRequestError', () => {
  it('keeps the fields of an error answer', () => {
    expect(new ApiRequestError(400, 'invalid_input', 'x', { fields: { a: ['b'] } }).fields).toEqual({
      a: ['b'],
    });
  });
});
