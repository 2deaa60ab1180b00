import { CalendarFeedControl } from '@/features/calendar-feed';
import { ContractsPage } from '@/features/contracts';

/** /vertraege: the running contracts, and under them the subscription to their deadlines as a calendar. */
export function ContractsWithCalendarPage() {
  return <ContractsPage below={<CalendarFeedControl />} />;
}
