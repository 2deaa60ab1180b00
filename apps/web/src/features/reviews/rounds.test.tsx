import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Review, ReviewRound } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '@/test/axe';
import { jsonResponse, stubApi } from '@/test/utils';
import {
  API,
  deletion,
  insertion,
  karl,
  kim,
  noDifferences,
  renderPanel,
  returnedRound,
  review,
  sentRound,
} from './test-fixtures';

const ENVELOPE_ID = '33333333-3333-4333-8333-333333333333';

/** Round 1 returned with every suggestion decided: the negotiation may go on or end. */
const settledRound: ReviewRound = {
  ...returnedRound,
  suggestions: [
    { ...insertion, outcome: 'accepted', decidedBy: 'Lena Legal', decidedAt: '2026-11-23T09:00:00Z' },
    { ...deletion, outcome: 'rejected', decidedBy: 'Lena Legal', decidedAt: '2026-11-23T09:01:00Z' },
  ],
  reviewers: [karl, { ...kim, withdrawnAt: '2026-11-22T08:00:00Z' }],
};
const settled = (extra: Partial<Review> = {}) => review({ rounds: [settledRound], ...extra });

const round = (number: number) =>
  within(
    screen.getByRole('heading', { level: 4, name: `Runde ${number}` }).closest('section') as HTMLElement,
  );

