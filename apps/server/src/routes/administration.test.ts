import type { StaffEntry } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const OPS = 'ops@demo.local';
const NEU = 'neu@demo.local';

/**
 * /verwaltung through the API: a request for access from /login, its grant or refusal with the mails,
 * the staff list with its guards against lost access and lost updates, and the audit log. Who may call
 * these routes at all is the access matrix's part.
 */
describe.each(testDatabases())('Team-Operations on $name', (database) => {
  let db: Db;
  let t: TestApp;
  const tokens = new Map<string, string>();

  async function token(email: string) {
    const known = tokens.get(email);
    if (known) return known;
    const fresh = await t.signIn(email);
    tokens.set(email, fresh);
    return fresh;
  }
  async function call(
    email: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) {
    return t.app.inject({
      method,
      url,
      headers: bearer(await token(email)),
      ...(payload ? { payload } : {}),
    });
  }
  async function mailsTo(to: string, count = 1) {
    for (let i = 0; i < 150 && t.mailer.sent.filter((m) => m.to === to).length < count; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    return t.mailer.sent.filter((m) => m.to === to);
  }
  async function staffEntry(email: string): Promise<StaffEntry> {
    const response = await call(OPS, 'GET', `/backend/admin/staff?search=${encodeURIComponent(email)}`);
    const entry = (response.json() as StaffEntry[]).find((e) => e.email === email);
    if (!entry) throw new Error(`${email} not in the staff list`);
    return entry;
  }

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true, env: { ADMIN_EMAILS: 'chefin@demo.local' } });
  });
  beforeEach(() => {
    t.mailer.sent.length = 0;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  describe('access requests', () => {
    it('stores a request once, mails every administrator, and shows it as open', async () => {
      expect((await call(NEU, 'GET', '/backend/access-requests/own')).json()).toEqual({ request: null });

      const first = await call(NEU, 'POST', '/backend/access-requests', {
        message: 'Ich bin neu im Legal-Team.',
      });
      expect(first.statusCode, first.body).toBe(200);
      const { request } = first.json() as { request: { requestedAt: string; status: string } };
      expect(request).toMatchObject({ status: 'open', reason: null });

      const again = await call(NEU, 'POST', '/backend/access-requests', {});
      expect(again.json()).toEqual(first.json());

      const [toOps] = await mailsTo(OPS);
      expect(toOps?.subject).toBe('[Vertragsgenerator] Zugangsanfrage von Nina Neu');
      expect(toOps?.text).toContain('Ich bin neu im Legal-Team.');
      expect(toOps?.replyTo).toBe(NEU);
      expect(await mailsTo('chefin@demo.local')).toHaveLength(1);
      // The second click mailed nobody.
      await new Promise((r) => setTimeout(r, 100));
      expect(t.mailer.sent.filter((m) => m.to === OPS)).toHaveLength(1);

      const open = (await call(OPS, 'GET', '/backend/admin/access-requests')).json();
      expect(open).toEqual([
        {
          id: expect.any(String),
          email: NEU,
          name: 'Nina Neu',
          message: 'Ich bin neu im Legal-Team.',
          requestedAt: request.requestedAt,
        },
      ]);
    });

    it('refuses a request from someone who has a level already', async () => {
      const response = await call('berater@demo.local', 'POST', '/backend/access-requests', {});
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('Du hast bereits Zugang zum Vertragsgenerator.');
    });

    it('grants a level that applies to the next request, mails the requester, and decides only once', async () => {
      const [open] = (await call(OPS, 'GET', '/backend/admin/access-requests')).json() as { id: string }[];
      const grant = await call(OPS, 'POST', `/backend/admin/access-requests/${open?.id}/grant`, {
        permission: 2,
      });
      expect(grant.statusCode, grant.body).toBe(200);

      const verified = await call(NEU, 'POST', '/backend/private/verifyUser', {});
      expect(verified.json()).toMatchObject({ email: NEU, permission: 2, administrator: false });
      const [mail] = await mailsTo(NEU);
      expect(mail?.subject).toBe('[Vertragsgenerator] Dein Zugang ist freigegeben');
      expect(mail?.text).toContain('Legal (2)');
      expect((await call(NEU, 'GET', '/backend/access-requests/own')).json()).toMatchObject({
        request: { status: 'granted' },
      });
      expect((await call(OPS, 'GET', '/backend/admin/access-requests')).json()).toEqual([]);

      const twice = await call(OPS, 'POST', `/backend/admin/access-requests/${open?.id}/decline`, {
        reason: 'Doch nicht.',
      });
      expect(twice.statusCode).toBe(409);
      expect((await call(NEU, 'POST', '/backend/private/verifyUser', {})).json().permission).toBe(2);

      const missing = await call(OPS, 'POST', '/backend/admin/access-requests/999999/grant', {
        permission: 1,
      });
      expect(missing.statusCode).toBe(404);
      const notAnId = await call(OPS, 'POST', '/backend/admin/access-requests/abc/grant', { permission: 1 });
      expect(notAnId.statusCode).toBe(404);
    });

    it('declines with a reason the requester reads, who may then ask again', async () => {
      const greta = 'greta.groenewold@demo.local';
      await call(greta, 'POST', '/backend/access-requests', {});
      const [open] = (await call(OPS, 'GET', '/backend/admin/access-requests')).json() as { id: string }[];
      const noReason = await call(OPS, 'POST', `/backend/admin/access-requests/${open?.id}/decline`, {
        reason: '  ',
      });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json().fields).toEqual({ reason: ['Bitte einen Grund angeben.'] });

      const declined = await call(OPS, 'POST', `/backend/admin/access-requests/${open?.id}/decline`, {
        reason: 'Bitte über die Teamleitung anfragen.',
      });
      expect(declined.statusCode).toBe(200);
      expect((await mailsTo(greta))[0]?.text).toContain('Begründung: Bitte über die Teamleitung anfragen.');
      expect((await call(greta, 'GET', '/backend/access-requests/own')).json()).toMatchObject({
        request: { status: 'declined', reason: 'Bitte über die Teamleitung anfragen.' },
      });
      expect((await call(greta, 'POST', '/backend/private/verifyUser', {})).json().permission).toBeNull();

      const again = await call(greta, 'POST', '/backend/access-requests', {});
      expect(again.json()).toMatchObject({ request: { status: 'open' } });
    });

    it('mails ACCESS_REQUEST_EMAIL instead of the administrators where it is set', async () => {
      const mailbox = await createTestApp(db, { env: { ACCESS_REQUEST_EMAIL: 'Team-Ops@Firma.de' } });
      try {
        const token = await mailbox.signIn('fremd@firma.de', 'Frank Fremd');
        const response = await mailbox.app.inject({
          method: 'POST',
          url: '/backend/access-requests',
          headers: bearer(token),
          payload: {},
        });
        expect(response.statusCode, response.body).toBe(200);
        for (let i = 0; i < 150 && mailbox.mailer.sent.length === 0; i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        expect(mailbox.mailer.sent.map((m) => m.to)).toEqual(['team-ops@firma.de']);
        expect(mailbox.mailer.sent[0]?.text).toContain('Ohne Nachricht.');
      } finally {
        await mailbox.app.close();
      }
    });
  });

  describe('staff', () => {
    it('lists everyone with level, administrator and last sign-in, searchable', async () => {
      const all = (await call(OPS, 'GET', '/backend/admin/staff')).json() as StaffEntry[];
      expect(all.find((e) => e.email === OPS)).toMatchObject({
        name: 'Olga Operations',
        permission: null,
        administrator: true,
        administratorByConfiguration: false,
        lastSignInAt: expect.any(String),
      });
      expect(all.find((e) => e.email === 'anna.albrecht@demo.local')?.lastSignInAt).toBeNull();
      const found = (await call(OPS, 'GET', '/backend/admin/staff?search=GRÖNEW')).json() as StaffEntry[];
      expect(found.map((e) => e.email)).toEqual(['greta.groenewold@demo.local']);
      const wildcard = (await call(OPS, 'GET', '/backend/admin/staff?search=%25')).json();
      expect(wildcard).toEqual([]);
    });

    it('adds a colleague who then appears in the sender and CC list, once', async () => {
      const added = await call(OPS, 'POST', '/backend/admin/staff', {
        name: 'Paula Pohl',
        email: 'Paula.Pohl@demo.local',
        permission: 1,
      });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json()).toMatchObject({
        email: 'paula.pohl@demo.local',
        permission: 1,
        lastSignInAt: null,
      });
      const directory = (await call('berater@demo.local', 'GET', '/backend/users')).json();
      expect(directory).toContainEqual({ Name: 'Paula Pohl', Email: 'paula.pohl@demo.local' });

      const twice = await call(OPS, 'POST', '/backend/admin/staff', {
        name: 'Paula Pohl',
        email: 'paula.pohl@demo.local',
        permission: 2,
      });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().fields).toEqual({ email: ['Diese E-Mail-Adresse ist schon eingetragen.'] });

      const bad = await call(OPS, 'POST', '/backend/admin/staff', {
        name: '<script>alert(1)</script>',
        email: 'keine-adresse',
        permission: 7,
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().fields).sort()).toEqual(['email', 'name', 'permission']);
    });

    it('changes a level for the next request and refuses a change made on an outdated list', async () => {
      const berater = await token('berater@demo.local');
      const entry = await staffEntry('berater@demo.local');
      const changed = await call(OPS, 'PUT', '/backend/admin/staff/berater@demo.local', {
        permission: 3,
        version: entry.version,
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const verify = await t.app.inject({
        method: 'POST',
        url: '/backend/private/verifyUser',
        headers: bearer(berater),
        payload: {},
      });
      expect(verify.json().permission).toBe(3);

      const stale = await call(OPS, 'PUT', '/backend/admin/staff/berater@demo.local', {
        permission: 2,
        version: entry.version,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().message).toMatch(/inzwischen von jemand anderem geändert/);
      expect((await staffEntry('berater@demo.local')).permission).toBe(3);

      const unknown = await call(OPS, 'PUT', '/backend/admin/staff/niemand@demo.local', {
        permission: 1,
        version: '1',
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('Unbekannte E-Mail-Adresse: niemand@demo.local.');
      const noLevel = await call(OPS, 'PUT', '/backend/admin/staff/berater@demo.local', {
        permission: 4,
        version: '1',
      });
      expect(noLevel.statusCode).toBe(400);
      expect(noLevel.json().fields).toHaveProperty('permission');
    });

    it('lets only one of two administrators change the same person at once', async () => {
      await call(OPS, 'PUT', '/backend/admin/staff/leitung@demo.local', {
        administrator: true,
        version: (await staffEntry('leitung@demo.local')).version,
      });
      const { version } = await staffEntry('anna.albrecht@demo.local');
      const answers = await Promise.all([
        call(OPS, 'PUT', '/backend/admin/staff/anna.albrecht@demo.local', { permission: 2, version }),
        call('leitung@demo.local', 'PUT', '/backend/admin/staff/anna.albrecht@demo.local', {
          permission: 3,
          version,
        }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.statusCode === 200)?.json() as StaffEntry;
      expect((await staffEntry('anna.albrecht@demo.local')).permission).toBe(winner.permission);
    });

    it('keeps the last administrator and those of ADMIN_EMAILS', async () => {
      const leitung = await staffEntry('leitung@demo.local');
      expect(
        (
          await call(OPS, 'PUT', '/backend/admin/staff/leitung@demo.local', {
            administrator: false,
            version: leitung.version,
          })
        ).statusCode,
      ).toBe(200);
      // ops@ is the only administrator of the database now; chefin@ of ADMIN_EMAILS stays one too.
      const ops = await staffEntry(OPS);
      const self = await call(OPS, 'PUT', `/backend/admin/staff/${OPS}`, {
        administrator: false,
        version: ops.version,
      });
      expect(self.statusCode, self.body).toBe(200);
      expect((await call(OPS, 'GET', '/backend/admin/staff')).statusCode).toBe(403);

      await t.users.upsert({ email: 'chefin@demo.local', name: 'Clara Chefin', permission: null });
      const chefin = await token('chefin@demo.local');
      const configured = await t.app.inject({
        method: 'PUT',
        url: '/backend/admin/staff/chefin@demo.local',
        headers: bearer(chefin),
        payload: { administrator: false, version: '1' },
      });
      expect(configured.statusCode).toBe(409);
      expect(configured.json().message).toMatch(/ADMIN_EMAILS/);
      const removed = await t.app.inject({
        method: 'DELETE',
        url: '/backend/admin/staff/chefin@demo.local',
        headers: bearer(chefin),
      });
      expect(removed.statusCode).toBe(409);
    });

    it('refuses to take away the last administrator without ADMIN_EMAILS', async () => {
      const lone = await createTestApp(db, {});
      try {
        await lone.users.upsert({
          email: 'solo@demo.local',
          name: 'Solo',
          permission: null,
          administrator: true,
        });
        for (const email of ['ops@demo.local', 'leitung@demo.local', 'chefin@demo.local']) {
          await db.updateTable('users').set({ administrator: false }).where('email', '=', email).execute();
        }
        const solo = await lone.signIn('solo@demo.local');
        const revoke = await lone.app.inject({
          method: 'PUT',
          url: '/backend/admin/staff/solo@demo.local',
          headers: bearer(solo),
          payload: { administrator: false, version: '1' },
        });
        expect(revoke.statusCode).toBe(409);
        expect(revoke.json()).toMatchObject({
          error: 'last_administrator',
          fields: { administrator: expect.any(Array) },
        });
        const remove = await lone.app.inject({
          method: 'DELETE',
          url: '/backend/admin/staff/solo@demo.local',
          headers: bearer(solo),
        });
        expect(remove.statusCode).toBe(409);
        expect((await lone.users.find('solo@demo.local'))?.administrator).toBe(true);
      } finally {
        await lone.app.close();
      }
    });
  });

  describe('audit log', () => {
    it('lists every change newest first, with who, whom, old and new value, page by page', async () => {
      const chefin = await token('chefin@demo.local');
      const page = async (query: string) =>
        (
          await t.app.inject({ method: 'GET', url: `/backend/admin/audit${query}`, headers: bearer(chefin) })
        ).json() as {
          entries: { id: string; actor: string; action: string; subject: string }[];
          next?: string;
        };
      const first = await page('?limit=3');
      expect(first.entries).toHaveLength(3);
      expect(first.entries[0]).toMatchObject({ actor: OPS, action: 'administrator.revoke', subject: OPS });
      const second = await page(`?limit=3&before=${first.next}`);
      expect(Number(second.entries[0]?.id)).toBeLessThan(Number(first.entries[2]?.id));
      const all = await page('?limit=200');
      expect(all.next).toBeUndefined();
      expect(all.entries.map((e) => e.action)).toEqual(
        expect.arrayContaining(['access.grant', 'access.decline', 'staff.add', 'permission.set']),
      );
      expect(all.entries.find((e) => e.action === 'access.grant')).toMatchObject({
        subject: NEU,
        oldValue: 'none',
        newValue: 'legal',
      });
      expect(
        (await t.app.inject({ method: 'GET', url: '/backend/admin/audit?before=x', headers: bearer(chefin) }))
          .statusCode,
      ).toBe(400);
    });
  });
});
