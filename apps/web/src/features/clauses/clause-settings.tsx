import { Alert, Button, Checkbox, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ClauseDetail, type ClauseSettings, clauseSettingsSchema } from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { useFirstInvalidFocus } from '@/components/form';
import { errorMessage } from '@/lib/api';
import { changeSettings, clauseListQueryOptions, clauseQueryOptions } from './api';
import { errorAt, fieldErrorsOf, NO_ERRORS, serverFieldErrors } from './content-draft';
import { clauseTexts } from './texts';

const t = clauseTexts.settings;
const c = clauseTexts.create;

/** `Einstellungen`: the clause's name and whether changing its text in a document needs Freigabe. */
export function ClauseSettingsForm({ clause }: { clause: ClauseDetail }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(clause.name);
  const [needsApproval, setNeedsApproval] = useState(clause.needsApproval);
  const [attempted, setAttempted] = useState(false);
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  const save = useMutation({
    mutationFn: (settings: ClauseSettings) => changeSettings(clause.key, settings),
    onSuccess: (detail) => {
      queryClient.setQueryData(clauseQueryOptions(clause.key).queryKey, detail);
      void queryClient.invalidateQueries({ queryKey: clauseListQueryOptions.queryKey, exact: true });
    },
    onError: () => focusFirstInvalid(),
  });

  const parsed = clauseSettingsSchema.safeParse({ name, needsApproval });
  const clientErrors = attempted && !parsed.success ? fieldErrorsOf(parsed.error) : NO_ERRORS;
  const error = (field: string) => errorAt(field, clientErrors, serverFieldErrors(save.error));

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    save.reset();
    if (parsed.success) save.mutate(parsed.data);
    else focusFirstInvalid();
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="settings-heading">
      <form ref={container} onSubmit={submit} noValidate>
        <Stack gap="sm" maw={640}>
          <Title order={2} size="h3" id="settings-heading">
            {t.heading}
          </Title>
          <Text size="sm" c="dimmed">
            {t.intro}
          </Text>
          <TextInput
            label={c.name}
            required
            maxLength={80}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={error('name')}
          />
          <Checkbox
            label={c.needsApproval}
            description={c.needsApprovalDescription}
            checked={needsApproval}
            onChange={(event) => setNeedsApproval(event.currentTarget.checked)}
            error={error('needsApproval')}
          />
          <div aria-live="polite">
            {save.isSuccess && <Alert color="green">{t.saved}</Alert>}
            {save.isError && <Alert color="red">{errorMessage(save.error)}</Alert>}
          </div>
          <Group>
            <Button type="submit" variant="default" loading={save.isPending}>
              {t.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
