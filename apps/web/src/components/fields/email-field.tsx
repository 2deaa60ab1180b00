import { Fieldset, Group, TextInput } from '@mantine/core';
import { texts } from '@/texts';
import { type EmailEntry, emailEntryProblems } from './validation';

export interface EmailFieldProps {
  label: string;
  value: EmailEntry;
  onChange: (value: EmailEntry) => void;
  required?: boolean;
  showErrors?: boolean;
  serverError?: string | undefined;
}

/**
 * A person to address: name and email. Required needs both and a valid email; optional may
 * stay empty but must be complete and valid once filled.
 */
export function EmailField({
  label,
  value,
  onChange,
  required = false,
  showErrors = false,
  serverError,
}: EmailFieldProps) {
  const problems = emailEntryProblems(value, required);
  return (
    <Fieldset legend={label} variant="unstyled">
      <Group grow align="flex-start">
        <TextInput
          label={texts.fields.name(label)}
          value={value.name}
          onChange={(event) => onChange({ ...value, name: event.currentTarget.value })}
          required={required}
          autoComplete="off"
          // The server's words stand under the address; the name is only marked with it.
          error={(showErrors && problems.name && texts.fields.errors.name) || Boolean(serverError)}
        />
        <TextInput
          label={texts.fields.email(label)}
          type="email"
          value={value.email}
          onChange={(event) => onChange({ ...value, email: event.currentTarget.value })}
          required={required}
          autoComplete="off"
          error={serverError ?? (showErrors && problems.email && texts.fields.errors.email)}
        />
      </Group>
    </Fieldset>
  );
}
