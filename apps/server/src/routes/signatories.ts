import type { Signatory, SignatoryOption } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { AuthGuards } from '../auth/guards.js';

/** The people the offer and termination forms offer as `selectedPerson` (config/signatories.json). */
export const signatoryRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  signatories: readonly Signatory[];
}> = async (app, { guards, signatories }) => {
  // The forms only name the person; their e-mail address stays on the server.
  const options = signatories.map(
    ({ id, name, function: role }): SignatoryOption => ({
      id,
      name,
      function: role,
    }),
  );
  app.get('/backend/signatories', { preHandler: guards.session('staff') }, async () => options);
};
