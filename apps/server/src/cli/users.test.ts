import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { StaffAdministration } from '../admin/staff-administration.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { UsersRepository } from '../users/users-repository.js';
import { runUsersCommand } from './users.js';

describe.each(testDatabases())('npm run users on $name', (database) => {
  let db: Db;
  let users: UsersRepository;
  beforeAll(async () => {
    db = await database.open();
    users = new UsersRepository(db);
    await users.upsert({ email: 'legal@demo.local', name: 'Lena Legal', permission: 2 });
  });
  afterAll(() => db.destroy());

  async function run(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const staff = new StaffAdministration(db, new AuditLog(db), new Set(['boss@firma.de']));
    const code = await runUsersCommand(args, staff, 'cli:tester', {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('lists users with their level', async () => {
    const result = await run('list');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/legal@demo\.local\s+legal\s+Lena Legal/);
  });

  it('sets a level by name, creates unknown users, and keeps names', async () => {
    expect((await run('set', 'Neu.Person@Firma.de', 'leader', '--name', 'Nele Neu')).code).toBe(0);
    expect(await users.find('neu.person@firma.de')).toEqual({
      email: 'neu.person@firma.de',
      name: 'Nele Neu',
      permission: 3,
      administrator: false,
    });
    expect((await run('set', 'legal@demo.local', 'consultant')).code).toBe(0);
    expect(await users.find('legal@demo.local')).toEqual({
      email: 'legal@demo.local',
      name: 'Lena Legal',
      permission: 1,
      administrator: false,
    });
    expect((await run('set', 'legal@demo.local', 'none')).code).toBe(0);
    expect((await users.find('legal@demo.local'))?.permission).toBeNull();
  });

  it('refuses unknown levels and malformed e-mails without changing anything', async () => {
    const before = await users.list();
    const level = await run('set', 'legal@demo.local', 'admin');
    expect(level.code).toBe(1);
    expect(level.err).toMatch(/Unbekannte Stufe "admin"/);
    expect((await run('set', 'kein-mail', 'legal')).err).toMatch(/Ungültige E-Mail/);
    expect(await users.list()).toEqual(before);
  });

  it('removes users and reports unknown ones', async () => {
    expect((await run('remove', 'neu.person@firma.de')).code).toBe(0);
    expect(await users.find('neu.person@firma.de')).toBeUndefined();
    const again = await run('remove', 'neu.person@firma.de');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/Kein Eintrag/);
  });

  it('grants and revokes the administrator capability, never the last one', async () => {
    const granted = await run('admin', 'Legal@demo.local', 'grant');
    expect(granted).toEqual({ code: 0, out: 'legal@demo.local: Administrator:in', err: '' });
    expect((await users.find('legal@demo.local'))?.administrator).toBe(true);
    expect((await run('list')).out).toMatch(/legal@demo\.local\s+\S+\s+admin\s+Lena Legal/);

    expect((await run('admin', 'legal@demo.local', 'revoke')).code).toBe(0);
    expect((await users.find('legal@demo.local'))?.administrator).toBe(false);

    const unknown = await run('admin', 'niemand@demo.local', 'grant');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/Unbekannte E-Mail-Adresse: niemand@demo\.local/);
  });

  it('refuses to remove the capability of someone named in ADMIN_EMAILS', async () => {
    await users.upsert({ email: 'boss@firma.de', name: 'Bea Boss', permission: null, administrator: true });
    const result = await run('admin', 'boss@firma.de', 'revoke');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/ADMIN_EMAILS/);
    expect((await users.find('boss@firma.de'))?.administrator).toBe(true);
  });

  it('writes every change to the audit log with the command-line user as actor', async () => {
    await run('set', 'audit.person@firma.de', 'legal', '--name', 'Anna Audit');
    await run('set', 'audit.person@firma.de', 'leader');
    await run('remove', 'audit.person@firma.de');
    const entries = (await new AuditLog(db).list({ limit: 10 })).filter(
      (e) => e.subject === 'audit.person@firma.de',
    );
    expect(entries.map((e) => [e.actor, e.action, e.oldValue, e.newValue])).toEqual([
      ['cli:tester', 'staff.remove', 'Anna Audit, leader', null],
      ['cli:tester', 'permission.set', 'legal', 'leader'],
      ['cli:tester', 'staff.add', null, 'Anna Audit, legal'],
    ]);
  });

  it('prints the usage for anything else', async () => {
    for (const args of [[], ['drop'], ['set', 'a@b.de'], ['admin', 'a@b.de', 'maybe']]) {
      const result = await run(...args);
      expect(result.code).toBe(1);
      expect(result.err).toContain('npm run users -- list');
    }
  });
});
