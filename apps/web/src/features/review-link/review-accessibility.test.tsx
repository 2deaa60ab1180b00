import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReviewerView } from '@vertragsgenerator/domain';
import { describe, it } from 'vitest';
import { jsonResponse, stubApi } from '@/test/utils';
import {
  CODE,
  contractResponse,
  DOCUMENT,
  expectAccessible,
  RETURN,
  renderReview,
  VIEW,
} from './review-test-page';
import { comment, reviewerView, unverifiedView } from './test-fixtures';

const QUESTION = comment({
  id: '00000000-0000-4000-8000-000000000001',
  round: 1,
  text: 'Ist die Vergütung netto gemeint?',
  quote: 'Die Vergütung beträgt 1.000 Euro.',
});
const ANSWER = comment({
  id: '00000000-0000-4000-8000-000000000002',
  round: 1,
  parentId: QUESTION.id,
  author: { name: 'Lena Legal', side: 'company' },
  text: 'Ja, zuzüglich Umsatzsteuer.',
});
/** A second round with everything the page can show: comments with a reply, earlier suggestions. */
const fullView: ReviewerView = {
  ...reviewerView,
  round: 2,
  comments: [QUESTION, ANSWER],
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
      ],
    },
  ],
};

describe('ReviewPage: accessibility (axe-core, serious and critical; headings in order)', () => {
  it('the code step', async () => {
    stubApi({ [VIEW]: jsonResponse(200, unverifiedView), [CODE]: jsonResponse(200, unverifiedView) });
    renderReview();
    await screen.findByRole('heading', { name: 'Bestätigen Sie Ihre E-Mail-Adresse' });
    await expectAccessible();
  });

  it.each([
    ['de', 'Vertrag'],
    ['en', 'Contract'],
  ] as const)(
    'the contract with its comments, earlier rounds and the return (%s)',
    async (language, label) => {
      stubApi({ [VIEW]: jsonResponse(200, { ...fullView, language }), [DOCUMENT]: await contractResponse() });
      renderReview();
      await screen.findByRole('document', { name: label });
      await expectAccessible();
    },
  );

  it('a reply being written, and the question before the return', async () => {
    stubApi({ [VIEW]: jsonResponse(200, fullView), [DOCUMENT]: await contractResponse() });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await userEvent.click(screen.getByRole('button', { name: 'Antworten auf Karla Kundin' }));
    await userEvent.click(screen.getByRole('button', { name: 'Zurücksenden' }));
    await waitFor(() => screen.getByRole('group', { name: 'Vertrag jetzt zurücksenden?' }));
    await expectAccessible();
  });

  it('a refused upload and an empty comment', async () => {
    stubApi({
      [VIEW]: jsonResponse(200, fullView),
      [DOCUMENT]: await contractResponse(),
      [RETURN]: jsonResponse(415, { error: 'not_docx', message: 'Das ist keine Word-Datei (.docx).' }),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await userEvent.click(screen.getByRole('button', { name: 'Kommentar senden' }));
    await userEvent.upload(
      document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement,
      new File(['x'], 'vertrag.docx'),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Zurücksenden' }));
    await userEvent.click(screen.getByRole('button', { name: 'Ja, zurücksenden' }));
    await screen.findByText('Das ist keine Word-Datei (.docx).');
    await expectAccessible();
  });

  it('the round sent back', async () => {
    stubApi({
      [VIEW]: jsonResponse(200, { ...fullView, returnedAt: '2026-07-03T12:15:00.000Z' }),
      [DOCUMENT]: await contractResponse(),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await expectAccessible();
  });

  it('a link that does not work', async () => {
    stubApi({ [VIEW]: jsonResponse(410, { error: 'link_expired', message: 'Dieser Link ist abgelaufen.' }) });
    renderReview();
    await screen.findByRole('heading', { name: 'Dieser Link funktioniert nicht' });
    await expectAccessible();
  });
});
