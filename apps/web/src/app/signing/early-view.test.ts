import { SIGNING_TOKEN_HEADER } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/test/utils';
import { askForSigningView } from './early-view';

const TOKEN = 'Zk9vYmFyLXRva2VuLTEyMzQ1Njc4OTA';

describe('askForSigningView', () => {
  it('asks as the page’s API client does: the token in its header, never in the URL, without credentials', async () => {
    const fetchMock = stubFetch(jsonResponse(200, {}));
    await askForSigningView(TOKEN);

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/backend/signing');
    const headers = new Headers(init?.headers);
    expect(headers.get(SIGNING_TOKEN_HEADER)).toBe(TOKEN);
    expect(headers.has('Authorization')).toBe(false);
    expect(init?.credentials).toBe('omit');
  });
});
