import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

describe.each(testDatabases())('retention rules and legal holds on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    db = await database.open();
    const { configDir } = loadConfig({}, '0');
    const match = await richestDemoMatch(join(configDir, 'demo-matches.json'));
    await new MatchStore(db).upsertMany([{ ...match, matchId: 'PL-4711' }]);
    t = await createTestApp(db, { demoStaff: true });
    admin = await t.signIn('ops@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(admin), ...(payload ? { payload } : {}) });

  it('lists the default rules, the audit log never deleted', async () => {
    const response = await call('GET', '/backend/admin/retention');
    expect(response.statusCode, response.body).toBe(200);
    const { rules } = response.json();
    const periods = Object.fromEntries(
      rules.map((r: { rule: string; period: unknown }) => [r.rule, r.period]),
    );
    expect(periods).toEqual({
      failed_generations: { value: 30, unit: 'days' },
      envelope_drafts: { value: 90, unit: 'days' },
      ended_envelopes: { value: 6, unit: 'months' },
      generated_documents: { value: 6, unit: 'years' },
      completed_contracts: { value: 10, unit: 'years' },
      support_reports: { value: 1, unit: 'years' },
      mails: { value: 30, unit: 'days' },
      webhook_deliveries: { value: 90, unit: 'days' },
      crm_writebacks: { value: 90, unit: 'days' },
      audit_log: null,
    });
  });

  it.each([
    [{ value: -5, unit: 'days' }, 'Die Aufbewahrungsdauer muss mindestens 1 sein.'],
    [{ value: 0, unit: 'months' }, 'Die Aufbewahrungsdauer muss mindestens 1 sein.'],
    [{ value: 500, unit: 'years' }, 'Diese Aufbewahrungsdauer ist unplausibel lang (höchstens 30 Jahre).'],
    [{ value: 1.5, unit: 'years' }, 'Bitte gib die Aufbewahrungsdauer als ganze Zahl an.'],
    [{ value: 3, unit: 'weeks' }, 'Bitte wähle Tage, Monate oder Jahre.'],
  ])('refuses the period %j in German and changes nothing', async (period, message) => {
    const response = await call('PUT', '/backend/admin/retention/mails', { period });
    expect(response.statusCode, response.body).toBe(400);
    expect(Object.values(response.json().fields).flat()).toContain(message);
    const rules = (await call('GET', '/backend/admin/retention')).json().rules;
    expect(rules.find((r: { rule: string }) => r.rule === 'mails').period).toEqual({
      value: 30,
      unit: 'days',
    });
  });

  it('refuses an unknown rule and a period for the audit log', async () => {
    const unknown = await call('PUT', '/backend/admin/retention/alles', {
      period: { value: 1, unit: 'days' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields.rule).toEqual(['Diese Aufbewahrungsregel gibt es nicht.']);
    const audit = await call('PUT', '/backend/admin/retention/audit_log', {
      period: { value: 1, unit: 'days' },
    });
    expect(audit.statusCode).toBe(409);
    expect(audit.json().message).toMatch(/Audit-Log wird nie/);
  });

  it('changes a rule with an audit entry', async () => {
    const response = await call('PUT', '/backend/admin/retention/support_reports', {
      period: { value: 2, unit: 'years' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const entry = await db
      .selectFrom('audit_entries')
      .selectAll()
      .where('action', '=', 'retention.rule.set')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor: 'ops@demo.local', old_value: '1 Jahr', new_value: '2 Jahre' });
  });

  it('refuses a hold on a match that does not exist, and places and lifts one that does', async () => {
    const unknown = await call('POST', '/backend/admin/legal-holds', {
      matchId: 'PL-999999',
      reason: 'Prüfung',
    });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json().message).toBe(
      'Das Match PL-999999 gibt es nicht: eine Sperre braucht ein bestehendes Match.',
    );
    const noReason = await call('POST', '/backend/admin/legal-holds', { matchId: 'PL-4711', reason: '' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields.reason).toEqual(['Bitte gib einen Grund an (mindestens 3 Zeichen).']);

    const placed = await call('POST', '/backend/admin/legal-holds', {
      matchId: 'PL-4711',
      reason: 'Rechtsstreit',
    });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json()).toMatchObject({
      matchId: 'PL-4711',
      reason: 'Rechtsstreit',
      placedBy: 'ops@demo.local',
    });
    const twice = await call('POST', '/backend/admin/legal-holds', { matchId: 'PL-4711', reason: 'Nochmal' });
    expect(twice.statusCode).toBe(409);

    const lifted = await call('POST', `/backend/admin/legal-holds/${placed.json().id}/lift`);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json()).toMatchObject({ liftedBy: 'ops@demo.local' });
    const again = await call('POST', `/backend/admin/legal-holds/${placed.json().id}/lift`);
    expect(again.statusCode).toBe(404);
  });
});
