import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { captureDownloads } from '@/test/downloads';
import { choose, docxResponse, findField, match, renderForm, submitButton, typeInto } from '../test-fixtures';

beforeEach(() => {
  captureDownloads();
});

describe('Termination form', () => {
  it('prefills the position from the match and requires the deadline only for a termination', async () => {
    const { callsTo } = renderForm('termination', {
      api: { 'POST /backend/generateDocx/': docxResponse('attachment; filename="k.docx"') },
    });
    expect(await screen.findByRole('textbox', { name: 'Position' })).toHaveValue(match.position);
    await choose('Gesellschaft', 'WM Consulting GmbH');
    await choose('Vertragspartner', 'Kunde');
    await choose('Dokumentart', 'Kündigung');
    await choose('Unterzeichner', 'Henrik Albers (Geschäftsführer)');
    await userEvent.click(submitButton());
    const deadline = await findField('Kündigungsart');
    expect(deadline).toHaveAttribute('aria-invalid', 'true');
    // The only red field gets the focus and says what is wrong with it.
    await waitFor(() => expect(deadline).toHaveFocus());
    expect(deadline).toHaveAccessibleDescription('Bitte wähle einen Wert.');
    expect(screen.getByText('Bitte fülle alle rot markierten Felder aus.')).toBeInTheDocument();
    expect(callsTo('POST /backend/generateDocx/')).toHaveLength(0);

    await choose('Dokumentart', 'Kündigungsbestätigung');
    expect(screen.queryByRole('combobox', { name: 'Kündigungsart' })).not.toBeInTheDocument();
    await userEvent.click(submitButton());
    await waitFor(() => expect(callsTo('POST /backend/generateDocx/')).toHaveLength(1));
    expect(callsTo('POST /backend/generateDocx/')[0]).toEqual({
      url: '/backend/generateDocx/kuendigung-wm-k-confirmation/PL-10001',
      body: {
        dataList: { selectedPerson: 'henrik-albers', position: match.position, vertragspartner_type: 'k' },
      },
    });
  });

  it('sends the chosen deadline for a termination and requires a non-blank position', async () => {
    const { callsTo } = renderForm('termination', {
      api: { 'POST /backend/generateDocx/': docxResponse('attachment; filename="k.docx"') },
    });
    await choose('Gesellschaft', 'WP Projects GmbH');
    await choose('Vertragspartner', 'Projektpartner');
    await choose('Dokumentart', 'Kündigung');
    await choose('Kündigungsart', 'Fristlos');
    await choose('Unterzeichner', 'Lea Brandt (Leiterin Recht & Verträge)');
    await typeInto('Position', '   ');
    await userEvent.click(submitButton());
    const position = screen.getByRole('textbox', { name: 'Position' });
    expect(position).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(position).toHaveFocus());
    expect(position).toHaveAccessibleDescription('Bitte ausfüllen.');
    expect(callsTo('POST /backend/generateDocx/')).toHaveLength(0);
    await typeInto('Position', 'Testmanager');
    await userEvent.click(submitButton());
    await waitFor(() => expect(callsTo('POST /backend/generateDocx/')).toHaveLength(1));
    expect(callsTo('POST /backend/generateDocx/')[0]?.url).toBe(
      '/backend/generateDocx/kuendigung-wp-pp-termination-los/PL-10001',
    );
  });
});

describe('Offer form', () => {
  it('offers wm and we only and sends hours, days and signatory to generateDocxOffer', async () => {
    const { callsTo } = renderForm('offer', {
      level: 3,
      api: { 'POST /backend/generateDocxOffer/': docxResponse('attachment; filename="angebot.docx"') },
    });
    await userEvent.click(await findField('Gesellschaft'));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'WM Consulting GmbH',
      'WE Engineering GmbH',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'WE Engineering GmbH' }));
    await typeInto('Projektstunden', '160');
    await typeInto('Projekttage', '20');
    await choose('Unterzeichner', 'Henrik Albers (Geschäftsführer)');
    expect(screen.getByText('4/4 Felder ausgefüllt')).toBeInTheDocument();
    await userEvent.click(submitButton());
    await waitFor(() => expect(callsTo('POST /backend/generateDocxOffer/')).toHaveLength(1));
    expect(callsTo('POST /backend/generateDocxOffer/')[0]).toEqual({
      url: '/backend/generateDocxOffer/angebot-we/PL-10001',
      body: {
        dataList: {
          projectHours: 160,
          projectDays: 20,
          selectedPerson: 'henrik-albers',
          vertragspartner_type: 'k',
        },
      },
    });
  });
});

describe('Agreement form', () => {
  it('sends the key of type, company and partner', async () => {
    const { callsTo } = renderForm('agreement', {
      api: { 'POST /backend/generateDocx/': docxResponse('attachment; filename="z.docx"') },
    });
    await choose('Art der Vereinbarung', 'Stunden');
    await choose('Gesellschaft', 'WE Engineering GmbH');
    await choose('Vertragspartner', 'Kunde');
    await userEvent.click(submitButton());
    await waitFor(() => expect(callsTo('POST /backend/generateDocx/')).toHaveLength(1));
    expect(callsTo('POST /backend/generateDocx/')[0]).toEqual({
      url: '/backend/generateDocx/zusatz-we-k-hours/PL-10001',
      body: { dataList: { vertragspartner_type: 'k' } },
    });
  });

  it('asks an extension for its language and new end, and sends only the values that change', async () => {
    const { callsTo } = renderForm('agreement', {
      api: { 'POST /backend/generateDocx/': docxResponse('attachment; filename="v.docx"') },
    });
    await choose('Art der Vereinbarung', 'Verlängerung');
    await choose('Gesellschaft', 'WP Projects GmbH');
    // WP writes German only.
    await userEvent.click(await findField('Sprache'));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Deutsch']);
    await userEvent.keyboard('{Escape}');
    await choose('Gesellschaft', 'WE Engineering GmbH');
    await choose('Sprache', 'Englisch');
    await choose('Vertragspartner', 'Projektpartner');
    await userEvent.click(submitButton());
    const end = screen.getByLabelText(/Neues Vertragsende/);
    expect(end).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo('POST /backend/generateDocx/')).toHaveLength(0);

    fireEvent.change(end, { target: { value: '2027-12-31' } });
    await typeInto('Neuer Stundensatz remote (€, leer: unverändert)', '96,5');
    await userEvent.click(submitButton());
    await waitFor(() => expect(callsTo('POST /backend/generateDocx/')).toHaveLength(1));
    expect(callsTo('POST /backend/generateDocx/')[0]).toEqual({
      url: '/backend/generateDocx/verlaengerung-en-we-pp/PL-10001',
      body: { dataList: { vertragspartner_type: 'pp', neuesEnde: '2027-12-31', neuerSatzRemote: 96.5 } },
    });
  });
});
