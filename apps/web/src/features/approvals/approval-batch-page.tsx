import { Alert, Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ApprovalBatch,
  type ApprovalRequest,
  formatDateTime,
  type SessionUser,
} from '@vertragsgenerator/domain';
import { type ReactNode, useId, useState } from 'react';
import { Link, useParams, useRouteLoaderData } from 'react-router';
import { RecordLoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { PATHS, SESSION_ROUTE } from '@/lib/paths';
import { APPROVALS_QUERY_KEY, approvalBatchQueryOptions, approve, approveBatch, decline } from './api';
import { ApprovalComment, DeclineDialog } from './approval-decision';
import { ApprovalStatusBadge } from './approval-status-badge';
import { ReasonList, ReasonTexts } from './reason-list';
import { approvalTexts } from './texts';

const t = approvalTexts.batch;

function BackLink() {
  return (
    <Anchor component={Link} to={PATHS.approvals} size="sm">
      ← {t.back}
    </Anchor>
  );
}

/** The deals the caller may decide now. */
const decidable = (batch: ApprovalBatch) =>
  batch.requests.filter((request) => request.status === 'open' && request.mayDecide);

/**
 * The decisions of the page — all at once, or one deal's approval or decline — each followed by the
 * batch and /freigaben loaded again. A refusal (four eyes, another approver first) is the server's words.
 */
function useDecisions(batchId: string) {
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string | null>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: APPROVALS_QUERY_KEY });
  const refused = (error: Error) => {
    setRefusal(errorMessage(error));
    reload();
  };
  const all = useMutation({
    mutationFn: (comment: string) => approveBatch(batchId, comment),
    onMutate: () => setRefusal(null),
    onError: refused,
    onSuccess: (outcome) => {
      queryClient.setQueryData(approvalBatchQueryOptions(batchId).queryKey, outcome.batch);
      notifications.show({ color: 'green', message: t.approvedAll(outcome.approved, outcome.skipped) });
      reload();
    },
  });
  const one = useMutation({
    mutationFn: (request: ApprovalRequest) => approve(request.id, ''),
    onMutate: () => setRefusal(null),
    onError: refused,
    onSuccess: (_answer, request) => {
      notifications.show({ color: 'green', message: t.approvedOne(request.matchId) });
      reload();
    },
  });
  const refusing = useMutation({
    mutationFn: ({ request, reason }: { request: ApprovalRequest; reason: string }) =>
      decline(request.id, reason),
    onMutate: () => setRefusal(null),
    onError: refused,
    onSuccess: (_answer, { request }) => {
      notifications.show({ color: 'green', message: t.declinedOne(request.matchId) });
      reload();
    },
  });
  return {
    all,
    one,
    refusing,
    refusal,
    busy: all.isPending || one.isPending || refusing.isPending,
  };
}

type Decisions = ReturnType<typeof useDecisions>;

/** „Alle freigeben (N)“ with one optional comment; or why the caller cannot decide here. */
function DecideAll({
  batch,
  decisions,
  userEmail,
}: {
  batch: ApprovalBatch;
  decisions: Decisions;
  userEmail: string | null;
}) {
  const headingId = useId();
  const helpId = useId();
  const [comment, setComment] = useState('');
  const open = decidable(batch).length;
  let body: ReactNode;
  if (batch.mayDecide) {
    body = (
      <Stack gap="sm" maw={720}>
        <ApprovalComment value={comment} onChange={setComment} description={t.commentDescription} />
        <Text size="sm" c="dimmed" id={helpId}>
          {t.approveAllHelp}
        </Text>
        <Group>
          <Button
            color="teal.9"
            loading={decisions.all.isPending}
            disabled={open === 0 || decisions.busy}
            aria-describedby={helpId}
            onClick={() => decisions.all.mutate(comment)}
          >
            {t.approveAll(open)}
          </Button>
        </Group>
      </Stack>
    );
  } else if (batch.open === 0) {
    body = <Text>{t.nothingOpen}</Text>;
  } else {
    body = <Text>{batch.requestedBy.email === userEmail ? t.ownBatch : t.notYours}</Text>;
  }
  return (
    <section aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId} mb="xs">
        {t.decisionHeading}
      </Title>
      {body}
    </section>
  );
}

