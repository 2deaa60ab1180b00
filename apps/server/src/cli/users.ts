import {
  isPermissionLevel,
  PERMISSION_NAMES,
  type PermissionLevel,
  permissionName,
} from '@vertragsgenerator/domain';
import { AuditLog } from '../admin/audit-log.js';
import { StaffAdministration } from '../admin/staff-administration.js';
import { HttpError } from '../shared/http-error.js';
import { runCommandLineTool } from './command-line.js';
import type { CliOutput, CommandLineTool } from './tool.js';

const USAGE = `Verwendung:
  npm run users -- list
  npm run users -- set <email> <consultant|legal|leader|none> [--name "Vor- und Nachname"]
  npm run users -- admin <email> <grant|revoke>
  npm run users -- remove <email>`;

/**
 * Manages permission levels and the administrator capability (docs/architecture.md#permissions), with the
 * same checks and audit entries as /verwaltung; `actor` names the operating-system user in the audit log.
 * Returns the process exit code.
 */
export async function runUsersCommand(
  args: string[],
  staff: StaffAdministration,
  actor: string,
  io: CliOutput,
): Promise<number> {
  try {
    return await usersCommand(args, staff, actor, io);
  } catch (error) {
    // The refusals of the administration (unknown e-mail, last administrator, …) in their own words.
    if (error instanceof HttpError) return fail(io, error.message);
    throw error;
  }
}

async function usersCommand(
  args: string[],
  staff: StaffAdministration,
  actor: string,
  io: CliOutput,
): Promise<number> {
  const [command, email, value, ...rest] = args;
  if (command === 'list' && args.length === 1) {
    const members = await staff.list();
    for (const m of members) {
      const level = m.permission ? permissionName(m.permission) : 'none';
      io.out(
        `${m.email.padEnd(36)} ${level.padEnd(11)} ${(m.administrator ? 'admin' : '').padEnd(6)}${m.name}`,
      );
    }
    io.out(`${members.length} Einträge`);
    return 0;
  }
  if (command === 'set' && email && value) {
    if (!isEmail(email)) return fail(io, `Ungültige E-Mail-Adresse: ${email}`);
    const permission = parseLevel(value);
    if (permission === undefined)
      return fail(io, `Unbekannte Stufe "${value}". Erlaubt: consultant, legal, leader, none.`);
    const nameIndex = rest.indexOf('--name');
    const name = nameIndex >= 0 ? rest[nameIndex + 1]?.trim() : undefined;
    if (nameIndex >= 0 && !name) return fail(io, '--name braucht einen Namen.');
    if (await staff.find(email)) {
      await staff.change(actor, email, { permission, ...(name ? { name } : {}) });
    } else {
      await staff.add(actor, { email, name: name ?? email.toLowerCase(), permission });
    }
    io.out(`${email.toLowerCase()}: ${permission ? permissionName(permission) : 'none'}`);
    return 0;
  }
  if (command === 'admin' && email && (value === 'grant' || value === 'revoke') && args.length === 3) {
    if (!isEmail(email)) return fail(io, `Ungültige E-Mail-Adresse: ${email}`);
    await staff.change(actor, email, { administrator: value === 'grant' });
    io.out(
      `${email.toLowerCase()}: ${value === 'grant' ? 'Administrator:in' : 'keine Administrator:in mehr'}`,
    );
    return 0;
  }
  if (command === 'remove' && email && args.length === 2) {
    if (!(await staff.find(email))) return fail(io, `Kein Eintrag für ${email}.`);
    await staff.remove(actor, email);
    io.out(`${email.toLowerCase()} entfernt`);
    return 0;
  }
  return fail(io, USAGE);
}

function isEmail(text: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
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

export const usersTool: CommandLineTool = {
  name: 'users',
  files: () => [],
  run: (args, { db, actor, administrators }, io) =>
    runUsersCommand(args, new StaffAdministration(db, new AuditLog(db), administrators), actor, io),
};

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(await runCommandLineTool(usersTool, process.argv.slice(2)));
}
