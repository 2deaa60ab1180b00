import { limitHeapGrowth } from './heap-growth.js';
import { BUNDLE_ENTRY, bundleState } from './server-bundle.js';

limitHeapGrowth();

/** Entry point: the server from its bundle while that is current, else from the compiled modules. */
const bundle = bundleState();
const { serve, isExplained }: typeof import('./serve.js') = await import(
  bundle === 'current' ? BUNDLE_ENTRY : './serve.js'
);
serve({ bundle }).catch((error: unknown) => {
  console.error(isExplained(error) ? (error as Error).message : error);
  process.exit(1);
});
