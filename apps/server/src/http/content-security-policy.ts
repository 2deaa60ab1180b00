import type { Config } from '../config/config.js';

/** Strict enough that no injected script runs; loose enough for Mantine's inline styles and sign-in. */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const issuerOrigin = config.oidc.externalIssuer ? new URL(config.oidc.externalIssuer).origin : undefined;
  const external = issuerOrigin ? [issuerOrigin] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    // External providers keep their token endpoint on other hosts (Google: oauth2.googleapis.com);
    // with Google Docs as editor the browser uploads to Drive itself.
    connectSrc: [
      "'self'",
      ...(issuerOrigin ? ['https:'] : []),
      ...(config.editor === 'google' ? [new URL(config.googleDriveApiUrl).origin] : []),
    ],
    // blob: frames and workers: the signing pages show a document fetched with credentials as a blob.
    frameSrc: ["'self'", 'blob:', ...external],
    workerSrc: ["'self'", 'blob:'],
    formAction: ["'self'", ...external],
    frameAncestors: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    ...(config.publicUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
  };
}
