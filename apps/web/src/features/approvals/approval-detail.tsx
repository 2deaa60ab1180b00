import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { APPROVER_GROUP_LABELS, type ApprovalRequest, formatDateTime } from '@vertragsgenerator/domain';
import { useEffect, useId, useRef } from 'react';
import { DocumentViewer } from '@/components/document-viewer';
import { runDownload } from '@/components/download-button';
import { LoadFailed } from '@/components/load-failed';
import { hasChanges, ParagraphComparison } from '@/components/paragraph-comparison';
import { SectionLoader } from '@/components/section-loader';
import { comparisonQueryOptions, downloadApprovalDocument, loadApprovalDocument } from './api';
import { ApprovalDecision } from './approval-decision';
import { ApprovalStatusBadge } from './approval-status-badge';
import { ReasonList } from './reason-list';
import { approvalTexts } from './texts';

const t = approvalTexts.detail;

/** One request under review: who asks and why, the document, an edited text's changes, the decision. */
export function ApprovalDetail({
  request,
  userEmail,
  onClose,
}: {
  request: ApprovalRequest;
  userEmail: string | null;
  onClose: () => void;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from the list with the keyboard: the reader continues at the request, not at the button.
  useEffect(() => {
    heading.current?.focus();
  }, []);
  const edited = request.reasons.some((reason) => reason.kind === 'edited_text');
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="md">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Group gap="sm">
              <Title order={2} id={headingId} ref={heading} tabIndex={-1}>
                {t.heading(request.fileName)}
              </Title>
              <ApprovalStatusBadge status={request.status} />
            </Group>
            <Text>{t.matchLine(request.matchId, request.customer)}</Text>
            <Text size="sm">
              {t.asks(
                request.requestedBy.name,
                request.requestedBy.email,
                formatDateTime(new Date(request.requestedAt)),
              )}
            </Text>
          </Stack>
          <Button variant="default" onClick={onClose}>
            {t.close}
          </Button>
        </Group>
        <section aria-label={t.reasonsHeading}>
          <Title order={3} size="h4" mb="xs">
            {t.reasonsHeading}
          </Title>
          <ReasonList request={request} />
          {request.status === 'open' && request.currentGroups.length > 0 && (
            <Text size="sm" c="dimmed" mt="xs">
              {t.groups(request.currentGroups.map((group) => APPROVER_GROUP_LABELS[group]).join(', '))}
              {request.escalatesAt && ` ${t.escalates(formatDateTime(new Date(request.escalatesAt)))}`}
            </Text>
          )}
        </section>
        <ApprovalDecision request={request} userEmail={userEmail} />
        <Title order={3} size="h4">
          {t.documentHeading}
        </Title>
        <DocumentViewer
          documentKey={`approval:${request.id}:${request.documentVersion}`}
          pdf={false}
          load={(signal) => loadApprovalDocument(request.id, signal)}
          onDownload={() => void runDownload(() => downloadApprovalDocument(request))}
        />
        {edited && <EditedText id={request.id} />}
      </Stack>
    </Paper>
  );
}

/** The edited text against the one generated for the match, as the template library compares versions. */
function EditedText({ id }: { id: string }) {
  const comparison = useQuery(comparisonQueryOptions(id));
  const headingId = useId();
  let body: React.ReactNode;
  if (comparison.isPending) body = <SectionLoader height={120} />;
  else if (comparison.isError) {
    body = (
      <LoadFailed
        title={t.comparisonFailed}
        error={comparison.error}
        onRetry={() => void comparison.refetch()}
      />
    );
  } else if (!comparison.data.edited || !hasChanges(comparison.data.paragraphs)) {
    body = <Text>{t.comparisonNone}</Text>;
  } else {
    body = (
      <Stack gap="xs">
        <Text size="sm">{t.comparisonIntro(comparison.data.version, comparison.data.generatedVersion)}</Text>
        <ParagraphComparison
          paragraphs={comparison.data.paragraphs}
          texts={{
            label: t.comparisonRegion,
            added: t.added,
            removed: t.removed,
            keptParagraphs: t.keptParagraphs,
          }}
        />
      </Stack>
    );
  }
  return (
    <section aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId} mb="xs">
        {t.comparisonHeading}
      </Title>
      {body}
    </section>
  );
}
