/**
 * Whether a person's recorded address is a mailbox. What an API client did names it as `api:<name>`,
 * which is none: mail to it could only ever fail in the outbox.
 */
export function isMailbox(address: string): boolean {
  return address.includes('@');
}

/** The sender the signers saw and the colleague who created the envelope, where each is a mailbox. */
export function staffAddresses(envelope: { sender_email: string; created_by: string }): string[] {
  return uniqueByEmail([{ email: envelope.sender_email }, { email: envelope.created_by }])
    .map((p) => p.email)
    .filter(isMailbox);
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
