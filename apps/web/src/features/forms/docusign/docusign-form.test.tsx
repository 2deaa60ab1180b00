import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/utils';
import { choose, findField, match, renderForm, submitButton, typeInto } from '../test-fixtures';

const SIGNING_URL = 'https://signing.example/envelope/1';

async function fillCommon({ language = 'Deutsch', company = 'WM Consulting GmbH' } = {}) {
  await choose('Sprache', language);
  await choose('Gesellschaft', company);
  await choose('Vertragsart', 'Rahmenvertrag');
  await choose('Absender', 'Anna Aster');
}

describe('DocuSign form: roles', () => {
  it.each([
    ['consultant', 1],
    ['leader', 3],
  ] as const)(
    '%s: no partner-type select, partner pp fixed, one project partner signer',
    async (_, level) => {
      renderForm('docusign', { level });
      await findField('Sprache');
      expect(screen.queryByRole('combobox', { name: 'Vertragspartner' })).not.toBeInTheDocument();
      expect(screen.getByText('Vertragspartner: Projektpartner')).toBeInTheDocument();
      expect(screen.getByRole('group', { name: 'Projektpartner' })).toBeInTheDocument();
      expect(
        screen.queryByRole('textbox', { name: 'Anzahl Unterschriftsblöcke Kunde' }),
      ).not.toBeInTheDocument();
    },
  );

  it('legal: partner-type select and, for a customer, the signature-block count', async () => {
    renderForm('docusign', { level: 2 });
    await choose('Vertragspartner', 'Kunde');
    expect(screen.getByRole('textbox', { name: 'Anzahl Unterschriftsblöcke Kunde' })).toHaveValue('1');
    expect(screen.getByRole('group', { name: 'Unterzeichner Kunde 1' })).toBeInTheDocument();
  });

  it('falls back to consultant when the permission cannot be read', async () => {
    renderForm('docusign', {
      api: { 'POST /backend/private/getPermission/': jsonResponse(503, { error: 'x', message: 'y' }) },
    });
    await findField('Sprache');
    expect(screen.queryByRole('combobox', { name: 'Vertragspartner' })).not.toBeInTheDocument();
  });

  it('shows the match it works on and links back to /start', async () => {
    renderForm('docusign');
    const summary = await screen.findByRole('region', { name: 'Match' });
    expect(summary).toHaveTextContent(match.matchId);
    expect(summary).toHaveTextContent('Elbwerk Logistik AG');
    expect(summary).toHaveTextContent('Carla Projekt');
    expect(screen.getByRole('link', { name: 'Zurück zur Match-ID-Eingabe' })).toHaveAttribute(
      'href',
      '/start',
    );
  });
});

