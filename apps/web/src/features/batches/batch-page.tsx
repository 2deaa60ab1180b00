import { Alert, Anchor, Button, Group, Modal, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Batch, formatDateTime } from '@vertragsgenerator/domain';
import { type ReactNode, useId } from 'react';
import { Link, useParams } from 'react-router';
import { DownloadButton } from '@/components/download-button';
import { RecordLoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { PATHS } from '@/lib/paths';
import {
  BATCHES_QUERY_KEY,
  type BatchAction,
  batchQueryOptions,
  downloadPreview,
  runBatchAction,
} from './api';
import { BatchSendSummary } from './batch-send-summary';
import { BatchStatusBadge } from './batch-status-badge';
import { CheckTable, RunTable } from './batch-tables';
import { batchesTexts } from './texts';

const t = batchesTexts.batch;

/** At most this many previews of the check: the first deals that are ready. */
const PREVIEWS = 3;

function BackLink() {
  return (
    <Anchor component={Link} to={PATHS.batches} size="sm">
      ← {t.back}
    </Anchor>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** Start, retry and cancel: each answers the batch as it is now, which the page shows at once. */
function useBatchAction(batchId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = batchQueryOptions(batchId);
  return useMutation({
    mutationFn: (action: BatchAction) => runBatchAction(batchId, action),
    onSuccess: (batch) => {
      queryClient.setQueryData(queryKey, batch);
      void queryClient.invalidateQueries({ queryKey: [...BATCHES_QUERY_KEY, 'list'] });
    },
    onError: (error) => {
      // Started, finished or cancelled meanwhile (409): the page shows what the batch is now.
      if (error instanceof ApiRequestError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}

type ActionState = ReturnType<typeof useBatchAction>;

function ActionFailed({ action }: { action: ActionState }) {
  if (!action.isError) return null;
  return (
    <Alert color="red" title={t.actionFailed} role="alert">
      {errorMessage(action.error)}
    </Alert>
  );
}

/** While checked: what the check found, three previews and the start. */
function CheckView({ batch, action }: { batch: Batch; action: ActionState }) {
  const { ready, approval, cannot } = batch.counts;
  const previews = batch.items.filter((item) => item.verdict === 'ready').slice(0, PREVIEWS);
  const startable = ready + approval > 0;
  const startHelpId = useId();
  return (
    <>
      <Section title={t.check}>
        <Text fw={500}>{t.checkSummary(ready, approval, cannot)}</Text>
        {previews.length > 0 && (
          <Stack gap="xs">
            <Text size="sm">{t.previewsHelp}</Text>
            <Group gap="xs" role="group" aria-label={t.previews}>
              {previews.map((item) => (
                <DownloadButton key={item.id} size="xs" download={() => downloadPreview(batch.id, item)}>
                  {t.preview(item.matchId)}
                </DownloadButton>
              ))}
            </Group>
          </Stack>
        )}
        <Text size="sm" c="dimmed" id={startHelpId}>
          {startable ? t.startHelp : t.nothingToStart}
        </Text>
        <Group>
          <Button
            onClick={() => action.mutate('start')}
            loading={action.isPending && action.variables === 'start'}
            disabled={!startable}
            aria-describedby={startHelpId}
          >
            {t.start}
          </Button>
        </Group>
        <ActionFailed action={action} />
      </Section>
      <CheckTable items={batch.items} />
    </>
  );
}

/** Running, finished or cancelled: the progress, the counts, retry and cancel, and each deal's document. */
function RunView({ batch, action }: { batch: Batch; action: ActionState }) {
  const [confirming, dialog] = useDisclosure(false);
  const { ready, approval, done, waitingApproval, failed, cancelled, waiting, running } = batch.counts;
  // The deals the run makes (the check's „nicht möglich“ are skipped), and those it is through with.
  const made = ready + approval;
  const through = done + failed + cancelled;
  const percent = made === 0 ? 100 : Math.min(100, Math.round((through / made) * 100));

  function cancel() {
    dialog.close();
    action.mutate('cancel');
  }

  return (
    <>
      <Section title={t.progress}>
        <Progress
          value={percent}
          size="lg"
          aria-label={t.progressLabel}
          animated={batch.status === 'running'}
        />
        <Text aria-live="polite">
          {t.counts(done, failed, waiting + running)}
          {batch.status === 'running' && batch.secondsLeft !== null && ` · ${t.timeLeft(batch.secondsLeft)}`}
        </Text>
        {(waitingApproval > 0 || cancelled > 0) && (
          <Text size="sm" c="dimmed">
            {[
              waitingApproval > 0 && t.awaitingApproval(waitingApproval),
              cancelled > 0 && t.cancelledCount(cancelled),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        )}
        {(failed > 0 || waiting > 0) && (
          <Group>
            {failed > 0 && (
              <Button
                variant="default"
                onClick={() => action.mutate('retry')}
                loading={action.isPending && action.variables === 'retry'}
              >
                {t.retry}
              </Button>
            )}
            {waiting > 0 && (
              <Button
                variant="default"
                color="red"
                onClick={dialog.open}
                loading={action.isPending && action.variables === 'cancel'}
              >
                {t.cancel}
              </Button>
            )}
          </Group>
        )}
        <ActionFailed action={action} />
      </Section>
      <RunTable batchId={batch.id} items={batch.items} />
      <Modal opened={confirming} onClose={dialog.close} title={t.cancelTitle}>
        <Stack>
          <Text size="sm">{t.cancelText(waiting)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={dialog.close} data-autofocus>
              {t.cancelKeep}
            </Button>
            <Button color="red" onClick={cancel}>
              {t.cancelConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function BatchView({ batch }: { batch: Batch }) {
  const action = useBatchAction(batch.id);
  return (
    <Stack maw={1100}>
      <BackLink />
      <Group gap="sm" align="center">
        <Title order={1}>{batch.title}</Title>
        <BatchStatusBadge status={batch.status} />
      </Group>
      <Text c="dimmed">{t.created(formatDateTime(new Date(batch.createdAt)), batch.deals)}</Text>
      {batch.send && (
        <Section title={t.send}>
          <BatchSendSummary docKey={batch.docKey} send={batch.send} />
        </Section>
      )}
      {batch.status === 'checked' ? (
        <CheckView batch={batch} action={action} />
      ) : (
        <RunView batch={batch} action={action} />
      )}
    </Stack>
  );
}

/** /serien/:batchId — one batch: its check and start, then its progress and documents. */
export function BatchPage() {
  const { batchId = '' } = useParams();
  const batch = useQuery(batchQueryOptions(batchId));
  if (batch.data) return <BatchView batch={batch.data} />;
  if (batch.isError)
    return (
      <RecordLoadFailed
        back={<BackLink />}
        error={batch.error}
        notFoundTitle={t.notFoundTitle}
        loadFailedTitle={t.loadFailed}
        onRetry={() => void batch.refetch()}
      />
    );
  return <SectionLoader />;
}
