import { askForLinkView } from '../link-page/early-view';

/**
 * `SIGNING_TOKEN_HEADER` of the domain package, whose module would bring zod and the signing schemas into
 * the entry's first few kilobytes (early-view.test.ts holds the two alike).
 */
const TOKEN_HEADER = 'x-signing-token';

/** The signer's view of their link (`GET /backend/signing`), as features/signature/signing-api.ts asks. */
export function askForSigningView(token: string): Promise<Response> {
  return askForLinkView('/backend/signing', TOKEN_HEADER, token);
}
