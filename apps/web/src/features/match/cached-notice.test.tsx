import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/utils';
import { ageOf, CachedNotice } from './cached-notice';

const NOW = new Date('2027-03-10T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

describe('ageOf', () => {
  it.each([
    [0, 'jetzt'],
    [42, 'vor 42 Sekunden'],
    [60, 'vor 1 Minute'],
    [7 * 60 + 59, 'vor 7 Minuten'],
    [2 * 3600 + 10, 'vor 2 Stunden'],
    [26 * 3600, 'gestern'],
    [3 * 86_400, 'vor 3 Tagen'],
  ])('%i seconds ago reads %s', (seconds, expected) => {
    expect(ageOf(ago(seconds), NOW)).toBe(expected);
  });

  it('reads a fetch time ahead of this clock as now', () => {
    expect(ageOf(new Date(NOW.getTime() + 5_000), NOW)).toBe('jetzt');
  });
});

describe('CachedNotice', () => {
  it('says where the data comes from and how old it is', () => {
    renderWithProviders(<CachedNotice cachedAt="2027-03-10T11:53:00.000Z" now={NOW} />);
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('Aus dem Zwischenspeicher – Stand vor 7 Minuten');
    expect(notice).toHaveTextContent('Das CRM ist gerade nicht erreichbar');
  });
});
