import { describe, expect, it } from 'vitest';
import { declineBodySchema } from './approvals.js';

describe('declineBodySchema', () => {
  it('needs a reason', () => {
    expect(declineBodySchema.safeParse({ reason: '  ' }).error?.issues[0]?.message).toBe(
      'Bitte gib einen Grund für die Ablehnung an.',
    );
    expect(declineBodySchema.safeParse({}).error?.issues[0]?.message).toBe(
      'Bitte gib einen Grund für die Ablehnung an.',
    );
  });
});
