import type { EnvelopesRepository, Executor } from './envelopes-repository.js';
import { EnvelopeStateProblem } from './signing-problems.js';

/**
 * What the sender view does for one signer (`Link erneuern`, `Erinnern`) needs the envelope locked and
 * still sent, and the signer invited and not answered yet; otherwise it is refused with a reason that
 * ends in `nothingToDo` („es gibt keinen neuen Link").
 */
export async function lockWaitingSigner(
  envelopes: EnvelopesRepository,
  { envelopeId, recipientId }: { envelopeId: string; recipientId: string },
  trx: Executor,
  nothingToDo: string,
) {
  const envelope = await envelopes.withFileName(envelopeId, trx, { lock: true });
  if (envelope.status !== 'sent') {
    throw new EnvelopeStateProblem(`Dieser Umschlag ist nicht mehr offen: ${nothingToDo}.`);
  }
  // Found among the envelope's recipients: an id that is none (not even a UUID) is just not there.
  const recipient = (await envelopes.recipients(envelopeId, trx)).find((r) => r.id === recipientId);
  if (!recipient) throw new EnvelopeStateProblem('Diese Person steht nicht in diesem Umschlag.');
  if (recipient.status !== 'sent' && recipient.status !== 'opened') {
    throw new EnvelopeStateProblem(
      `${recipient.name} ist nicht eingeladen oder hat schon geantwortet: ${nothingToDo}.`,
    );
  }
  return { envelope, recipient };
}