/** Every deal's request: its match, file, reasons and status, and for an open one the caller may decide, the decision. */
function DealTable({
  batch,
  decisions,
  onDecline,
}: {
  batch: ApprovalBatch;
  decisions: Decisions;
  onDecline: (request: ApprovalRequest) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={950}>
      <Table verticalSpacing="sm" striped captionSide="top">
        <Table.Caption ta="left" fw={600}>
          {t.table}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.match}</Table.Th>
            <Table.Th>{t.customer}</Table.Th>
            <Table.Th>{t.file}</Table.Th>
            <Table.Th>{t.reasons}</Table.Th>
            <Table.Th>{t.status}</Table.Th>
            <Table.Th>{t.actions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {batch.requests.map((request) => (
            <Table.Tr key={request.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm" fw={600}>
                  {request.matchId}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{request.customer}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{request.fileName}</Text>
              </Table.Td>
              <Table.Td>
                <ReasonList request={request} size="xs" />
              </Table.Td>
              <Table.Td>
                <Stack gap={2} align="flex-start">
                  <ApprovalStatusBadge status={request.status} />
                  {request.decidedBy && (
                    <Text size="xs" c="dimmed">
                      {t.decidedBy(request.decidedBy.name)}
                    </Text>
                  )}
                  {request.comment && <Text size="xs">{request.comment}</Text>}
                </Stack>
              </Table.Td>
              <Table.Td>
                {request.status === 'open' && request.mayDecide && (
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      color="teal.9"
                      aria-label={t.approveOne(request.matchId)}
                      loading={decisions.one.isPending && decisions.one.variables?.id === request.id}
                      disabled={decisions.busy}
                      onClick={() => decisions.one.mutate(request)}
                    >
                      {approvalTexts.decision.approve}
                    </Button>
                    <Button
                      size="xs"
                      color="red.9"
                      variant="outline"
                      aria-label={t.declineOne(request.matchId)}
                      disabled={decisions.busy}
                      onClick={() => onDecline(request)}
                    >
                      {approvalTexts.decision.decline}
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function BatchView({ batch, userEmail }: { batch: ApprovalBatch; userEmail: string | null }) {
  const decisions = useDecisions(batch.batchId);
  const [declining, setDeclining] = useState<ApprovalRequest | null>(null);
  const reasonsId = useId();
  return (
    <Stack maw={1200}>
      <BackLink />
      <div>
        <Title order={1}>{batch.title}</Title>
        <Text>
          {t.asks(
            batch.requestedBy.name,
            batch.requestedBy.email,
            formatDateTime(new Date(batch.requestedAt)),
          )}
        </Text>
        <Text fw={500} aria-live="polite">
          {approvalTexts.batchCounts(batch)}
        </Text>
      </div>
      <Paper withBorder p="md">
        <Stack>
          <section aria-labelledby={reasonsId}>
            <Title order={2} size="h4" id={reasonsId} mb="xs">
              {t.reasonsHeading}
            </Title>
            <ReasonTexts texts={batch.reasonTexts} />
          </section>
          <DecideAll batch={batch} decisions={decisions} userEmail={userEmail} />
        </Stack>
      </Paper>
      {decisions.refusal && (
        <Alert color="red" title={t.actionFailed} role="alert">
          {decisions.refusal}
        </Alert>
      )}
      <DealTable batch={batch} decisions={decisions} onDecline={setDeclining} />
      <DeclineDialog
        key={declining?.id ?? 'none'}
        opened={declining !== null}
        title={declining ? t.declineTitle(declining.matchId) : undefined}
        pending={decisions.refusing.isPending}
        onCancel={() => setDeclining(null)}
        onDecline={(reason) => {
          if (!declining || decisions.busy) return;
          decisions.refusing.mutate({ request: declining, reason }, { onSettled: () => setDeclining(null) });
        }}
      />
    </Stack>
  );
}

/** /freigaben/serien/:batchId — a batch's deals that need Freigabe, approved whole or deal by deal. */
export function ApprovalBatchPage() {
  const { batchId = '' } = useParams();
  const user = useRouteLoaderData(SESSION_ROUTE) as SessionUser | null;
  const batch = useQuery(approvalBatchQueryOptions(batchId));
  if (batch.data) return <BatchView batch={batch.data} userEmail={user?.email ?? null} />;
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
