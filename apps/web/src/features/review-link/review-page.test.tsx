import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReviewerView } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubApi } from '@/test/utils';
import {
  CODE,
  CONTRACT_PARAGRAPHS,
  contractResponse,
  DOCUMENT,
  expectReviewerRequests,
  renderReview,
  VERIFY,
  VIEW,
} from './review-test-page';
import { LINK_TOKEN, reviewerView, unverifiedView } from './test-fixtures';

/** The view after a code went out: a new one in 60 seconds. */
const codeSent: ReviewerView = {
  ...unverifiedView,
  verification: { ...unverifiedView.verification, codeSent: true, resendInSeconds: 60 },
};
const englishView: ReviewerView = { ...reviewerView, language: 'en' };

const contract = () => screen.findByRole('document', { name: 'Vertrag' });

describe('ReviewPage: the code step', () => {
  it('mails the first code when it shows, and keeps the contract closed', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, unverifiedView),
      [CODE]: jsonResponse(200, codeSent),
      [DOCUMENT]: await contractResponse(),
    });
    renderReview();

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Rahmenvertrag PL-12345.docx');
    expect(
      screen.getByRole('heading', { level: 2, name: 'Bestätigen Sie Ihre E-Mail-Adresse' }),
    ).toBeVisible();
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Wir haben Ihnen einen Code an k***@kunde.de geschickt.',
      ),
    );
    expect(api.callsTo(CODE)).toHaveLength(1);
    expect(api.callsTo(DOCUMENT)).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Änderungen vorschlagen' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Code erneut senden/ })).toBeDisabled();
    expectReviewerRequests(api.fetchMock);
  });

  it('opens the contract with the right code, entered with the keyboard alone', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, codeSent),
      [VERIFY]: jsonResponse(200, reviewerView),
      [DOCUMENT]: await contractResponse(),
    });
    renderReview();
    await screen.findByRole('heading', { name: 'Bestätigen Sie Ihre E-Mail-Adresse' });

    await userEvent.tab();
    const input = screen.getByRole('textbox', { name: 'Code aus der E-Mail (6 Ziffern)' });
    expect(input).toHaveFocus();
    await userEvent.paste('123 456');
    await userEvent.keyboard('{Enter}');

    expect(await contract()).toHaveTextContent(CONTRACT_PARAGRAPHS[0] ?? '');
    expect(api.callsTo(VERIFY)).toEqual([{ url: '/backend/review/verify', body: { code: '123456' } }]);
    expectReviewerRequests(api.fetchMock);
  });

  it('shows a wrong code in the server’s words at the field', async () => {
    const message = 'Der Code stimmt nicht. Sie haben noch 4 Versuche.';
    stubApi({
      [VIEW]: jsonResponse(200, codeSent),
      [VERIFY]: jsonResponse(400, { error: 'code_wrong', message }),
    });
    renderReview();
    await screen.findByRole('heading', { name: 'Bestätigen Sie Ihre E-Mail-Adresse' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Code aus der E-Mail (6 Ziffern)' }), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Bestätigen' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('document', { name: 'Vertrag' })).not.toBeInTheDocument();
  });
});

describe('ReviewPage: the contract', () => {
  it('shows the file, who sent it with their message and due date, and the contract as text', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, reviewerView), [DOCUMENT]: await contractResponse() });
    renderReview();

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Rahmenvertrag PL-12345.docx');
    expect(screen.getByText(/Gesendet von/).parentElement).toHaveTextContent(
      'Gesendet von: Lena Legal (legal@demo.local)',
    );
    expect(screen.getByText(/Antwort erbeten bis/).parentElement).toHaveTextContent(
      'Antwort erbeten bis: 15. Juli 2026',
    );
    expect(screen.getByText(/bitte prüfen Sie/)).toHaveTextContent(
      'Guten Tag Frau Kundin, bitte prüfen Sie den Rahmenvertrag.',
    );
    expect(screen.getByText(/Demo GmbH bittet Sie, diesen Vertrag zu prüfen/)).toBeInTheDocument();

    const document = await contract();
    for (const paragraph of CONTRACT_PARAGRAPHS) expect(document).toHaveTextContent(paragraph);
    expect(screen.getByRole('button', { name: 'Änderungen vorschlagen' })).toBeEnabled();
    expect(screen.getByRole('heading', { level: 2, name: 'Kommentare' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Zurücksenden' })).toBeInTheDocument();
    // No app shell: neither the signed-in app's navigation nor its logout.
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(api.callsTo(DOCUMENT)).toHaveLength(1);
    expectReviewerRequests(api.fetchMock);
  });

  it('shows what became of the suggestions of earlier rounds', async () => {
    const view: ReviewerView = {
      ...reviewerView,
      round: 2,
      earlier: [
        {
          round: 1,
          suggestions: [
            {
              kind: 'insert',
              text: 'zzgl. USt.',
              context: 'Die Vergütung beträgt 1.000 Euro',
              outcome: 'accepted',
            },
            {
              kind: 'delete',
              text: 'unverzüglich',
              context: 'Der Kunde zahlt unverzüglich',
              outcome: 'rejected',
            },
            { kind: 'insert', text: 'schriftlich', context: 'Kündigung', outcome: 'open' },
          ],
        },
      ],
    };
    stubApi({ [VIEW]: jsonResponse(200, view), [DOCUMENT]: await contractResponse() });
    renderReview();

    const section = (await screen.findByRole('heading', { name: 'Ihre Vorschläge aus früheren Runden' }))
      .parentElement as HTMLElement;
    expect(within(section).getByRole('heading', { level: 3, name: 'Runde 1' })).toBeInTheDocument();
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'EingefügtAngenommenzzgl. USt.Im Absatz: „Die Vergütung beträgt 1.000 Euro“',
      'GelöschtAbgelehntunverzüglichIm Absatz: „Der Kunde zahlt unverzüglich“',
      'EingefügtOffenschriftlichIm Absatz: „Kündigung“',
    ]);
    expect(screen.getByText('Runde 2')).toBeInTheDocument();
  });
});

