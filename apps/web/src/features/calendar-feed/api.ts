import { queryOptions } from '@tanstack/react-query';
import {
  type CalendarFeedCreated,
  type CalendarFeedState,
  calendarFeedCreatedSchema,
  calendarFeedStateSchema,
} from '@vertragsgenerator/domain';
import { z } from 'zod';
import { apiJson } from '@/lib/api';

const FEED = '/backend/contracts/calendar-feed';

export const calendarFeedQueryOptions = queryOptions({
  queryKey: ['calendar-feed'],
  queryFn: (): Promise<CalendarFeedState> => apiJson(FEED, calendarFeedStateSchema),
});

/** A new subscribe link (the old one stops working); its URL is answered only now. */
export function createCalendarFeed(): Promise<CalendarFeedCreated> {
  return apiJson(FEED, calendarFeedCreatedSchema, { method: 'POST' });
}

export async function revokeCalendarFeed(): Promise<void> {
  await apiJson(FEED, z.object({ ok: z.literal(true) }), { method: 'DELETE' });
}
