import { calendarFeedCreatedSchema, calendarFeedStateSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type CalendarFeeds, FEED_NOT_FOUND } from '../contracts/calendar/calendar-feeds.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { acknowledged, BEARER, errorAnswers, PUBLIC } from '../http/openapi.js';
import { notFound } from '../shared/http-error.js';

export interface ContractCalendarRoutesDeps {
  guards: AuthGuards;
  feeds: CalendarFeeds;
  now: () => Date;
  /** The limit of the routes a stranger can call. */
  rateLimit: { max: number; timeWindow: string };
}

const CALENDAR_MIME = 'text/calendar; charset=utf-8';

const feedParams = z.object({
  file: z.string().describe('The subscribe token followed by `.ics`, as the link made for the user names it'),
});

/**
 * The personal calendar of contract deadlines: a user makes, reads and revokes their own subscribe
 * link (a person's, never an API client's); the feed itself is public, for calendar applications that
 * cannot sign in, and authorised by the secret token in its path.
 */
export const contractCalendarRoutes: FastifyPluginAsync<ContractCalendarRoutesDeps> = async (app, deps) => {
  const { guards, feeds } = deps;
  const own = guards.session('staff', { personsOnly: true });
  const common = { tags: ['contracts'], security: BEARER };

  app.get(
    '/backend/contracts/calendar-feed',
    {
      preHandler: own,
      schema: {
        ...common,
        summary: 'Whether the user has a calendar subscribe link, and since when',
        response: { 200: calendarFeedStateSchema, ...errorAnswers([401, 403]) },
      },
    },
    async (request) => feeds.state(currentUser(request)),
  );

  app.post(
    '/backend/contracts/calendar-feed',
    {
      preHandler: own,
      schema: {
        ...common,
        summary: 'Make a new calendar subscribe link; an older one stops working',
        description:
          'The link is answered this once: only its SHA-256 is kept. Subscribe to it in Outlook or Google Calendar.',
        response: {
          201: calendarFeedCreatedSchema.describe('The subscribe link (shown once)'),
          ...errorAnswers([401, 403]),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await feeds.create(currentUser(request), deps.now())),
  );

  app.delete(
    '/backend/contracts/calendar-feed',
    {
      preHandler: own,
      schema: {
        ...common,
        summary: 'Revoke the user’s calendar subscribe link',
        response: { 200: acknowledged, ...errorAnswers([401, 403]) },
      },
    },
    async (request) => {
      await feeds.revoke(currentUser(request));
      return { ok: true as const };
    },
  );

  app.get<{ Params: { file: string } }>(
    '/backend/calendar/:file',
    {
      config: { rateLimit: deps.rateLimit },
      // The token is in the path, which the request log names: only warnings and errors are logged here.
      logLevel: 'warn',
      schema: {
        tags: ['contracts'],
        summary: 'The calendar of contract deadlines behind a subscribe link (iCalendar)',
        description:
          'All-day events on each last day to give notice and each end of the contracts the link’s owner may see, from 30 days ago to two years ahead. No sign-in: the secret token in the path authorises.',
        security: PUBLIC,
        params: feedParams,
        response: {
          200: { description: 'The calendar', content: { [CALENDAR_MIME]: { schema: z.string() } } },
          ...errorAnswers([404, 429], { 404: 'A token that is malformed, unknown or revoked' }),
        },
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      if (!file.endsWith('.ics')) throw notFound(FEED_NOT_FOUND);
      const calendar = await feeds.feed(file.slice(0, -'.ics'.length), deps.now());
      return reply
        .header('content-type', CALENDAR_MIME)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', 'inline; filename="vertragsfristen.ics"')
        .send(calendar);
    },
  );
};
