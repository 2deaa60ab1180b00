import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderRoutes, stubFetch } from '@/test/utils';
import { ProblemReportButton } from './problem-report-dialog';

async function openDialog() {
  renderRoutes([{ path: '/start', element: <ProblemReportButton /> }], '/start');
  await userEvent.click(screen.getByRole('button', { name: 'Problem melden' }));
  return {
    subject: screen.getByRole('textbox', { name: 'Betreff' }),
    description: screen.getByRole('textbox', { name: 'Beschreibung' }),
    submit: screen.getByRole('button', { name: 'Absenden' }),
  };
}

describe('ProblemReportButton', () => {
  it('keeps submit disabled until subject and description are both non-blank', async () => {
    const { subject, description, submit } = await openDialog();
    expect(screen.getByRole('dialog', { name: 'Problem melden' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Schließen' })).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await userEvent.type(subject, 'Vorlage fehlt');
    expect(submit).toBeDisabled();

    await userEvent.type(description, '   ');
    expect(submit).toBeDisabled();

    await userEvent.type(description, 'x');
    expect(submit).toBeEnabled();

    await userEvent.clear(subject);
    await userEvent.type(subject, '  ');
    expect(submit).toBeDisabled();
  });

  it('sends the trimmed report with the stored match ID and thanks the user by title', async () => {
    localStorage.setItem('matchId', 'PL-1234');
    const fetchMock = stubFetch(jsonResponse(200, { id: 'r-1' }));
    const { subject, description, submit } = await openDialog();

    await userEvent.type(subject, '  Vorlage fehlt ');
    await userEvent.type(description, ' Für en-wm gibt es keine Vorlage. ');
    await userEvent.click(submit);

    expect(
      await screen.findByText(/Problem „Vorlage fehlt“ wurde an den Support gemeldet/),
    ).toBeInTheDocument();
    expect(screen.getByText(/Danke/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/backend/sendSupportEmail');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      subject: 'Vorlage fehlt',
      msgBody: 'Für en-wm gibt es keine Vorlage.',
      matchId: 'PL-1234',
    });
  });

  it('shows an error in the dialog and keeps what the user typed', async () => {
    stubFetch(jsonResponse(503, { error: 'mail_unavailable', message: 'Mail ist aus.' }));
    const { subject, description, submit } = await openDialog();

    await userEvent.type(subject, 'Fehler');
    await userEvent.type(description, 'Beschreibung des Fehlers');
    await userEvent.click(submit);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Das Problem konnte nicht gemeldet werden. Bitte versuche es erneut.',
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(subject).toHaveValue('Fehler');
    expect(description).toHaveValue('Beschreibung des Fehlers');
    expect(screen.queryByText(/wurde an den Support gemeldet/)).not.toBeInTheDocument();
  });
});
