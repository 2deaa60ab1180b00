import {
  isPermissionLevel,
  PERMISSION_NAMES,
  type PermissionLevel,
  permissionName,
} from '@vertragsgenerator/domain';
import { UsersRepository } from '../users/users-repository.js';
import { withDatabase } from './database.js';

const USAGE = `Verwendung:
  npm run users -- list
  npm run users -- set <email> <consultant|legal|leader|none> [--name "Vor- und Nachname"]
  npm run users -- remove <email>`;

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** Manages permission levels (DESIGN §6). Returns the process exit code. */
export async function runUsersCommand(
  args: string[],
  users: UsersRepository,
  io: CliOutput,
): Promise<number> {
  const [command, email, level, ...rest] = args;
  if (command === 'list' && args.length === 1) {
    const members = await users.list();
    for (const m of members) {
      io.out(
        `${m.email.padEnd(36)} ${(m.permission ? permissionName(m.permission) : 'none').padEnd(11)} ${m.name}`,
      );
    }
    io.out(`${members.length} Einträge`);
    return 0;
  }
  if (command === 'set' && email && level) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return fail(io, `Ungültige E-Mail-Adresse: ${email}`);
    const permission = parseLevel(level);
    if (permission === undefined)
      return fail(io, `Unbekannte Stufe "${level}". Erlaubt: consultant, legal, leader, none.`);
    const nameIndex = rest.indexOf('--name');
    const name = nameIndex >= 0 ? rest[nameIndex + 1]?.trim() : undefined;
    if (nameIndex >= 0 && !name) return fail(io, '--name braucht einen Namen.');
    const existing = await users.find(email);
    await users.upsert({ email, name: name ?? existing?.name ?? email, permission });
    io.out(`${email.toLowerCase()}: ${permission ? permissionName(permission) : 'none'}`);
    return 0;
  }
  if (command === 'remove' && email && args.length === 2) {
    if (!(await users.remove(email))) return fail(io, `Kein Eintrag für ${email}.`);
    io.out(`${email.toLowerCase()} entfernt`);
    return 0;
  }
  return fail(io, USAGE);
}

function parseLevel(level: string): PermissionLevel | null | undefined {
  if (level === 'none') return null;
  const byName = PERMISSION_NAMES[level as keyof typeof PERMISSION_NAMES];
  if (byName) return byName;
  const byNumber = Number(level);
  return isPermissionLevel(byNumber) ? byNumber : undefined;
}

function fail(io: CliOutput, message: string): number {
  io.err(message);
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const code = await withDatabase((db) =>
    runUsersCommand(process.argv.slice(2), new UsersRepository(db), {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    }),
  );
  process.exit(code);
}
