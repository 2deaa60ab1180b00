/** Kalender abonnieren: a user's personal subscribe link to the deadlines of their contracts. */
export { CalendarFeedControl } from './calendar-feed-control';
