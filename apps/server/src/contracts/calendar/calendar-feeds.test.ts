import { randomUUID } from 'node:crypto';
import type { CalendarFeedCreated, CalendarFeedState, ContractKind } from '@vertragsgenerator/domain';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { testDatabases } from '../../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.js';
import { addDaysIso, todayIso } from '../contract-queries.js';

/** The test app's PUBLIC_URL: its default for the port. */
const PUBLIC_URL = 'http://localhost:8080';

interface ParsedEvent {
  uid: string;
  summary: string;
  start: string;
  allDay: boolean;
  url: string;
  description: string;
}

/** The feed as a calendar application reads it: ical.js, Thunderbird's parser. */
function parsed(text: string): ParsedEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar
    .getAllSubcomponents('vevent')
    .map((component) => {
      const event = new ICAL.Event(component);
      return {
        uid: event.uid,
        summary: event.summary,
        start: event.startDate.toString(),
        allDay: event.startDate.isDate,
        url: String(component.getFirstPropertyValue('url')),
        description: event.description,
      };
    })
    .sort((a, b) => a.uid.localeCompare(b.uid));
}

let matches = 20_000;

describe.each(testDatabases())('the calendar feed of contract deadlines on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let anna: string;
  let legal: string;
  let leader: string;
  let admin: string;
  const today = todayIso(new Date());
  const day = (offset: number) => addDaysIso(today, offset);

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
    [anna, legal, leader, admin] = await Promise.all([
      t.signIn('anna.albrecht@demo.local', 'Anna Albrecht'),
      t.signIn('legal@demo.local'),
      t.signIn('leitung@demo.local'),
      t.signIn('ops@demo.local'),
    ]);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  async function record(input: {
    consultant: string;
    end: string | null;
    notice: string | null;
    kind?: ContractKind;
    counterparty?: string;
  }): Promise<{ id: string; matchId: string }> {
    const matchId = `PL-${++matches}`;
    const row = await db
      .insertInto('contract_records')
      .values({
        source_kind: 'signed_elsewhere',
        envelope_id: null,
        document_id: randomUUID(),
        document_version: 1,
        match_id: matchId,
        doc_key: 'de-wm-k-ev-1',
        kind: input.kind ?? 'einzelauftrag',
        company: 'wm',
        partner_type: 'k',
        language: 'de',
        counterparty: input.counterparty ?? 'Elbwerk Logistik AG',
        customer: input.counterparty ?? 'Elbwerk Logistik AG',
        consultant: input.consultant,
        parties: JSON.stringify([]),
        terms_source: 'document',
        start_date: '2026-01-01',
        end_date: input.end,
        notice_text: '3 Monate zum Quartalsende',
        notice_rule_source: 'read',
        last_notice_day: input.notice,
        signed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, matchId };
  }

  const call = (method: 'GET' | 'POST' | 'DELETE', token: string) =>
    t.app.inject({ method, url: '/backend/contracts/calendar-feed', headers: bearer(token) });
  const subscribe = async (token: string): Promise<CalendarFeedCreated> => {
    const response = await call('POST', token);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  /** Fetches a subscribe link as a calendar application does: no sign-in. */
  const fetchFeed = (url: string) => t.app.inject({ method: 'GET', url: url.slice(PUBLIC_URL.length) });

  it('answers each user the deadlines of the contracts they may see, as all-day events with stable ids and a link back', async () => {
    const own = await record({ consultant: 'Anna Albrecht', notice: day(20), end: day(48) });
    const others = await record({ consultant: 'Bernd Brinkmann', notice: null, end: day(100) });
    const farAway = await record({ consultant: 'Anna Albrecht', notice: day(800), end: day(900) });
    const longPast = await record({ consultant: 'Anna Albrecht', notice: day(-60), end: day(-31) });
    const recentlyEnded = await record({ consultant: 'Anna Albrecht', notice: day(-40), end: day(-30) });
    const terminated = await record({ consultant: 'Anna Albrecht', notice: day(10), end: day(30) });
    const termination = await record({
      consultant: 'Anna Albrecht',
      kind: 'kuendigung',
      notice: null,
      end: day(30),
    });
    await db
      .updateTable('contract_records')
      .set({ terminated_by: termination.id })
      .where('id', '=', terminated.id)
      .execute();
    await db
      .updateTable('contract_records')
      .set({ parent_id: terminated.id, relation: 'ends' })
      .where('id', '=', termination.id)
      .execute();

    expect((await call('GET', anna)).json()).toEqual({ exists: false, createdAt: null });
    const { url, createdAt } = await subscribe(anna);
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/backend/calendar/vgcal_[A-Za-z0-9_-]{43}\\.ics$`));
    expect((await call('GET', anna)).json()).toEqual({ exists: true, createdAt } satisfies CalendarFeedState);
    const stored = await db.selectFrom('calendar_feeds').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(url.split('/').at(-1)?.replace('.ics', ''));

    const response = await fetchFeed(url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const host = new URL(PUBLIC_URL).host;
    const events = parsed(response.body);
    expect(events).toEqual(
      [
        {
          uid: `${own.id}-end@${host}`,
          summary: `Vertragsende: ${own.matchId} Elbwerk Logistik AG`,
          start: day(48),
          allDay: true,
          url: `${PUBLIC_URL}/vertraege/${own.id}`,
          description: expect.stringContaining(`Zum Vertrag: ${PUBLIC_URL}/vertraege/${own.id}`),
        },
        {
          uid: `${own.id}-notice@${host}`,
          summary: `Kündigungsfrist: ${own.matchId} Elbwerk Logistik AG`,
          start: day(20),
          allDay: true,
          url: `${PUBLIC_URL}/vertraege/${own.id}`,
          description: expect.stringContaining('Kündigungsfrist laut Vertrag: 3 Monate zum Quartalsende'),
        },
        {
          uid: `${recentlyEnded.id}-end@${host}`,
          summary: `Vertragsende: ${recentlyEnded.matchId} Elbwerk Logistik AG`,
          start: day(-30),
          allDay: true,
          url: `${PUBLIC_URL}/vertraege/${recentlyEnded.id}`,
          description: expect.any(String),
        },
      ].sort((a, b) => a.uid.localeCompare(b.uid)),
    );
    for (const hidden of [others, farAway, longPast, terminated, termination])
      expect(response.body).not.toContain(hidden.id);

    // Fetched again, the same events with the same ids: a calendar updates them instead of adding.
    expect(parsed((await fetchFeed(url)).body).map((e) => e.uid)).toEqual(events.map((e) => e.uid));

    // Legal staff and leaders see every contract's deadlines.
    for (const token of [legal, leader]) {
      const all = parsed((await fetchFeed((await subscribe(token)).url)).body).map((e) => e.uid);
      expect(all).toContain(`${others.id}-end@${host}`);
      expect(all).toContain(`${own.id}-notice@${host}`);
      expect(all).not.toContain(`${terminated.id}-notice@${host}`);
    }
  });

  it('a new link replaces the old one, a revoked or forged link is 404 with a German message', async () => {
    const first = await subscribe(anna);
    const second = await subscribe(anna);
    expect(second.url).not.toBe(first.url);
    const replaced = await fetchFeed(first.url);
    expect(replaced.statusCode).toBe(404);
    expect(replaced.json()).toEqual({
      error: 'not_found',
      message:
        'Diesen Kalender gibt es nicht (mehr). Erstelle unter Verträge einen neuen Link zum Abonnieren.',
    });
    expect((await fetchFeed(second.url)).statusCode).toBe(200);

    const revoked = await call('DELETE', anna);
    expect(revoked.statusCode).toBe(200);
    expect((await call('GET', anna)).json()).toEqual({ exists: false, createdAt: null });
    expect((await fetchFeed(second.url)).statusCode).toBe(404);
    expect((await call('DELETE', anna)).statusCode).toBe(200);

    for (const path of [
      `/backend/calendar/vgcal_${'A'.repeat(43)}.ics`,
      `/backend/calendar/${second.url.split('/').at(-1)?.replace('.ics', '')}`,
      '/backend/calendar/vgcal_kurz.ics',
      `/backend/calendar/${encodeURIComponent("' OR 1=1--")}.ics`,
    ]) {
      const forged = await t.app.inject({ method: 'GET', url: path });
      expect(forged.statusCode, path).toBe(404);
      expect(forged.json(), path).toMatchObject({ error: 'not_found' });
    }
  });

  it('a link stops working when its owner leaves the staff directory or loses their level', async () => {
    const { url } = await subscribe(legal);
    await db.updateTable('users').set({ permission: null }).where('email', '=', 'legal@demo.local').execute();
    expect((await fetchFeed(url)).statusCode).toBe(404);
    await db.updateTable('users').set({ permission: 2 }).where('email', '=', 'legal@demo.local').execute();
    expect((await fetchFeed(url)).statusCode).toBe(200);
    await db.deleteFrom('sessions').where('email', '=', 'legal@demo.local').execute();
    await db.deleteFrom('users').where('email', '=', 'legal@demo.local').execute();
    expect((await fetchFeed(url)).statusCode).toBe(404);
    expect(await db.selectFrom('calendar_feeds').select('user_email').execute()).not.toContainEqual({
      user_email: 'legal@demo.local',
    });
  });

  it('is for staff with a level, not for an administrator without one', async () => {
    expect((await call('POST', admin)).statusCode).toBe(403);
  });
});
