import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CountersignatureOrder, CountersignatureSetting } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { AdministrationPage } from './administration-page';

const settings = (contract: boolean): CountersignatureSetting[] => [
  {
    family: 'contract',
    label: 'Vertrag',
    withoutAllowed: contract,
    changedBy: contract ? null : 'ops@demo.local',
    changedAt: contract ? null : '2026-11-25T08:00:00.000Z',
  },
  { family: 'termination', label: 'Kündigung', withoutAllowed: true, changedBy: null, changedAt: null },
  { family: 'offer', label: 'Angebot', withoutAllowed: true, changedBy: null, changedAt: null },
  {
    family: 'agreement',
    label: 'Zusatzvereinbarung',
    withoutAllowed: true,
    changedBy: null,
    changedAt: null,
  },
];

const order = (rahmenvertragDe: CountersignatureOrder['position']): CountersignatureOrder[] =>
  ['einzelauftrag-de.docx', 'rahmenvertrag-de.docx'].map((template) =>
    template === 'rahmenvertrag-de.docx' && rahmenvertragDe === 'first'
      ? { template, position: 'first', changedBy: 'ops@demo.local', changedAt: '2026-11-26T09:30:00.000Z' }
      : { template, position: 'last', changedBy: null, changedAt: null },
  );
const ORDER = 'GET /backend/admin/countersignature/order';

describe('AdministrationPage: Gegenzeichnung', () => {
  it('switches sending without a countersignatory per family and shows who changed it', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/countersignature': [
        jsonResponse(200, settings(true)),
        jsonResponse(200, settings(false)),
      ],
      'PUT /backend/admin/countersignature/contract': jsonResponse(200, settings(false)),
      [ORDER]: jsonResponse(200, order('last')),
    });
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Gegenzeichnung' }));
    const contract = await screen.findByRole('switch', {
      // Mantine's label holds the description too.
      name: /^Vertrag: Ohne Gegenzeichnung senden erlaubt/,
    });
    expect(contract).toBeChecked();
    expect(
      screen.getByRole('switch', { name: /^Kündigung: Ohne Gegenzeichnung senden erlaubt/ }),
    ).toBeChecked();
    expect(contract).toHaveAccessibleDescription('Voreinstellung');

    await userEvent.click(contract);
    await waitFor(() => expect(api.callsTo('PUT /backend/admin/countersignature/contract')).toHaveLength(1));
    expect(api.callsTo('PUT /backend/admin/countersignature/contract')[0]?.body).toEqual({
      withoutAllowed: false,
    });
    await waitFor(() => expect(contract).not.toBeChecked());
    expect(contract).toHaveAccessibleDescription(/^Zuletzt geändert von ops@demo\.local am /);
  });

  it('has the company sign first or last per template', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/countersignature': jsonResponse(200, settings(true)),
      // After the change the tab reads the order again, as the server now keeps it.
      [ORDER]: [jsonResponse(200, order('last')), jsonResponse(200, order('first'))],
      'PUT /backend/admin/countersignature/order/rahmenvertrag-de.docx': jsonResponse(200, order('first')),
    });
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Gegenzeichnung' }));
    const framework = await screen.findByRole('radiogroup', { name: /^rahmenvertrag-de\.docx/ });
    const first = within(framework).getByRole('radio', { name: 'Firma zuerst' });
    expect(within(framework).getByRole('radio', { name: 'Firma zuletzt' })).toBeChecked();
    expect(first).not.toBeChecked();

    await userEvent.click(first);
    await waitFor(() =>
      expect(api.callsTo('PUT /backend/admin/countersignature/order/rahmenvertrag-de.docx')).toHaveLength(1),
    );
    expect(api.callsTo('PUT /backend/admin/countersignature/order/rahmenvertrag-de.docx')[0]?.body).toEqual({
      position: 'first',
    });
    await waitFor(() => expect(first).toBeChecked());
    // Only the changed template says who changed it; the families keep their default.
    expect(screen.getByText(/^Zuletzt geändert von ops@demo\.local am /)).toBeInTheDocument();
    const single = screen.getByRole('radiogroup', { name: /^einzelauftrag-de\.docx/ });
    expect(within(single).getByRole('radio', { name: 'Firma zuletzt' })).toBeChecked();
  });

  it('shows the server’s refusal in German', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/countersignature': jsonResponse(403, {
        error: 'forbidden',
        message: 'Die Verwaltung ist Team-Operations vorbehalten.',
      }),
    });
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Gegenzeichnung' }));
    expect(await screen.findByText('Die Verwaltung ist Team-Operations vorbehalten.')).toBeInTheDocument();
  });
});
