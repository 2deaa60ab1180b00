import type { SigningCodeError } from '@vertragsgenerator/domain';

/** What the code step refuses; the signing routes answer with the code's status and this German text. */
export class SignerVerificationProblem extends Error {
  override name = 'SignerVerificationProblem';
  constructor(
    readonly code: SigningCodeError,
    message: string,
  ) {
    super(message);
  }
}
