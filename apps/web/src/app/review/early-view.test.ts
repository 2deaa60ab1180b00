import { REVIEW_TOKEN_HEADER } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch } from '@/test/utils';
import { askForReviewView } from './early-view';

const TOKEN = 'cmV2aWV3LWxpbmstdG9rZW4tMTIzNDU2';

describe('askForReviewView', () => {
  it('asks as the page’s API client does: the token in its header, never in the URL, without credentials', async () => {
    const fetchMock = stubFetch(jsonResponse(200, {}));
    await askForReviewView(TOKEN);

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/backend/review');
    expect(String(url)).not.toContain(TOKEN);
    const headers = new Headers(init?.headers);
    expect(headers.get(REVIEW_TOKEN_HEADER)).toBe(TOKEN);
    expect(headers.has('Authorization')).toBe(false);
    expect(init?.credentials).toBe('omit');
  });
});
