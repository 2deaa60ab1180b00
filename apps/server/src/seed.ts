import { readFile } from 'node:fs/promises';
import { isPermissionLevel } from '@vertragsgenerator/domain';
import { z } from 'zod';
import type { IdpAccounts } from './idp/accounts.js';
import type { UsersRepository } from './users/users-repository.js';

const demoUsersSchema = z.array(
  z.object({
    email: z.string().email(),
    name: z.string().min(1),
    permission: z.number().int().nullable(),
    /** Team-Operations (docs/architecture.md#permissions). */
    administrator: z.boolean().optional(),
    /** Only the demo accounts sign in; colleagues are directory entries for sender and CC lists. */
    password: z.string().min(1).optional(),
  }),
);

/**
 * Fills an empty database with the demo accounts and colleagues of config/demo-users.json.
 * Runs only on a database without users, so permissions changed with `npm run users` survive restarts.
 */
export async function seedDemoUsers(
  file: string,
  users: UsersRepository,
  accounts?: IdpAccounts,
): Promise<boolean> {
  if (!(await users.isEmpty())) return false;
  const entries = demoUsersSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  for (const entry of entries) {
    await users.upsert({
      email: entry.email,
      name: entry.name,
      permission: isPermissionLevel(entry.permission) ? entry.permission : null,
      administrator: entry.administrator ?? false,
    });
    if (entry.password && accounts)
      await accounts.upsert({ email: entry.email, name: entry.name }, entry.password);
  }
  return true;
}
