import { askForLinkView } from '../link-page/early-view';

/**
 * `REVIEW_TOKEN_HEADER` of the domain package, whose module would bring zod and the review schemas into
 * the entry's first few kilobytes (early-view.test.ts holds the two alike).
 */
const TOKEN_HEADER = 'x-review-token';

/** The reviewer's view of their link (`GET /backend/review`), as features/review-link/review-api.ts asks. */
export function askForReviewView(token: string): Promise<Response> {
  return askForLinkView('/backend/review', TOKEN_HEADER, token);
}
