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

/**
 * What the sender view's actions answer for a lapsed envelope: the rule that deleted its document ended
 * it, and what is left to do is said here.
 */
export const LAPSED_ENVELOPE =
  'Dieser Umschlag ist verfallen: Eine Aufbewahrungsregel hat sein Dokument gelöscht, damit ist er beendet. Versenden, Verwerfen, Erinnern und neue Links gibt es für ihn nicht mehr. Für einen neuen Versand erzeuge das Dokument neu; wer darin genannt ist, lässt sich unter Verwaltung → Personendaten löschen.';

/** The sender view was asked for something the envelope's state does not allow (409). */
export class EnvelopeStateProblem extends Error {
  override name = 'EnvelopeStateProblem';
}

/** Signer input the schema cannot judge (400). */
export class SigningInputProblem extends Error {
  override name = 'SigningInputProblem';
}
