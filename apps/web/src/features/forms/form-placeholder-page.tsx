import { Stack, Text, Title } from '@mantine/core';
import type { FormName } from '@vertragsgenerator/domain';
import { texts } from '../../texts';

/** Stands in for a document form until that form is built. */
export function FormPlaceholderPage({ form }: { form: FormName }) {
  return (
    <Stack>
      <Title order={1}>{texts.forms[form]}</Title>
      <Text>{texts.formPlaceholder}</Text>
    </Stack>
  );
}
