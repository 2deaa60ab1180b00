import type { ConnectMessage } from './docusign-api/connect-message.js';
import { docusignApi } from './docusign-api/docusign-api.js';

/** A signer as DocuSign lists it in a Connect message's envelope summary ("Include Recipients" on). */
export interface SummarySigner {
  recipientId: string;
  name: string;
  email: string;
  /** Set for a recipient of ours or of a server template; absent for one the sender added in DocuSign. */
  roleName?: string;
}

/**
 * The Connect message with the envelope's signers in its envelope summary, as DocuSign sends it when
 * the Connect configuration includes recipients. The summary is checked against DocuSign's `envelope`
 * definition, so a test cannot post recipients DocuSign would never send.
 */
export function withSigners(message: ConnectMessage, signers: readonly SummarySigner[]): ConnectMessage {
  const envelopeSummary = {
    ...message.data.envelopeSummary,
    recipients: {
      signers: signers.map((signer, index) => ({
        ...signer,
        routingOrder: String(index + 1),
        status: 'sent',
      })),
      recipientCount: String(signers.length),
    },
  };
  const problems = docusignApi().checkDefinition('envelope', envelopeSummary);
  if (problems.length > 0) throw new Error(`not an envelope summary DocuSign sends: ${problems.join('; ')}`);
  return { ...message, data: { ...message.data, envelopeSummary } };
}
