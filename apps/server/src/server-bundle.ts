import { readFileSync, statSync } from 'node:fs';

/**
 * The server's bundle, made by `npm run build` after the modules are compiled
 * (scripts/bundle-server.mjs): a few files instead of some 2,000 modules, whose resolving, reading and
 * compiling one by one took most of a restart. A build of the modules alone (`tsc -b`) leaves it
 * older than they are: then it is outdated, and the modules run instead.
 */
export type BundleState = 'current' | 'outdated' | 'none';

/** Its entry, relative to this module: what serve.ts is in the modules. */
export const BUNDLE_ENTRY = './bundle/serve.js';

/** Written by the bundling: when it started, and the compiled modules it read. */
const BUNDLE_INPUTS = new URL('./bundle/inputs.json', import.meta.url);

export function bundleState(): BundleState {
  let inputs: { builtAt: number; modules: string[] };
  try {
    inputs = JSON.parse(readFileSync(BUNDLE_INPUTS, 'utf8'));
  } catch {
    return 'none';
  }
  // About 300 stat calls: a few milliseconds, where loading those modules took over a second.
  const changed = inputs.modules.some((module) => {
    const stat = statSync(new URL(module, BUNDLE_INPUTS), { throwIfNoEntry: false });
    return !stat || stat.mtimeMs > inputs.builtAt;
  });
  return changed ? 'outdated' : 'current';
}
