import type { ApprovalRules } from '@vertragsgenerator/domain';
import { expect } from 'vitest';
import { bearer, type TestApp } from './test-app.js';

/** Changes some approval rules as `token`'s user, the others kept as they are; the test fails if refused. */
export async function changeApprovalRules(
  t: TestApp,
  token: string,
  change: Partial<ApprovalRules>,
): Promise<void> {
  const current = (
    await t.app.inject({ method: 'GET', url: '/backend/approval-rules', headers: bearer(token) })
  ).json();
  const rules = await t.app.inject({
    method: 'PUT',
    url: '/backend/approval-rules',
    headers: bearer(token),
    payload: { rules: { ...current.rules, ...change }, version: current.version },
  });
  expect(rules.statusCode, rules.body).toBe(200);
}