describe('NegotiationPanel: the rounds', () => {
  it('shows each round newest first: state, version with its SHA-256, who sent it when, the due date and the links', async () => {
    const secondRound: ReviewRound = {
      ...sentRound,
      id: '00000000-0000-4000-8000-000000000399',
      number: 2,
      sentVersion: 4,
      sentSha256: 'cafe00112233'.padEnd(64, '2'),
      dueDate: '2026-12-11',
      message: '',
      reviewers: [{ ...karl, openedAt: null, linkExpiresAt: '2020-01-01T00:00:00Z' }],
    };
    stubApi({
      [API.review]: jsonResponse(200, {
        review: review({ rounds: [settledRound, secondRound] }),
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    const headings = await screen.findAllByRole('heading', { level: 4, name: /^Runde \d$/ });
    expect(headings.map((heading) => heading.textContent)).toEqual(['Runde 2', 'Runde 1']);

    expect(round(2).getByText('Gesendet')).toBeInTheDocument();
    expect(
      round(2).getByText(/^Gesendet von Lena Legal am 21\.11\.2026 08:30 · Version 4 · SHA-256/),
    ).toBeInTheDocument();
    expect(round(2).getByText('cafe00112233…')).toBeInTheDocument();
    expect(round(2).getByText('Antwort bis 11.12.2026')).toBeInTheDocument();
    expect(
      round(2).getByText('Noch nicht geöffnet · Link abgelaufen am 01.01.2020 01:00'),
    ).toBeInTheDocument();
    // Only the round that is out has links to renew or withdraw.
    expect(round(2).getByRole('button', { name: 'Link erneuern für Karl Kunde' })).toBeInTheDocument();
    expect(round(1).queryByRole('button', { name: /^Link erneuern/ })).not.toBeInTheDocument();

    expect(round(1).getByText('Zurückgesendet')).toBeInTheDocument();
    expect(round(1).getByText('Bitte prüfen Sie den Vertrag bis Ende der Woche.')).toBeInTheDocument();
    expect(
      round(1).getByText(
        /^Zurückgesendet von Karl Kunde am 22\.11\.2026 12:00 · Änderungen im Browser vorgeschlagen · Zurück als Version 3/,
      ),
    ).toBeInTheDocument();
    expect(round(1).getByText('98fe76dc54ba…')).toBeInTheDocument();
    expect(round(1).getByText('2 Vorschläge · 1 angenommen · 1 abgelehnt')).toBeInTheDocument();
    const people = within(round(1).getByRole('list', { name: 'Personen der Runde 1' }));
    expect(
      people.getByText('Geöffnet am 21.11.2026 09:00 · Link gültig bis 20.12.2099 10:00'),
    ).toBeInTheDocument();
    expect(people.getByText('Link zurückgezogen am 22.11.2026 09:00')).toBeInTheDocument();
    await expectNoSeriousViolations();
  });

  it('renews a reviewer’s link, and withdraws one only after a confirmation', async () => {
    const withdrawn = review({
      rounds: [{ ...sentRound, reviewers: [karl, { ...kim, withdrawnAt: '2026-11-23T10:00:00Z' }] }],
    });
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: review(), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.renew(karl.id)]: jsonResponse(200, review()),
      [API.withdrawLink(kim.id)]: jsonResponse(200, withdrawn),
    });
    renderPanel();
    expect(
      await screen.findByText('Die Gegenseite prüft Runde 1; Antwort bis 04.12.2026.'),
    ).toBeInTheDocument();
    expect(
      round(1).getByText(
        'Noch nicht geöffnet · Erinnert am 26.11.2026 07:00 · Link gültig bis 20.12.2099 10:00',
      ),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Link erneuern für Karl Kunde' }));
    expect(
      await screen.findByText('Ein neuer Link ist an karl@elbwerk.de unterwegs; der alte gilt nicht mehr.'),
    ).toBeInTheDocument();
    expect(api.callsTo(API.renew(karl.id))).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Link zurückziehen für Kim Kundin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link von Kim Kundin zurückziehen?' });
    // The focus starts on „Abbrechen“: Enter does not withdraw by accident.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Abbrechen' })).toHaveFocus());
    expect(api.callsTo(API.withdrawLink(kim.id))).toHaveLength(0);
    await expectNoSeriousViolations();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Link zurückziehen' }));
    expect(await round(1).findByText('Link zurückgezogen am 23.11.2026 11:00')).toBeInTheDocument();
    expect(api.callsTo(API.withdrawLink(kim.id))).toHaveLength(1);
    expect(
      screen.queryByRole('button', { name: 'Link zurückziehen für Kim Kundin' }),
    ).not.toBeInTheDocument();
  });

  it('offers the next round and the agreement only once the round is back and every suggestion decided', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: review({ rounds: [returnedRound] }), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    expect(
      await screen.findByText(
        'Entscheide erst über die 2 offenen Vorschläge; dann kannst du die nächste Runde senden oder die Fassung vereinbaren.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nächste Runde senden' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Als vereinbart abschließen' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verhandlung beenden' })).toBeInTheDocument();
  });

  it('sends the next round to the last round’s people still invited, in one click and a prefilled form', async () => {
    const next: ReviewRound = {
      ...sentRound,
      id: '00000000-0000-4000-8000-000000000398',
      number: 2,
      reviewers: [karl],
    };
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: settled(), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.rounds]: jsonResponse(201, review({ rounds: [settledRound, next] })),
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Nächste Runde senden' }));
    const form = screen.getByRole('form', { name: 'Runde 2 an die Gegenseite' });
    // Kim's link was withdrawn: she is not asked again unless added by hand.
    expect(within(form).getAllByRole('group', { name: /^Person \d$/ })).toHaveLength(1);
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('Karl Kunde');
    expect(within(form).getByRole('textbox', { name: 'E-Mail-Adresse' })).toHaveValue('karl@elbwerk.de');
    await userEvent.type(
      within(form).getByRole('textbox', { name: 'Nachricht an die Gegenseite' }),
      'Runde zwei.',
    );
    await userEvent.type(within(form).getByLabelText(/^Antwort bis/), '2099-12-11');
    await userEvent.click(within(form).getByRole('button', { name: 'Nächste Runde senden' }));

    expect(await screen.findByText('Runde 2 ist gesendet: Die Links sind unterwegs.')).toBeInTheDocument();
    expect(api.callsTo(API.rounds).map((call) => call.body)).toEqual([
      {
        reviewers: [{ name: 'Karl Kunde', email: 'karl@elbwerk.de' }],
        message: 'Runde zwei.',
        dueDate: '2099-12-11',
      },
    ]);
    expect(screen.getByRole('heading', { level: 4, name: 'Runde 2' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Runde 2 an die Gegenseite' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Verhandlung' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Nächste Runde senden' })).not.toBeInTheDocument();
  });

  it('agrees and, where the document has an envelope draft, goes on to its sender view', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, {
        review: settled({ envelopeId: ENVELOPE_ID }),
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.agree]: jsonResponse(200, {
        review: settled({
          state: 'agreed',
          envelopeId: ENVELOPE_ID,
          agreedAt: '2026-11-24T09:00:00Z',
          agreedBy: 'Lena Legal',
          agreedVersion: 5,
        }),
        envelopeId: ENVELOPE_ID,
      }),
    });
    const { router } = renderPanel({ version: 5 });
    expect(await screen.findByText(/^Alle Vorschläge sind entschieden/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Als vereinbart abschließen' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Zur Unterschrift senden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fassung vereinbaren' });
    expect(
      within(dialog).getByText(
        'Version 5 wird die vereinbarte Fassung. Die Links der Gegenseite enden. Danach öffnet sich der Umschlag, mit dem sie zur Unterschrift geht.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo(API.agree)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Zur Unterschrift senden' }));

    expect(await screen.findByText('Umschlag zur Unterschrift')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/signatur/${ENVELOPE_ID}`);
    expect(api.callsTo(API.agree)).toHaveLength(1);
  });

  it('without an envelope draft closes the negotiation as agreed and stays', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: settled(), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.agree]: jsonResponse(200, {
        review: settled({
          state: 'agreed',
          agreedAt: '2026-11-24T09:00:00Z',
          agreedBy: 'Lena Legal',
          agreedVersion: 3,
        }),
        envelopeId: null,
      }),
    });
    const { router } = renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Als vereinbart abschließen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fassung vereinbaren' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Als vereinbart abschließen' }));

    expect(
      await screen.findByText('Version 3 vereinbart von Lena Legal am 24.11.2026 10:00.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Vereinbart')).toBeInTheDocument();
    // The buttons are gone: the focus waits on the panel's heading.
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Verhandlung' })).toHaveFocus());
    expect(router.state.location.pathname).toBe('/dokumente/11111111-1111-4111-8111-111111111111');
    expect(screen.queryByRole('button', { name: 'Nächste Runde senden' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Verhandlung beenden' })).not.toBeInTheDocument();
  });

  it('ends the negotiation only after a confirmation', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: review(), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.withdraw]: jsonResponse(
        200,
        review({ state: 'withdrawn', rounds: [{ ...sentRound, state: 'withdrawn' }] }),
      ),
    });
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Verhandlung beenden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verhandlung beenden?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    expect(api.callsTo(API.withdraw)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Verhandlung beenden' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Verhandlung beenden?' })).getByRole('button', {
        name: 'Verhandlung beenden',
      }),
    );
    expect(
      await screen.findByText('Die Verhandlung ist beendet. Die Links der Gegenseite gelten nicht mehr.'),
    ).toBeInTheDocument();
    expect(api.callsTo(API.withdraw)).toHaveLength(1);
    expect(round(1).getByText('Zurückgezogen')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Link erneuern/ })).not.toBeInTheDocument();
  });
});
