import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

const serverDist = join(root, 'apps/server/dist');

/**
 * A module of the compiled server (apps/server/dist), as production runs it. `npm run bench` builds
 * first; `node bench/run.mjs` alone uses whatever the last `npm run build` left.
 */
export async function importServer(path) {
  const file = join(serverDist, path);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: run \`npm run build\` first (\`npm run bench\` does).`);
  }
  return import(file);
}

/** `require` as the server resolves its dependencies: the same pizzip and docxtemplater it renders with. */
export const serverRequire = createRequire(join(root, 'apps/server/package.json'));

/** The installed version of a package, as `require` resolves it. */
export function packageVersion(name, require = serverRequire) {
  let folder = dirname(require.resolve(name));
  while (folder !== dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      if (pkg.name === name) return pkg.version;
    }
    folder = dirname(folder);
  }
  return 'unknown';
}
