import { describe, expect, it } from 'vitest';
import { createQueryClient } from '@/components/page-providers';
import { jsonResponse, stubApi } from '@/test/utils';
import { reviewDocumentKey, reviewQueryOptions } from './review-api';
import { preloadReviewPage } from './review-preload';
import { contractResponse, DOCUMENT, VIEW, viewCalls } from './review-test-page';
import { LINK_TOKEN, reviewerView, unverifiedView } from './test-fixtures';

describe('preloadReviewPage', () => {
  it('takes the view from the entry’s early answer and fetches the contract behind a confirmed code', async () => {
    const api = stubApi({ [DOCUMENT]: await contractResponse() });
    const queryClient = createQueryClient();
    await preloadReviewPage(queryClient, LINK_TOKEN, Promise.resolve(jsonResponse(200, reviewerView)));

    expect(queryClient.getQueryData(reviewQueryOptions(LINK_TOKEN).queryKey)).toEqual(reviewerView);
    expect(viewCalls(api)).toEqual([]);
    await expect
      .poll(() =>
        queryClient.getQueryData(['document-viewer', reviewDocumentKey(LINK_TOKEN, reviewerView), false]),
      )
      .toBeInstanceOf(Blob);
    expect(api.callsTo(DOCUMENT)).toHaveLength(1);
  });

  it('asks for nothing more before the code is confirmed, and nothing at all without a token', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, unverifiedView) });
    const queryClient = createQueryClient();
    await preloadReviewPage(queryClient, LINK_TOKEN);
    expect(viewCalls(api)).toHaveLength(1);
    expect(api.callsTo(DOCUMENT)).toEqual([]);

    await preloadReviewPage(createQueryClient(), '');
    expect(api.fetchMock).toHaveBeenCalledTimes(1);
  });
});
