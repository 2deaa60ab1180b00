import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type ApprovalRulesView,
  approvalDocumentTypeOptions,
  DEFAULT_APPROVAL_RULES,
  type SessionUser,
} from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { AdministrationPage } from './administration-page';

const RULES = 'GET /backend/approval-rules';
const SAVE = 'PUT /backend/approval-rules';

const view = (extra: Partial<ApprovalRulesView> = {}): ApprovalRulesView => ({
  rules: DEFAULT_APPROVAL_RULES,
  version: '1',
  changedBy: null,
  changedAt: null,
  mayChange: true,
  mayNameDeputies: true,
  documentTypeOptions: approvalDocumentTypeOptions(),
  ...extra,
});

const lena: SessionUser = {
  email: 'legal@demo.local',
  name: 'Lena Legal',
  permission: 2,
  administrator: false,
};

async function openTab(user?: SessionUser) {
  renderWithProviders(<AdministrationPage user={user} />);
  if (!user) await userEvent.click(screen.getByRole('tab', { name: 'Freigaben' }));
  return screen.findByRole('button', { name: 'Regeln speichern' });
}

describe('AdministrationPage: Freigaben', () => {
  it('shows legal staff only the approval rules, with the defaults of a new database', async () => {
    stubApi({ [RULES]: jsonResponse(200, view()) });
    await openTab(lena);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Freigaben']);
    expect(screen.getByRole('switch', { name: /^Marge prüfen/ })).toBeChecked();
    for (const company of ['WM', 'WE', 'WP']) {
      expect(screen.getByRole('textbox', { name: `Schwellenwert ${company} (%)` })).toHaveValue('15');
    }
    expect(screen.getByRole('switch', { name: /^Nach der Erstellung geänderter Text/ })).toBeChecked();
    expect(screen.getByRole('switch', { name: /^Geänderte markierte Absätze/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Leitung (Stufe 3)' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Legal (Stufe 2)' })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Reihenfolge' })).toHaveValue('Erst Leitung, dann Legal');
    expect(screen.getByRole('textbox', { name: /^Arbeitstage, bis auch die zweite Gruppe/ })).toHaveValue(
      '2',
    );
    expect(screen.getByText('Voreinstellung')).toBeInTheDocument();
  });

  it('names wrong values in German and saves nothing until they are right', async () => {
    const api = stubApi({
      [RULES]: jsonResponse(200, view()),
      [SAVE]: jsonResponse(
        200,
        view({ version: '2', changedBy: 'legal@demo.local', changedAt: '2026-11-26T10:00:00Z' }),
      ),
    });
    await openTab();
    const wm = screen.getByRole('textbox', { name: 'Schwellenwert WM (%)' });
    await userEvent.clear(wm);
    await userEvent.type(wm, '150');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Leitung (Stufe 3)' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Legal (Stufe 2)' }));
    await userEvent.click(screen.getByRole('textbox', { name: /^Vertretungen/ }));
    // Pasted: typed key by key, the whole form would render once per letter.
    await userEvent.paste('kein-mail');
    await userEvent.click(screen.getByRole('button', { name: 'Regeln speichern' }));

    expect(
      await screen.findByText('Der Schwellenwert muss ein Prozentsatz zwischen 0 und 100 sein.'),
    ).toBeInTheDocument();
    expect(wm).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Bitte wähle mindestens eine Gruppe, die freigibt.')).toBeInTheDocument();
    expect(screen.getByText('Keine gültige E-Mail-Adresse für eine Vertretung.')).toBeInTheDocument();
    expect(screen.getByText('Bitte korrigiere die rot markierten Angaben.')).toBeInTheDocument();
    expect(api.callsTo(SAVE)).toHaveLength(0);

    await userEvent.clear(wm);
    await userEvent.type(wm, '12,5');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Leitung (Stufe 3)' }));
    const deputies = screen.getByRole('textbox', { name: /^Vertretungen/ });
    await userEvent.clear(deputies);
    await userEvent.click(deputies);
    await userEvent.paste('Anna.Albrecht@demo.local');
    await userEvent.click(screen.getByRole('button', { name: 'Regeln speichern' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]?.body).toEqual({
      version: '1',
      rules: {
        ...DEFAULT_APPROVAL_RULES,
        margin: { enabled: true, thresholds: { wm: 12.5, we: 15, wp: 15 } },
        approvers: { order: ['leaders'], escalationWorkingDays: 2 },
        deputies: ['anna.albrecht@demo.local'],
      },
    });
    expect(await screen.findByText('Die Freigaberegeln sind gespeichert.')).toBeInTheDocument();
    expect(await screen.findByText(/^Zuletzt geändert von legal@demo\.local am /)).toBeInTheDocument();
  });

  it('puts legal first and names document types that always need approval', async () => {
    const api = stubApi({
      [RULES]: jsonResponse(200, view()),
      [SAVE]: jsonResponse(200, view({ version: '2' })),
    });
    await openTab();
    await userEvent.click(screen.getByRole('combobox', { name: 'Reihenfolge' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Erst Legal, dann Leitung' }));
    const days = screen.getByRole('textbox', { name: /^Arbeitstage, bis auch die zweite Gruppe/ });
    await userEvent.clear(days);
    await userEvent.type(days, '3');
    await userEvent.click(screen.getByPlaceholderText('Dokumenttyp suchen'));
    await userEvent.paste('Kündig');
    await userEvent.click(await screen.findByRole('option', { name: 'Kündigung' }));
    await userEvent.click(screen.getByRole('switch', { name: /^Nach der Erstellung geänderter Text/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Regeln speichern' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]?.body.rules).toEqual({
      ...DEFAULT_APPROVAL_RULES,
      editedText: false,
      documentTypes: ['termination'],
      approvers: { order: ['legal', 'leaders'], escalationWorkingDays: 3 },
    });
  });

  it('sends that changed marked paragraphs need no approval once the switch is off', async () => {
    const api = stubApi({
      [RULES]: jsonResponse(200, view()),
      [SAVE]: jsonResponse(200, view({ version: '2' })),
    });
    await openTab();
    const marked = screen.getByRole('switch', { name: /^Geänderte markierte Absätze/ });
    expect(marked).toHaveAccessibleDescription(
      /^Ein Dokument, dessen als ‚Änderung braucht Freigabe‘ markierter Absatz einer Vorlage geändert wurde\./,
    );
    await userEvent.click(marked);
    expect(marked).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Regeln speichern' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]?.body).toEqual({
      version: '1',
      rules: { ...DEFAULT_APPROVAL_RULES, markedParagraphs: false },
    });
  });

  it('shows switched-off marked paragraphs as off and switches them on again', async () => {
    const off = { ...DEFAULT_APPROVAL_RULES, markedParagraphs: false };
    const api = stubApi({
      [RULES]: jsonResponse(200, view({ rules: off })),
      [SAVE]: jsonResponse(200, view({ version: '2' })),
    });
    await openTab();
    const marked = screen.getByRole('switch', { name: /^Geänderte markierte Absätze/ });
    expect(marked).not.toBeChecked();
    await userEvent.click(marked);
    await userEvent.click(screen.getByRole('button', { name: 'Regeln speichern' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]?.body.rules.markedParagraphs).toBe(true);
  });

  it('shows the server’s refusal, and after someone else saved offers their rules', async () => {
    stubApi({
      [RULES]: [
        jsonResponse(200, view()),
        jsonResponse(200, view({ version: '7', rules: { ...DEFAULT_APPROVAL_RULES, editedText: false } })),
      ],
      [SAVE]: jsonResponse(409, {
        error: 'conflict',
        message: 'Die Regeln wurden inzwischen von ops@demo.local geändert. Bitte lade sie neu.',
      }),
    });
    await openTab();
    await userEvent.click(screen.getByRole('button', { name: 'Regeln speichern' }));
    const alert = (await screen.findByText(/inzwischen von ops@demo\.local geändert/)).closest(
      '[role="alert"]',
    ) as HTMLElement;
    await userEvent.click(within(alert).getByRole('button', { name: 'Neu laden' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: /^Nach der Erstellung geänderter Text/ })).not.toBeChecked(),
    );
  });

  it('lets legal staff change the rules but not the deputies, which administrators name', async () => {
    const named = { ...DEFAULT_APPROVAL_RULES, deputies: ['anna.albrecht@demo.local'] };
    const api = stubApi({
      [RULES]: jsonResponse(200, view({ rules: named, mayNameDeputies: false })),
      [SAVE]: jsonResponse(200, view({ version: '2', rules: named, mayNameDeputies: false })),
    });
    await openTab(lena);
    const deputies = screen.getByRole('textbox', { name: /^Vertretungen/ });
    expect(deputies).toBeDisabled();
    expect(deputies).toHaveValue('anna.albrecht@demo.local');
    expect(
      screen.getByText(/Vertretungen benennt nur Team-Operations \(Administration\)\./),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: /^Nach der Erstellung geänderter Text/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Regeln speichern' }));
    await waitFor(() => expect(api.callsTo(SAVE)).toHaveLength(1));
    expect(api.callsTo(SAVE)[0]?.body.rules).toEqual({ ...named, editedText: false });
  });

  it('shows the rules read-only to whoever may not change them', async () => {
    stubApi({ [RULES]: jsonResponse(200, view({ mayChange: false })) });
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Freigaben' }));
    expect(await screen.findByText('Die Regeln ändern Team-Operations und Legal.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: /^Marge prüfen/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Regeln speichern' })).not.toBeInTheDocument();
  });
});
