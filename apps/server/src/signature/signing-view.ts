import type { SignerVerification as SignerVerificationView, SigningView } from '@vertragsgenerator/domain';
import type { EnvelopeWithFileName } from './signing-links.js';
import { SigningInputProblem } from './signing-problems.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What a signer sees behind their link, in the state given. */
export function signingView(
  envelope: EnvelopeWithFileName,
  recipient: { name: string; email: string; role: SigningView['signer']['role'] },
  state: SigningView['state'],
  verification: SignerVerificationView,
): SigningView {
  return {
    subject: envelope.subject,
    message: envelope.message,
    fileName: envelope.file_name,
    documentSha256: envelope.document_sha256,
    sender: { name: envelope.sender_name, email: envelope.sender_email },
    signer: { name: recipient.name, email: recipient.email, role: recipient.role },
    state,
    // The route knows whether LibreOffice can render a PDF here.
    pdfAvailable: false,
    verification,
  };
}

/** The schema checked the data URL's form; the bytes must really be a PNG. */
export function decodePng(dataUrl: string): Buffer {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new SigningInputProblem('Die gezeichnete Unterschrift ist kein PNG-Bild.');
  }
  return bytes;
}