describe('ReviewPage: a link that does not work', () => {
  it.each([
    [
      410,
      'link_withdrawn',
      'Dieser Link wurde zurückgezogen. Bitte wenden Sie sich an Lena Legal (legal@demo.local).',
    ],
    [
      410,
      'link_expired',
      'Dieser Link ist abgelaufen. Bitte bitten Sie Lena Legal (legal@demo.local) um einen neuen.',
    ],
    [
      404,
      'link_invalid',
      'Dieser Link ist ungültig. Bitte prüfen Sie, ob Sie ihn vollständig übernommen haben.',
    ],
  ])(
    '%i %s: shows the server’s German message on its own page, without a form',
    async (status, error, message) => {
      const api = stubApi({ [VIEW]: jsonResponse(status, { error, message }) });
      renderReview();

      expect(
        await screen.findByRole('heading', { level: 1, name: 'Dieser Link funktioniert nicht' }),
      ).toBeVisible();
      expect(screen.getByRole('alert')).toHaveTextContent(message);
      expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
      expect(screen.queryByRole('button')).not.toBeInTheDocument();
      expect(api.callsTo(DOCUMENT)).toEqual([]);
      expect(screen.getByRole('heading', { level: 1 }).closest('[lang]')).toHaveAttribute('lang', 'de');
    },
  );

  it('shows a link withdrawn while the page opens the contract as it would on opening the link', async () => {
    const message =
      'Dieser Link wurde zurückgezogen. Bitte wenden Sie sich an Lena Legal (legal@demo.local).';
    stubApi({
      [VIEW]: jsonResponse(200, reviewerView),
      [DOCUMENT]: jsonResponse(410, { error: 'link_withdrawn', message }),
    });
    renderReview();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dieser Link funktioniert nicht' }),
    ).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Zurücksenden' })).not.toBeInTheDocument();
  });

  it('asks for the link from the e-mail when the token is missing, and loads nothing', () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, reviewerView) });
    renderReview('');
    expect(screen.getByRole('heading', { name: 'Dieser Link funktioniert nicht' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Der Link ist unvollständig. Bitte öffnen Sie ihn direkt aus Ihrer E-Mail.',
    );
    expect(api.fetchMock).not.toHaveBeenCalled();
  });

  it('offers to try again when the server is not reachable', async () => {
    stubApi({
      [VIEW]: [new TypeError('Failed to fetch'), jsonResponse(200, reviewerView)],
      [DOCUMENT]: await contractResponse(),
    });
    renderReview();

    expect(
      await screen.findByRole('heading', { name: 'Die Seite konnte nicht geladen werden' }),
    ).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Der Server ist nicht erreichbar. Bitte versuchen Sie es erneut.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await contract()).toBeInTheDocument();
  });
});

describe('ReviewPage in English', () => {
  it('speaks the contract’s language: the code step, with the server’s code errors in English', async () => {
    stubApi({
      [VIEW]: jsonResponse(200, { ...codeSent, language: 'en' }),
      [VERIFY]: jsonResponse(400, {
        error: 'code_wrong',
        message: 'Der Code stimmt nicht. Sie haben noch 4 Versuche.',
      }),
    });
    renderReview();

    expect(await screen.findByRole('heading', { name: 'Confirm your e-mail address' })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('We have sent you a code at k***@kunde.de.');
    await userEvent.type(screen.getByRole('textbox', { name: 'Code from the e-mail (6 digits)' }), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This code is not correct. Please check the code in the e-mail and try again.',
    );
  });

  it('shows the contract, the comments and the return in English, marked as English', async () => {
    stubApi({ [VIEW]: jsonResponse(200, englishView), [DOCUMENT]: await contractResponse() });
    renderReview();

    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.closest('[lang]')).toHaveAttribute('lang', 'en');
    expect(screen.getByText(/Sent by/).parentElement).toHaveTextContent(
      'Sent by: Lena Legal (legal@demo.local)',
    );
    expect(screen.getByText(/Reply requested by/).parentElement).toHaveTextContent(
      'Reply requested by: 15 July 2026',
    );
    expect(await screen.findByRole('document', { name: 'Contract' })).toHaveTextContent(
      CONTRACT_PARAGRAPHS[1] ?? '',
    );
    expect(screen.getByRole('button', { name: 'Suggest changes' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Comments' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use selected text' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Comment' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Send back' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload your own Word file' })).toBeInTheDocument();
    expect(screen.queryByText(/Zurücksenden|Kommentar|Vertrag\b/)).not.toBeInTheDocument();
    expect(document.title).toBe('Contract review – Vertragsgenerator');
    expect(document.documentElement).toHaveAttribute('lang', 'en');
  });
});

it('keeps the token out of every URL it calls', async () => {
  const api = stubApi({ [VIEW]: jsonResponse(200, reviewerView), [DOCUMENT]: await contractResponse() });
  renderReview();
  await contract();
  for (const [url] of api.fetchMock.mock.calls) expect(String(url)).not.toContain(LINK_TOKEN);
});
