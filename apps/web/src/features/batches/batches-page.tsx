import { Paper, Stack, Text, Title } from '@mantine/core';
import type { SessionUser } from '@vertragsgenerator/domain';
import { useId } from 'react';
import { useRouteLoaderData, useSearchParams } from 'react-router';
import { BATCH_PREFILL_PARAMS, SESSION_ROUTE } from '@/lib/paths';
import { BatchesList } from './batches-list';
import { choiceOfKey, splitMatchIds } from './document-choice';
import { type BatchPrefill, NewBatchForm } from './new-batch-form';
import { batchesTexts as t } from './texts';

/**
 * /serien — Serien: a new batch (prefilled from `?dokument=<key>&matches=PL-1,PL-2` as far as the user may
 * make that document), and the user's batches.
 */
export function BatchesPage() {
  const user = useRouteLoaderData(SESSION_ROUTE) as SessionUser | null;
  const [search] = useSearchParams();
  const formHeading = useId();
  const listHeading = useId();
  const docKey = search.get(BATCH_PREFILL_PARAMS.document) ?? '';
  const matches = search.get(BATCH_PREFILL_PARAMS.matches) ?? '';
  const choice = docKey ? choiceOfKey(docKey, user?.permission) : undefined;
  const prefill: BatchPrefill = {
    kind: choice?.kind ?? null,
    params: choice?.params ?? {},
    matchIds: splitMatchIds(matches).join('\n'),
  };

  return (
    <Stack>
      <div>
        <Title order={1}>{t.heading}</Title>
        <Text c="dimmed">{t.intro}</Text>
      </div>
      <Paper withBorder p="md" component="section" aria-labelledby={formHeading}>
        <Stack>
          <Title order={2} size="h3" id={formHeading}>
            {t.form.heading}
          </Title>
          {/* Another prefilled address (a second „Verlängern“ from /vertraege) starts the form anew. */}
          <NewBatchForm key={`${docKey}|${matches}`} level={user?.permission} prefill={prefill} />
        </Stack>
      </Paper>
      <section aria-labelledby={listHeading}>
        <Stack>
          <Title order={2} size="h3" id={listHeading}>
            {t.list.heading}
          </Title>
          <BatchesList />
        </Stack>
      </section>
    </Stack>
  );
}
