import type { FastifyInstance, FastifyRequest } from 'fastify';
import { docusignApi } from './docusign-api.js';

/**
 * Makes a DocuSign fake hold every REST request to DocuSign's API description before its handler
 * sees it: a request that does not conform is answered 400 as DocuSign answers a malformed request,
 * and noted in the returned list. The fake's own successful JSON answers are checked as well, so the
 * fake cannot drift from what DocuSign answers; `scripted` names the requests a test answers itself
 * (queued failures), which are left alone. Must be installed before the routes.
 */
export function checkAgainstDescription(
  app: FastifyInstance,
  scripted: (request: FastifyRequest) => boolean,
): string[] {
  const api = docusignApi();
  const violations: string[] = [];
  const operationOf = new WeakMap<FastifyRequest, string>();

  app.addHook('preHandler', async (request, reply) => {
    const url = new URL(request.url, 'http://docusign.invalid');
    if (!url.pathname.startsWith(`${api.basePath}/`)) return;
    const { operationId, problems } = api.checkRequest({
      method: request.method,
      path: url.pathname.slice(api.basePath.length),
      query: url.searchParams,
      contentType: request.headers['content-type'],
      accept: request.headers.accept,
      body: request.body ?? undefined,
    });
    if (operationId) operationOf.set(request, operationId);
    if (problems.length === 0) return;
    violations.push(...problems.map((problem) => `${request.method} ${url.pathname}: ${problem}`));
    return reply.status(400).send({
      errorCode: problems.some((problem) => problem.startsWith('body'))
        ? 'INVALID_REQUEST_BODY'
        : 'INVALID_REQUEST_PARAMETER',
      message: `The request does not conform to the eSignature REST API description: ${problems.join('; ')}`,
    });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const operationId = operationOf.get(request);
    if (!operationId || scripted(request) || reply.statusCode >= 300) return payload;
    const body = typeof payload === 'string' ? JSON.parse(payload) : payload;
    const problems = api.checkResponse(operationId, reply.statusCode, body);
    if (problems.length > 0) {
      violations.push(...problems.map((problem) => `answer of ${operationId}: ${problem}`));
      throw new Error(`The fake answers unlike DocuSign: ${problems.join('; ')}`);
    }
    return payload;
  });

  return violations;
}
