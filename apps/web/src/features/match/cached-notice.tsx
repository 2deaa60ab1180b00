import { Alert, Text } from '@mantine/core';
import { texts } from '@/texts';

const relativeTime = new Intl.RelativeTimeFormat('de', { numeric: 'auto' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** How long ago `then` was, in the largest whole unit: `vor 7 Minuten`, `vor 2 Stunden`, `gestern`. */
export function ageOf(then: Date, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return relativeTime.format(-Math.floor(seconds / size), unit);
  }
  return relativeTime.format(-seconds, 'second');
}

/**
 * Says that the match is the CRM's record as last fetched, because the CRM could not answer: the user
 * must know the data may lack recent corrections before generating a contract from it.
 */
export function CachedNotice({ cachedAt, now = new Date() }: { cachedAt: string; now?: Date }) {
  return (
    <Alert color="blue" title={texts.match.cachedTitle(ageOf(new Date(cachedAt), now))} role="status">
      <Text size="sm">{texts.match.cachedHelp}</Text>
    </Alert>
  );
}
