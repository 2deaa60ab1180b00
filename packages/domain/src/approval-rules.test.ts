import { describe, expect, it } from 'vitest';
import { addWorkingDays, approvalRulesSchema, DEFAULT_APPROVAL_RULES } from './approval-rules.js';

describe('approvalRulesSchema', () => {
  it('accepts the defaults', () => {
    expect(approvalRulesSchema.parse(DEFAULT_APPROVAL_RULES)).toEqual(DEFAULT_APPROVAL_RULES);
  });

  it('refuses a threshold that is not a percentage, in German', () => {
    for (const threshold of [-1, 101, '15', Number.NaN]) {
      const result = approvalRulesSchema.safeParse({
        ...DEFAULT_APPROVAL_RULES,
        margin: { enabled: true, thresholds: { wm: threshold, we: 15, wp: 15 } },
      });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        'Der Schwellenwert muss ein Prozentsatz zwischen 0 und 100 sein.',
      );
    }
  });

  it('refuses a rule without approvers, unknown document types and doubled deputies', () => {
    const noApprovers = approvalRulesSchema.safeParse({
      ...DEFAULT_APPROVAL_RULES,
      approvers: { order: [], escalationWorkingDays: 2 },
    });
    expect(noApprovers.error?.issues[0]?.message).toBe('Bitte wähle mindestens eine Gruppe, die freigibt.');
    expect(
      approvalRulesSchema.safeParse({ ...DEFAULT_APPROVAL_RULES, documentTypes: ['kuendigung'] }).success,
    ).toBe(false);
    expect(
      approvalRulesSchema.safeParse({
        ...DEFAULT_APPROVAL_RULES,
        deputies: ['a@example.com', 'A@example.com'],
      }).success,
    ).toBe(false);
  });
});

describe('addWorkingDays', () => {
  it('skips weekends', () => {
    // Thursday 2026-11-26 + 2 working days = Monday 2026-11-30.
    expect(addWorkingDays(new Date('2026-11-26T10:00:00Z'), 2).toISOString()).toBe(
      '2026-11-30T10:00:00.000Z',
    );
    // Saturday + 1 = Monday.
    expect(addWorkingDays(new Date('2026-11-28T10:00:00Z'), 1).toISOString()).toBe(
      '2026-11-30T10:00:00.000Z',
    );
  });
});
