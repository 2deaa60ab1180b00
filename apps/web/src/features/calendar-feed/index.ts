export { CalendarFeedControl } from './calendar-feed-control';
