import { NumberInput } from '@mantine/core';
import { texts } from '@/texts';
import { clampNumber, isNumberValid } from './validation';

export interface NumberFieldProps {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  min?: number;
  max?: number;
  required?: boolean;
  showErrors?: boolean;
  serverError?: string | undefined;
  allowDecimal?: boolean;
}

/** A number clamped to its bounds; empty means none, required means non-empty. */
export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  required = false,
  showErrors = false,
  serverError,
  allowDecimal = true,
}: NumberFieldProps) {
  const invalid = showErrors && !isNumberValid(value, required);
  return (
    <NumberInput
      label={label}
      value={value ?? ''}
      onChange={(next) => onChange(clampNumber(next === '' ? null : Number(next), min, max))}
      min={min}
      max={max}
      allowDecimal={allowDecimal}
      decimalSeparator=","
      required={required}
      error={serverError ?? (invalid && texts.fields.errors.required)}
    />
  );
}
