import { TextInput } from '@mantine/core';
import { texts } from '@/texts';
import { isTextValid } from './validation';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  showErrors?: boolean;
  serverError?: string | undefined;
  /** `date` is the browser's own date picker: the value is an ISO day (2027-03-31) or empty. */
  type?: 'text' | 'email' | 'date';
  autoComplete?: string;
}

/** Free text; required means non-blank after trimming. */
export function TextField({
  label,
  value,
  onChange,
  required = false,
  showErrors = false,
  serverError,
  type = 'text',
  autoComplete = 'off',
}: TextFieldProps) {
  const invalid = showErrors && !isTextValid(value, required);
  return (
    <TextInput
      label={label}
      type={type}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      required={required}
      autoComplete={autoComplete}
      error={serverError ?? (invalid && texts.fields.errors.required)}
    />
  );
}
