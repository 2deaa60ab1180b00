import type { SigningLinkError } from '@vertragsgenerator/domain';

/** What the signing steps refuse; the routes answer each with its status and German text. */

/** A signer link that cannot be used; the route answers with the code's status and this German text. */
export class SigningLinkProblem extends Error {
  override name = 'SigningLinkProblem';
  constructor(
    readonly code: SigningLinkError,
    message: string,
  ) {
    super(message);
  }
}

/** The sender view was asked for something the envelope's state does not allow (409). */
export class EnvelopeStateProblem extends Error {
  override name = 'EnvelopeStateProblem';
}

/** Signer input the schema cannot judge (400). */
export class SigningInputProblem extends Error {
  override name = 'SigningInputProblem';
}
