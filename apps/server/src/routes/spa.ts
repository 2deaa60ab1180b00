import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

const API_PREFIXES = ['/backend', '/idp'];

/**
 * The pages of an e-mail link have an HTML entry of their own each: the signing page
 * (`/unterschreiben#<token>`, apps/web/signing.html) and the counterparty's review page
 * (`/vertragspruefung#<token>`, apps/web/review.html). A signer's or reviewer's phone loads only that
 * page's code, with its files named for preloading in the HTML. The token is in the fragment, which
 * reaches no server.
 */
const LINK_PAGES: ReadonlyArray<{ path: RegExp; html: string }> = [
  { path: /^\/unterschreiben\/?$/, html: 'signing.html' },
  { path: /^\/vertragspruefung\/?$/, html: 'review.html' },
];

/**
 * The built SPA: hashed assets cached for a year, index.html for every other browser navigation
 * (history fallback) but the e-mail links' pages, JSON 404 for unknown API paths. The build writes .br and
 * .gz beside each file (apps/web/vite.config.ts); they are sent as they are, in the encoding the
 * browser accepts.
 */
export const spaRoutes: FastifyPluginAsync<{ webDistDir: string }> = async (app, { webDistDir }) => {
  const hasBuild = existsSync(join(webDistDir, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Reached through the file they compress, never by their own address.
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (res, path) => {
        res.header(
          'cache-control',
          path.includes(`${join(webDistDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ webDistDir }, 'no built SPA found; run `npm run build`');
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    // HEAD as GET, as Fastify answers it for its own routes: uptime probes and link checkers ask with it.
    const navigation = request.method === 'GET' || request.method === 'HEAD';
    if (hasBuild && navigation && !isApi && !/\.[a-z0-9]+$/i.test(path)) {
      const page = LINK_PAGES.find((linkPage) => linkPage.path.test(path))?.html ?? 'index.html';
      return reply.header('cache-control', 'no-cache').sendFile(page);
    }
    return reply.status(404).send({ error: 'not_found', message: 'Diese Adresse gibt es nicht.' });
  });
};
