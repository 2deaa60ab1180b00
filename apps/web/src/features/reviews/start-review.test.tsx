import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '@/test/axe';
import { jsonResponse, stubApi } from '@/test/utils';
import { API, DOCUMENT_ID, noDifferences, renderPanel, review } from './test-fixtures';

const form = () => screen.getByRole('form', { name: 'Zur Prüfung an die Gegenseite' });
const person = (index: number) => within(screen.getByRole('group', { name: `Person ${index}` }));

async function openForm() {
  await userEvent.click(await screen.findByRole('button', { name: 'Zur Prüfung senden' }));
  return form();
}

describe('NegotiationPanel: the first round', () => {
  it('offers „Zur Prüfung senden“ while there is no negotiation, and the form takes the focus', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    expect(await screen.findByRole('heading', { level: 2, name: 'Verhandlung' })).toBeInTheDocument();
    await openForm();
    expect(screen.getByRole('heading', { level: 3, name: 'Zur Prüfung an die Gegenseite' })).toHaveFocus();
    await expectNoSeriousViolations();
  });

  it('marks what the browser finds wrong before asking the server anything', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.start]: jsonResponse(201, review()),
    });
    renderPanel();
    await openForm();
    await userEvent.type(person(1).getByRole('textbox', { name: 'E-Mail-Adresse' }), 'karl@');
    await userEvent.click(within(form()).getByRole('button', { name: 'Zur Prüfung senden' }));

    expect(person(1).getByText('Bitte gib den Namen an.')).toBeInTheDocument();
    expect(person(1).getByText('Bitte gib eine gültige E-Mail-Adresse an.')).toBeInTheDocument();
    expect(within(form()).getByText('Bitte gib ein Datum an (JJJJ-MM-TT).')).toBeInTheDocument();
    expect(within(form()).getByText('Bitte prüfe die rot markierten Felder.')).toBeInTheDocument();
    // The focus lands on the first field to fix.
    expect(person(1).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    expect(api.callsTo(API.start)).toHaveLength(0);
  });

  it('sends up to five people, the message and the due date, and shows the server’s words at the fields of a 400', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.start]: [
        jsonResponse(400, {
          error: 'invalid_input',
          message: 'Die Eingabe ist ungültig.',
          fields: {
            'reviewers.1.email': ['Diese Adresse gehört zur eigenen Firma.'],
            dueDate: ['Das Datum muss nach heute liegen.'],
          },
        }),
        jsonResponse(201, review()),
      ],
    });
    renderPanel();
    await openForm();
    await userEvent.type(person(1).getByRole('textbox', { name: 'Name' }), 'Karl Kunde');
    await userEvent.type(person(1).getByRole('textbox', { name: 'E-Mail-Adresse' }), 'karl@elbwerk.de');
    await userEvent.click(screen.getByRole('button', { name: 'Person hinzufügen' }));
    await userEvent.type(person(2).getByRole('textbox', { name: 'Name' }), 'Lena Legal');
    await userEvent.type(person(2).getByRole('textbox', { name: 'E-Mail-Adresse' }), 'legal@demo.local');
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Nachricht an die Gegenseite' }),
      'Bitte prüfen.',
    );
    await userEvent.type(screen.getByLabelText(/^Antwort bis/), '2099-12-04');
    await userEvent.click(within(form()).getByRole('button', { name: 'Zur Prüfung senden' }));

    expect(await person(2).findByText('Diese Adresse gehört zur eigenen Firma.')).toBeInTheDocument();
    expect(person(2).getByRole('textbox', { name: 'E-Mail-Adresse' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(person(1).getByRole('textbox', { name: 'E-Mail-Adresse' })).not.toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(within(form()).getByText('Das Datum muss nach heute liegen.')).toBeInTheDocument();
    expect(within(form()).getByRole('alert')).toHaveTextContent('Die Eingabe ist ungültig.');
    expect(person(2).getByRole('textbox', { name: 'E-Mail-Adresse' })).toHaveFocus();
    await expectNoSeriousViolations();
    expect(api.callsTo(API.start)[0]?.body).toEqual({
      reviewers: [
        { name: 'Karl Kunde', email: 'karl@elbwerk.de' },
        { name: 'Lena Legal', email: 'legal@demo.local' },
      ],
      message: 'Bitte prüfen.',
      dueDate: '2099-12-04',
    });

    // Removing the refused person and sending again starts the negotiation.
    await userEvent.click(screen.getByRole('button', { name: 'Person 2 entfernen' }));
    await userEvent.click(within(form()).getByRole('button', { name: 'Zur Prüfung senden' }));
    expect(await screen.findByRole('heading', { level: 4, name: 'Runde 1' })).toBeInTheDocument();
    expect(api.callsTo(API.start)[1]?.body.reviewers).toEqual([
      { name: 'Karl Kunde', email: 'karl@elbwerk.de' },
    ]);
    expect(screen.queryByRole('form', { name: 'Zur Prüfung an die Gegenseite' })).not.toBeInTheDocument();
    expect(screen.getByText('Runde 1 ist gesendet: Die Links sind unterwegs.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Verhandlung' })).toHaveFocus();
  });

  it('starts with the counterparty’s signers of the envelope draft, who can be changed before sending', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, {
        review: null,
        proposedReviewers: [
          { name: 'Klara Kunde', email: 'klara@kunde.example' },
          { name: 'Karl Zweit', email: 'karl@kunde.example' },
        ],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.start]: jsonResponse(201, review()),
    });
    renderPanel();
    await openForm();
    expect(person(1).getByRole('textbox', { name: 'Name' })).toHaveValue('Klara Kunde');
    expect(person(1).getByRole('textbox', { name: 'E-Mail-Adresse' })).toHaveValue('klara@kunde.example');
    expect(person(2).getByRole('textbox', { name: 'Name' })).toHaveValue('Karl Zweit');
    expect(screen.queryByRole('group', { name: 'Person 3' })).not.toBeInTheDocument();
    await expectNoSeriousViolations();

    await userEvent.click(screen.getByRole('button', { name: 'Person 2 entfernen' }));
    await userEvent.type(screen.getByLabelText(/^Antwort bis/), '2099-12-04');
    await userEvent.click(within(form()).getByRole('button', { name: 'Zur Prüfung senden' }));
    expect(await screen.findByRole('heading', { level: 4, name: 'Runde 1' })).toBeInTheDocument();
    expect(api.callsTo(API.start)[0]?.body.reviewers).toEqual([
      { name: 'Klara Kunde', email: 'klara@kunde.example' },
    ]);
  });

  it('takes the focus when the address names it (the sender view’s link to #verhandlung)', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel({ path: `/dokumente/${DOCUMENT_ID}#verhandlung` });
    const heading = await screen.findByRole('heading', { level: 2, name: 'Verhandlung' });
    expect(heading).toHaveFocus();
    expect(heading.closest('section')).toHaveAttribute('id', 'verhandlung');
  });

  it('leaves the focus where it is otherwise', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    expect(await screen.findByRole('heading', { level: 2, name: 'Verhandlung' })).not.toHaveFocus();
  });

  it('takes at most five people', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    await openForm();
    const add = screen.getByRole('button', { name: 'Person hinzufügen' });
    for (let i = 0; i < 4; i++) await userEvent.click(add);
    expect(screen.getAllByRole('group', { name: /^Person \d$/ })).toHaveLength(5);
    expect(add).toBeDisabled();
  });

  it('waits for the editor’s changes to be saved: the counterparty gets the stored version', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel({ dirty: true });
    await openForm();
    expect(
      screen.getByText(
        'Speichere erst deine Änderungen im Editor: Die Gegenseite bekommt die gespeicherte Fassung.',
      ),
    ).toBeInTheDocument();
    expect(within(form()).getByRole('button', { name: 'Zur Prüfung senden' })).toBeDisabled();
  });

  it('goes back to „Zur Prüfung senden“ on „Abbrechen“, with the focus on it', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    await openForm();
    await userEvent.click(within(form()).getByRole('button', { name: 'Abbrechen' }));
    expect(screen.getByRole('button', { name: 'Zur Prüfung senden' })).toHaveFocus();
  });
});
