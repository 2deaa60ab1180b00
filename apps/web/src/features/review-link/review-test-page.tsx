import { expect } from 'vitest';
import { expectHeadingsInOrder, expectNoSeriousViolations } from '@/test/axe';
import { docxWithParagraphs } from '@/test/docx';
import { renderWithProviders, type stubApi } from '@/test/utils';
import { ReviewPage } from './review-page';
import { LINK_TOKEN } from './test-fixtures';

// What the review page's tests share: the page as a reviewer opens it from the link in their mail, with a
// query cache of its own per test (app/review/review-app.test.tsx renders it in the entry's app).

export const VIEW = 'GET /backend/review';
export const DOCUMENT = 'GET /backend/review/document';
export const CODE = 'POST /backend/review/code';
export const VERIFY = 'POST /backend/review/verify';
export const COMMENTS = 'POST /backend/review/comments';
export const RETURN = 'POST /backend/review/return';

/** The contract the document route answers: two paragraphs the page shows as text. */
export const CONTRACT_PARAGRAPHS = ['§ 1 Gegenstand des Vertrags', '§ 2 Die Vergütung beträgt 1.000 Euro.'];

export async function contractResponse(): Promise<Response> {
  const docx = await docxWithParagraphs(CONTRACT_PARAGRAPHS);
  return new Response(await docx.arrayBuffer(), {
    status: 200,
    headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  });
}

export function renderReview(token = LINK_TOKEN) {
  return renderWithProviders(<ReviewPage token={token} />);
}

/** Every request carried the link token in its header, never in the URL, and no staff credentials. */
export function expectReviewerRequests(fetchMock: ReturnType<typeof stubApi>['fetchMock']) {
  expect(fetchMock).toHaveBeenCalled();
  for (const [url, init] of fetchMock.mock.calls) {
    const headers = new Headers(init?.headers);
    expect(headers.get('x-review-token')).toBe(LINK_TOKEN);
    expect(headers.has('Authorization')).toBe(false);
    expect(init?.credentials).toBe('omit');
    expect(String(url)).not.toContain(LINK_TOKEN);
  }
}

/** The calls of the view itself (`VIEW` is a prefix of the document's path too). */
export function viewCalls(api: ReturnType<typeof stubApi>) {
  return api.callsTo(VIEW).filter(({ url }) => url === '/backend/review');
}

/** What every state of the review page must be: no serious axe finding, headings in order. */
export async function expectAccessible(root: Element = document.body): Promise<void> {
  await expectNoSeriousViolations(root);
  expectHeadingsInOrder(root);
}
