import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@/lib/api';
import { jsonResponse } from '@/test/utils';
import { signingViewOf } from './signing-api';
import { signingView } from './test-fixtures';

describe('signingViewOf: the view in the answer the page’s entry asked for early', () => {
  it('reads the view', async () => {
    await expect(signingViewOf(Promise.resolve(jsonResponse(200, signingView)))).resolves.toEqual(
      signingView,
    );
  });

  it('fails with the server’s error, as the page’s own request would', async () => {
    const refused = jsonResponse(410, { error: 'link_expired', message: 'Der Link ist abgelaufen.' });
    const error = await signingViewOf(Promise.resolve(refused)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 410, code: 'link_expired', message: 'Der Link ist abgelaufen.' });
  });

  it('fails as unreachable when the request did not get through', async () => {
    const error = await signingViewOf(Promise.reject(new TypeError('Failed to fetch'))).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ status: 0, code: 'network_error' });
  });

  it('fails on an answer that is not a view', async () => {
    const error = await signingViewOf(Promise.resolve(jsonResponse(200, { subject: 1 }))).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'invalid_response' });
  });
});
