import { Stack } from '@mantine/core';
import { texts } from '@/texts';
import { EmailField } from './email-field';
import { NumberField } from './number-field';
import { type EmailEntry, REPEATED_EMAIL_MAX, REPEATED_EMAIL_MIN, resizeEntries } from './validation';

export interface RepeatedEmailFieldProps {
  /** Names the entries (`<label> 1`, `<label> 2` …). */
  label: string;
  /** Names the count input; without it the count is fixed by the form. */
  countLabel?: string;
  value: readonly EmailEntry[];
  onChange: (value: EmailEntry[]) => void;
  /** Bounds of the count, within 1–10. */
  min?: number;
  max?: number;
  required?: boolean;
  showErrors?: boolean;
  serverErrors?: ReadonlyArray<string | undefined>;
}

/** Several people to address, each a name and email: 1–10 entries, each complete when required. */
export function RepeatedEmailField({
  label,
  countLabel,
  value,
  onChange,
  min = REPEATED_EMAIL_MIN,
  max = REPEATED_EMAIL_MAX,
  required = false,
  showErrors = false,
  serverErrors = [],
}: RepeatedEmailFieldProps) {
  const lower = Math.max(min, REPEATED_EMAIL_MIN);
  const upper = Math.min(max, REPEATED_EMAIL_MAX);
  return (
    <Stack gap="xs">
      {countLabel !== undefined && (
        <NumberField
          label={countLabel}
          value={value.length}
          // Emptying the count while typing keeps the entries; the next digit decides.
          onChange={(count) => count !== null && onChange(resizeEntries(value, count))}
          min={lower}
          max={upper}
          allowDecimal={false}
          required
        />
      )}
      {value.map((entry, index) => (
        <EmailField
          // The entries have no identity beyond their position: the count adds and removes at the end.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          label={
            value.length === 1 && countLabel === undefined ? label : texts.fields.entry(label, index + 1)
          }
          value={entry}
          onChange={(next) => onChange(value.map((old, i) => (i === index ? next : old)))}
          required={required}
          showErrors={showErrors}
          serverError={serverErrors[index]}
        />
      ))}
    </Stack>
  );
}
