import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { EmailField } from './email-field';
import { NumberField } from './number-field';
import { NO_RECIPIENT, type Recipient, RecipientSelect } from './recipient-select';
import { RepeatedEmailField } from './repeated-email-field';
import { SelectField } from './select-field';
import { TextField } from './text-field';
import type { EmailEntry } from './validation';

function Stateful<T>({
  initial,
  children,
}: {
  initial: T;
  children: (value: T, set: (v: T) => void) => ReactNode;
}) {
  const [value, setValue] = useState(initial);
  return <>{children(value, setValue)}</>;
}

describe('SelectField', () => {
  it('is labelled, unmarked before a submit attempt, and marked while required and empty', () => {
    const options = [{ value: 'de', label: 'Deutsch' }];
    renderWithProviders(
      <>
        <SelectField label="Vorher" options={options} value={null} onChange={() => {}} required />
        <SelectField label="Nachher" options={options} value={null} onChange={() => {}} required showErrors />
        <SelectField label="Gewählt" options={options} value="de" onChange={() => {}} required showErrors />
      </>,
    );
    expect(screen.getByRole('combobox', { name: 'Vorher' })).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('combobox', { name: 'Nachher' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('combobox', { name: 'Gewählt' })).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('offers its options and reports the chosen value', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <SelectField
        label="Sprache"
        options={[
          { value: 'de', label: 'Deutsch' },
          { value: 'en', label: 'Englisch' },
        ]}
        value={null}
        onChange={onChange}
        required
        showErrors
      />,
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Sprache' }));
    await userEvent.click(screen.getByRole('option', { name: 'Englisch' }));
    expect(onChange).toHaveBeenCalledWith('en');
  });

  it('accepts an empty optional choice', () => {
    renderWithProviders(<SelectField label="CC" options={[]} value={null} onChange={() => {}} showErrors />);
    expect(screen.getByRole('combobox', { name: 'CC' })).not.toHaveAttribute('aria-invalid', 'true');
  });
});

describe('TextField', () => {
  it('marks a blank required value, not a filled one', async () => {
    renderWithProviders(
      <Stateful initial="  ">
        {(value, set) => <TextField label="Position" value={value} onChange={set} required showErrors />}
      </Stateful>,
    );
    const input = screen.getByRole('textbox', { name: 'Position' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(input, 'Entwicklerin');
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
  });
});

describe('NumberField', () => {
  function renderNumber(onValue: (value: number | null) => void) {
    renderWithProviders(
      <Stateful<number | null> initial={null}>
        {(value, set) => (
          <NumberField
            label="Projekttage"
            value={value}
            onChange={(next) => {
              onValue(next);
              set(next);
            }}
            min={1}
            max={100}
            required
            showErrors
          />
        )}
      </Stateful>,
    );
    return screen.getByRole('textbox', { name: 'Projekttage' });
  }

  it('clamps to its maximum and marks an empty required value', async () => {
    const onValue = vi.fn();
    const input = renderNumber(onValue);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(input, '250');
    expect(onValue).toHaveBeenLastCalledWith(100);
    expect(input).toHaveValue('100');
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('clamps to its minimum and treats an emptied input as none', async () => {
    const onValue = vi.fn();
    const input = renderNumber(onValue);
    await userEvent.type(input, '0');
    expect(onValue).toHaveBeenLastCalledWith(1);
    await userEvent.clear(input);
    expect(onValue).toHaveBeenLastCalledWith(null);
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('EmailField', () => {
  function renderEmail(required: boolean, initial: EmailEntry = { name: '', email: '' }) {
    renderWithProviders(
      <Stateful initial={initial}>
        {(value, set) => (
          <EmailField label="Projektpartner" value={value} onChange={set} required={required} showErrors />
        )}
      </Stateful>,
    );
    return {
      name: screen.getByRole('textbox', { name: 'Projektpartner Name' }),
      email: screen.getByRole('textbox', { name: 'Projektpartner E-Mail' }),
    };
  }

  it('required: marks the missing name and the invalid email separately', async () => {
    const { name, email } = renderEmail(true);
    expect(screen.getByRole('group', { name: 'Projektpartner' })).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(name, 'Carla Projekt');
    await userEvent.type(email, 'carla@projekt');
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(email, '.de');
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('optional: empty is fine, a filled but invalid email is not', async () => {
    const { name, email } = renderEmail(false);
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(name, 'Eva');
    await userEvent.type(email, 'eva(at)demo.de');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(email);
    await userEvent.type(email, 'eva@demo.de');
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
  });
});

describe('RepeatedEmailField', () => {
  it('adds and removes entries with the count, bounded by 1 and its maximum', async () => {
    renderWithProviders(
      <Stateful<EmailEntry[]> initial={[{ name: 'Eva', email: 'eva@demo.de' }]}>
        {(value, set) => (
          <RepeatedEmailField
            label="Unterzeichner Kunde"
            countLabel="Anzahl Unterschriftsblöcke Kunde"
            value={value}
            onChange={set}
            max={2}
            required
            showErrors
          />
        )}
      </Stateful>,
    );
    const count = screen.getByRole('textbox', { name: 'Anzahl Unterschriftsblöcke Kunde' });
    await userEvent.clear(count);
    await userEvent.type(count, '5');
    expect(count).toHaveValue('2');
    expect(screen.getByRole('textbox', { name: 'Unterzeichner Kunde 1 Name' })).toHaveValue('Eva');
    // Every entry is required: the new, empty one is marked.
    expect(screen.getByRole('textbox', { name: 'Unterzeichner Kunde 2 Name' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(screen.getByRole('textbox', { name: 'Unterzeichner Kunde 1 Name' })).not.toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await userEvent.clear(count);
    await userEvent.type(count, '0');
    expect(count).toHaveValue('1');
    expect(screen.queryByRole('textbox', { name: 'Unterzeichner Kunde 2 Name' })).not.toBeInTheDocument();
  });

  it('allows at most ten entries', async () => {
    renderWithProviders(
      <Stateful<EmailEntry[]> initial={[{ name: '', email: '' }]}>
        {(value, set) => (
          <RepeatedEmailField label="Empfänger" countLabel="Anzahl" value={value} onChange={set} />
        )}
      </Stateful>,
    );
    const count = screen.getByRole('textbox', { name: 'Anzahl' });
    await userEvent.clear(count);
    await userEvent.type(count, '12');
    expect(count).toHaveValue('10');
    expect(screen.getAllByRole('group')).toHaveLength(10);
  });
});

describe('RecipientSelect', () => {
  const users = [
    { Name: 'Zoe Zeller', Email: 'zoe@demo.local' },
    { Name: 'Anna Aster', Email: 'anna@demo.local' },
  ];

  function renderRecipient(required: boolean, onValue = vi.fn()) {
    renderWithProviders(
      <Stateful<Recipient> initial={NO_RECIPIENT}>
        {(value, set) => (
          <RecipientSelect
            label="Absender"
            value={value}
            onChange={(next) => {
              onValue(next);
              set(next);
            }}
            required={required}
            showErrors
          />
        )}
      </Stateful>,
    );
    return screen.getByRole('combobox', { name: 'Absender' });
  }

  it('lists the users sorted by name, then "Eigener Wert...", and takes a chosen user', async () => {
    const api = stubApi({ 'GET /backend/users': jsonResponse(200, users) });
    const onValue = vi.fn();
    const select = renderRecipient(true, onValue);
    expect(select).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(select);
    const listbox = await screen.findByRole('listbox');
    await within(listbox).findByRole('option', { name: 'Anna Aster' });
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Anna Aster', 'Zoe Zeller', 'Eigener Wert...']);
    await userEvent.click(within(listbox).getByRole('option', { name: 'Zoe Zeller' }));
    expect(onValue).toHaveBeenLastCalledWith({ name: 'Zoe Zeller', email: 'zoe@demo.local', custom: false });
    expect(select).not.toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('GET /backend/users')).toHaveLength(1);
  });

  it('"Eigener Wert..." opens a name and email input with the email rules', async () => {
    stubApi({ 'GET /backend/users': jsonResponse(200, users) });
    const onValue = vi.fn();
    const select = renderRecipient(true, onValue);
    expect(screen.queryByRole('textbox', { name: 'Absender Name' })).not.toBeInTheDocument();
    await userEvent.click(select);
    await userEvent.click(await screen.findByRole('option', { name: 'Eigener Wert...' }));
    const name = screen.getByRole('textbox', { name: 'Absender Name' });
    const email = screen.getByRole('textbox', { name: 'Absender E-Mail' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(name, 'Externe Person');
    await userEvent.type(email, 'extern@firma.de');
    expect(email).not.toHaveAttribute('aria-invalid', 'true');
    expect(onValue).toHaveBeenLastCalledWith({
      name: 'Externe Person',
      email: 'extern@firma.de',
      custom: true,
    });
  });

  it('optional: may stay empty', () => {
    stubApi({ 'GET /backend/users': jsonResponse(200, users) });
    const select = renderRecipient(false);
    expect(select).not.toHaveAttribute('aria-invalid', 'true');
  });
});
