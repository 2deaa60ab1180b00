/**
 * Where a worker thread's module is and how to start it: the compiled `.js` beside the compiled caller
 * in production; under Vitest the caller is the TypeScript source, and its worker loads through tsx
 * with the workspace's source condition.
 */
export function siblingWorkerModule(callerUrl: string, baseName: string): URL {
  return new URL(callerUrl.endsWith('.ts') ? `./${baseName}.ts` : `./${baseName}.js`, callerUrl);
}

export function workerStartOptions(module: URL): { filename: string; execArgv?: string[] } {
  if (module.pathname.endsWith('.ts')) {
    return { filename: module.href, execArgv: ['--conditions=source', '--import', 'tsx'] };
  }
  return { filename: module.href };
}
