import { render, screen, within } from '@testing-library/react';
import type { ResolvedMatch } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app/providers';
import { fakeAuthService, testConfig } from '@/test/utils';
import { MatchTable } from './match-table';

/** What a CRM field may carry when someone typed markup into it, on purpose or by pasting. */
const SCRIPT = '<script>alert(1)</script> & <w:t>';
const IMAGE = '<img src=x onerror="window.hacked=1">';
const CDATA_END = ']]> <![CDATA[ x';

const match: ResolvedMatch = {
  matchId: 'PL-66666',
  candidateFirstName: SCRIPT,
  candidateLastName: CDATA_END,
  kunde: IMAGE,
  position: '<b>fett</b>',
  // Over 40 characters: shown in the wide layout, a different element than the narrow rows.
  aufgabenbeschreibung: `${SCRIPT} ${'Weiterentwicklung der Plattform '.repeat(2)}`,
};

function renderTable() {
  render(
    <AppProviders config={testConfig} auth={fakeAuthService()} env="test">
      <MatchTable match={match} hintedFields={new Set()} />
    </AppProviders>,
  );
  return screen.getByRole('table', { name: 'Match PL-66666' });
}

describe('match table with markup in match fields', () => {
  it('shows the markup as text and creates no element from it', () => {
    const table = renderTable();
    expect(within(table).getByText(`${SCRIPT} ${CDATA_END}`)).toBeInTheDocument();
    expect(within(table).getByText(IMAGE)).toBeInTheDocument();
    expect(within(table).getByText('<b>fett</b>')).toBeInTheDocument();
    expect(
      within(table).getByText(match.aufgabenbeschreibung as string, { normalizer: (s) => s }),
    ).toBeInTheDocument();
    expect(document.querySelector('script')).toBeNull();
    expect(table.querySelector('img, b, w\\:t')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });
});
