import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ClauseDetail } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { CLAUSES_QUERY_KEY, deleteClause } from './api';
import { CLAUSE_PATHS } from './paths';
import { clauseTexts } from './texts';

const t = clauseTexts.remove;

/**
 * `Klausel löschen`, after asking. The button stays offered while the clause is used: the server
 * decides, and its refusal names what holds the clause.
 */
export function DeleteClause({ clause }: { clause: ClauseDetail }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const removal = useSingleMutation({
    mutationFn: () => deleteClause(clause.key),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [...CLAUSES_QUERY_KEY, clause.key] });
      void queryClient.invalidateQueries({ queryKey: CLAUSES_QUERY_KEY, exact: true });
      navigate(CLAUSE_PATHS.clauses);
    },
    onError: () => setConfirming(false),
  });

  return (
    <section aria-labelledby="delete-heading">
      <Title order={3} size="h4" id="delete-heading" mb="xs">
        {t.heading}
      </Title>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t.intro}</Text>
        <Button color="red.9" variant="outline" onClick={() => setConfirming(true)}>
          {t.button}
        </Button>
        <div aria-live="polite">
          {removal.isError && <Alert color="red">{errorMessage(removal.error)}</Alert>}
        </div>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t.title(clause.name)}>
        <Stack>
          <Text size="sm">{t.confirmText}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              {t.cancel}
            </Button>
            <Button color="red.8" loading={removal.isPending} onClick={() => removal.mutate(undefined)}>
              {t.confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </section>
  );
}
