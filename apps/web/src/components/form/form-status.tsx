import { Stack, Text } from '@mantine/core';
import { texts } from '@/texts';
import type { FormValidation } from './use-form-validation';

/** The live counter and, after a failed submit attempt, the red message. */
export function FormStatus({ validation }: { validation: FormValidation }) {
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {texts.forms.counter(validation.filled, validation.total)}
      </Text>
      {validation.incomplete && (
        <Text c="red" role="alert">
          {texts.forms.fillRedFields}
        </Text>
      )}
    </Stack>
  );
}
