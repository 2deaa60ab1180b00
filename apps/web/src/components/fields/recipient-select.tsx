import { Select, Stack, Text } from '@mantine/core';
import { useDirectoryUsers } from '@/lib/users-api';
import { texts } from '@/texts';
import { EmailField } from './email-field';
import { type EmailEntry, isEmailEntryValid } from './validation';

/** A person from the staff directory, or one typed in after choosing `Eigener Wert...`. */
export interface Recipient extends EmailEntry {
  custom: boolean;
}

export const NO_RECIPIENT: Recipient = { name: '', email: '', custom: false };

const CUSTOM_VALUE = '__custom__';

export interface RecipientSelectProps {
  label: string;
  value: Recipient;
  onChange: (value: Recipient) => void;
  required?: boolean;
  showErrors?: boolean;
  serverError?: string | undefined;
}

/** Staff sorted by name, then `Eigener Wert...`, which opens a name/email input. */
export function RecipientSelect({
  label,
  value,
  onChange,
  required = false,
  showErrors = false,
  serverError,
}: RecipientSelectProps) {
  const users = useDirectoryUsers();
  const options = [
    ...(users.data ?? []).map((user) => ({ value: user.Email, label: user.Name })),
    { value: CUSTOM_VALUE, label: texts.fields.customRecipient },
  ];
  const selected = value.custom ? CUSTOM_VALUE : value.email || null;
  const invalid = showErrors && !value.custom && !isEmailEntryValid(value, required);

  function choose(choice: string | null) {
    if (choice === CUSTOM_VALUE) return onChange({ name: '', email: '', custom: true });
    const user = users.data?.find((candidate) => candidate.Email === choice);
    onChange(user ? { name: user.Name, email: user.Email, custom: false } : NO_RECIPIENT);
  }

  return (
    <Stack gap="xs">
      <Select
        label={label}
        data={options}
        value={selected}
        onChange={choose}
        required={required}
        allowDeselect={!required}
        clearable={!required}
        searchable
        nothingFoundMessage="—"
        error={value.custom ? false : (serverError ?? (invalid && texts.fields.errors.choose))}
      />
      {users.isError && (
        <Text size="sm" c="dimmed">
          {texts.fields.usersFailed}
        </Text>
      )}
      {value.custom && (
        <EmailField
          label={label}
          value={value}
          onChange={(entry) => onChange({ ...entry, custom: true })}
          required={required}
          showErrors={showErrors}
          serverError={serverError}
        />
      )}
    </Stack>
  );
}
