/**
 * The sender the signers saw and the colleague who created the envelope. An envelope an API client
 * created names it as `api:<name>`, which is no mailbox: mail to it could only ever fail in the outbox.
 */
export function staffAddresses(envelope: { sender_email: string; created_by: string }): string[] {
  return uniqueByEmail([{ email: envelope.sender_email }, { email: envelope.created_by }])
    .map((p) => p.email)
    .filter((email) => email.includes('@'));
}

/** Each address once, whatever its case; the first entry of an address wins. */
export function uniqueByEmail<T extends { email: string }>(people: T[]): T[] {
  const seen = new Set<string>();
  return people.filter((p) => {
    const key = p.email.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
