import { Checkbox, Stack, Text } from '@mantine/core';
import { texts } from '@/texts';
import type { OptionalClause } from './api';

/**
 * The clauses of the chosen document the person may add or leave out, each as its default says until they
 * tick or untick it; what they chose goes with the form as `dataList.klauseln`.
 */
export function OptionalClauses({
  clauses,
  chosen,
  onChange,
}: {
  clauses: OptionalClause[];
  chosen: Readonly<Record<string, boolean>>;
  onChange: (key: string, checked: boolean) => void;
}) {
  if (clauses.length === 0) return null;
  return (
    <Checkbox.Group
      label={texts.forms.optionalClauses}
      description={texts.forms.optionalClausesHint}
      value={clauses.filter((clause) => chosen[clause.key] ?? clause.checked).map((clause) => clause.key)}
      onChange={(keys) => {
        for (const clause of clauses) {
          const checked = keys.includes(clause.key);
          if (checked !== (chosen[clause.key] ?? clause.checked)) onChange(clause.key, checked);
        }
      }}
    >
      <Stack gap="xs" mt="xs">
        {clauses.map((clause) => (
          <Checkbox
            key={clause.key}
            value={clause.key}
            label={<Text size="sm">{texts.forms.optionalClause(clause.name, clause.variant)}</Text>}
          />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** Every offered clause with its state: the person's choice, else its default. */
export function clauseSwitches(
  clauses: OptionalClause[],
  chosen: Readonly<Record<string, boolean>>,
): Record<string, boolean> {
  return Object.fromEntries(clauses.map((clause) => [clause.key, chosen[clause.key] ?? clause.checked]));
}
