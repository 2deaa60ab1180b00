import { Select } from '@mantine/core';
import { texts } from '@/texts';
import { isSelectValid } from './validation';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  label: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  required?: boolean;
  /** Set after the first submit attempt: from then on an invalid value is marked. */
  showErrors?: boolean;
  /** What the server said about this field. */
  serverError?: string | undefined;
  disabled?: boolean;
}

/** A choice from a fixed list; required means a value is chosen. */
export function SelectField({
  label,
  options,
  value,
  onChange,
  required = false,
  showErrors = false,
  serverError,
  disabled,
}: SelectFieldProps) {
  const invalid = showErrors && !isSelectValid(value, required);
  return (
    <Select
      label={label}
      data={options as SelectOption[]}
      value={value}
      onChange={(next) => onChange(next)}
      required={required}
      allowDeselect={!required}
      clearable={!required}
      disabled={disabled}
      error={serverError ?? (invalid && texts.fields.errors.choose)}
    />
  );
}