describe('DocuSign form: interactions', () => {
  it('changing the company to wp clears partner type k and offers only Projektpartner', async () => {
    renderForm('docusign', { level: 2 });
    await choose('Gesellschaft', 'WM Consulting GmbH');
    await choose('Vertragspartner', 'Kunde');
    expect(await findField('Vertragspartner')).toHaveValue('Kunde');
    await choose('Gesellschaft', 'WP Projects GmbH');
    expect(await findField('Vertragspartner')).toHaveValue('');
    await userEvent.click(await findField('Vertragspartner'));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Projektpartner']);
  });

  it('keeps partner pp when the company changes to wp', async () => {
    renderForm('docusign', { level: 2 });
    await choose('Vertragspartner', 'Projektpartner');
    await choose('Gesellschaft', 'WP Projects GmbH');
    expect(await findField('Vertragspartner')).toHaveValue('Projektpartner');
  });

  it('legal: pp → k adds a second, empty signer; k → pp reduces to one', async () => {
    renderForm('docusign', { level: 2 });
    await choose('Vertragspartner', 'Projektpartner');
    await typeInto('Projektpartner Name', 'Carla Projekt');
    await typeInto('Projektpartner E-Mail', 'carla@projekt.de');

    await choose('Vertragspartner', 'Kunde');
    expect(screen.getByRole('textbox', { name: 'Anzahl Unterschriftsblöcke Kunde' })).toHaveValue('2');
    expect(screen.getByRole('textbox', { name: 'Unterzeichner Kunde 1 Name' })).toHaveValue('Carla Projekt');
    expect(screen.getByRole('textbox', { name: 'Unterzeichner Kunde 2 Name' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Unterzeichner Kunde 2 E-Mail' })).toHaveValue('');

    await choose('Vertragspartner', 'Projektpartner');
    expect(screen.getAllByRole('group')).toHaveLength(1);
    expect(screen.getByRole('textbox', { name: 'Projektpartner Name' })).toHaveValue('Carla Projekt');
  });
});

describe('DocuSign form: validation and sending', () => {
  it('marks the missing fields, shows the red message and the counter, and sends nothing', async () => {
    const { callsTo } = renderForm('docusign', { level: 1 });
    await findField('Sprache');
    expect(screen.getByText('0/5 Felder ausgefüllt')).toBeInTheDocument();
    await choose('Sprache', 'Deutsch');
    expect(screen.getByText('1/5 Felder ausgefüllt')).toBeInTheDocument();
    expect(screen.queryByText('Bitte fülle alle rot markierten Felder aus.')).not.toBeInTheDocument();

    await userEvent.click(submitButton());
    expect(screen.getByRole('alert')).toHaveTextContent('Bitte fülle alle rot markierten Felder aus.');
    expect(await findField('Gesellschaft')).toHaveAttribute('aria-invalid', 'true');
    expect(await findField('Sprache')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Projektpartner Name' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(screen.getByRole('textbox', { name: 'Projektpartner Name' })).toHaveAccessibleDescription(
      'Bitte gib einen Namen ein.',
    );
    expect(await findField('Absender')).toHaveAttribute('aria-invalid', 'true');
    expect(await findField('CC')).not.toHaveAttribute('aria-invalid', 'true');
    expect(callsTo('POST /backend/generateDocusign/')).toHaveLength(0);
  });

  it('an optional CC that is filled must be valid', async () => {
    const { callsTo } = renderForm('docusign', { level: 1 });
    await fillCommon();
    await typeInto('Projektpartner Name', 'Carla Projekt');
    await typeInto('Projektpartner E-Mail', 'carla@projekt.de');
    await choose('CC', 'Eigener Wert...');
    await typeInto('CC Name', 'Kopie');
    await userEvent.click(submitButton());
    const ccEmail = screen.getByRole('textbox', { name: 'CC E-Mail' });
    expect(ccEmail).toHaveAttribute('aria-invalid', 'true');
    // The only red field: focus moves to it, and its message is read with it.
    await waitFor(() => expect(ccEmail).toHaveFocus());
    expect(ccEmail).toHaveAccessibleDescription('Bitte gib eine gültige E-Mail-Adresse ein.');
    expect(screen.getByText('Bitte fülle alle rot markierten Felder aus.')).toBeInTheDocument();
    expect(callsTo('POST /backend/generateDocusign/')).toHaveLength(0);
  });

  it('alerts "Ungültige Auswahl" for a combination outside the catalogue and sends nothing', async () => {
    const { callsTo } = renderForm('docusign', { level: 1 });
    // Company wp has German contracts only.
    await fillCommon({ language: 'Englisch', company: 'WP Projects GmbH' });
    await typeInto('Projektpartner Name', 'Carla Projekt');
    await typeInto('Projektpartner E-Mail', 'carla@projekt.de');
    await userEvent.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Ungültige Auswahl');
    expect(callsTo('POST /backend/generateDocusign/')).toHaveLength(0);
    expect(callsTo('POST /backend/documentCheck/')).toHaveLength(0);
  });

  it('sends the dataList for two customer signers and opens the returned URL in a new tab', async () => {
    const opened = { opener: {} as unknown };
    const open = vi.spyOn(window, 'open').mockReturnValue(opened as Window);
    const { callsTo } = renderForm('docusign', {
      level: 2,
      api: { 'POST /backend/generateDocusign/': jsonResponse(200, { data: SIGNING_URL }) },
    });
    await fillCommon();
    await choose('Vertragspartner', 'Projektpartner');
    await choose('Vertragspartner', 'Kunde');
    await typeInto('Unterzeichner Kunde 1 Name', 'Kim Kunde');
    await typeInto('Unterzeichner Kunde 1 E-Mail', 'kim@kunde.de');
    await typeInto('Unterzeichner Kunde 2 Name', 'Kai Kunde');
    await typeInto('Unterzeichner Kunde 2 E-Mail', 'kai@kunde.de');
    expect(screen.getByText('6/6 Felder ausgefüllt')).toBeInTheDocument();
    await userEvent.click(submitButton());

    await waitFor(() => expect(open).toHaveBeenCalledWith(SIGNING_URL, '_blank'));
    expect(opened.opener).toBeNull();
    const [call] = callsTo('POST /backend/generateDocusign/');
    expect(call?.url).toBe('/backend/generateDocusign/de-wm-k-rv-2/PL-10001');
    expect(call?.body).toEqual({
      dataList: {
        Absender_UserName: 'Anna Aster',
        Absender_Email: 'anna@demo.local',
        Projektpartner_UserName: '',
        Projektpartner_Email: '',
        Kunde_UserName: 'Kim Kunde',
        Kunde_Email: 'kim@kunde.de',
        Kunde2_UserName: 'Kai Kunde',
        Kunde2_Email: 'kai@kunde.de',
        CC_UserName: '',
        CC_Email: '',
        vertragspartner_type: 'k',
      },
    });
    expect(screen.getByText('100 % – Fertig')).toBeInTheDocument();
  });

  it('lists the match values the chosen key needs but the match lacks, and still generates', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    const { callsTo } = renderForm('docusign', {
      level: 1,
      api: {
        'POST /backend/documentCheck/': jsonResponse(200, {
          missing: [{ field: 'adresseKunde', label: 'Adresse Kunde' }],
          optionalClauses: [],
        }),
        'POST /backend/generateDocusign/': jsonResponse(200, { data: SIGNING_URL }),
      },
    });
    await fillCommon();
    const hint = await screen.findByRole('status', { name: /Im Match fehlen Angaben/ });
    expect(hint).toHaveTextContent('Adresse Kunde');
    expect(hint).toHaveTextContent(/im CRM/);
    expect(callsTo('POST /backend/documentCheck/')[0]?.url).toBe(
      '/backend/documentCheck/de-wm-pp-rv/PL-10001',
    );
    await typeInto('Projektpartner Name', 'Carla Projekt');
    await typeInto('Projektpartner E-Mail', 'carla@projekt.de');
    await userEvent.click(submitButton());
    await waitFor(() => expect(open).toHaveBeenCalledOnce());
  });

  it('offers the optional clauses of the chosen document and sends what the person chose', async () => {
    vi.spyOn(window, 'open').mockReturnValue({} as Window);
    const { callsTo } = renderForm('docusign', {
      level: 1,
      api: {
        'POST /backend/documentCheck/': jsonResponse(200, {
          missing: [],
          optionalClauses: [
            { key: 'remote-arbeit', name: 'Remote-Arbeit', checked: false, variant: 'Remote' },
            { key: 'vertragsstrafe', name: 'Vertragsstrafe', checked: true, variant: 'Standard' },
          ],
        }),
        'POST /backend/generateDocusign/': jsonResponse(200, { data: SIGNING_URL }),
      },
    });
    await fillCommon();
    const group = await screen.findByRole('group', { name: 'Wählbare Klauseln' });
    const remote = within(group).getByRole('checkbox', { name: 'Remote-Arbeit (Remote)' });
    const penalty = within(group).getByRole('checkbox', { name: 'Vertragsstrafe (Standard)' });
    expect(remote).not.toBeChecked();
    expect(penalty).toBeChecked();
    await userEvent.click(remote);
    await userEvent.click(penalty);
    await typeInto('Projektpartner Name', 'Carla Projekt');
    await typeInto('Projektpartner E-Mail', 'carla@projekt.de');
    await userEvent.click(submitButton());
    await waitFor(() => expect(callsTo('POST /backend/generateDocusign/')).toHaveLength(1));
    expect(callsTo('POST /backend/generateDocusign/')[0]?.body).toMatchObject({
      dataList: { klauseln: { 'remote-arbeit': true, vertragsstrafe: false } },
    });
  });

  it('without a stored match it says so, links to /start and shows no form', async () => {
    renderForm('docusign', { matchId: null });
    expect(await screen.findByText(/Es ist noch kein Match geladen/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zurück zur Match-ID-Eingabe' })).toHaveAttribute(
      'href',
      '/start',
    );
    expect(screen.queryByRole('button', { name: 'Dokument erstellen' })).not.toBeInTheDocument();
  });

  it('with a match that cannot be loaded it shows why and no form', async () => {
    renderForm('docusign', {
      api: {
        'POST /backend/match/': jsonResponse(404, { error: 'not_found', message: 'Unbekanntes Match.' }),
      },
    });
    expect(await screen.findByText('Unbekanntes Match.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Dokument erstellen' })).not.toBeInTheDocument();
  });
});
