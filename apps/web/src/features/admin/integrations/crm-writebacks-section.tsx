import { Alert, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CrmWriteback } from '@vertragsgenerator/domain';
import { useId } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { dateTime } from '../texts';
import { crmWritebacksQueryOptions, resendCrmWriteback } from './api';
import { integrationTexts } from './texts';

const t = integrationTexts.crm;
const format = (iso: string) => dateTime.format(new Date(iso));

/**
 * The CRM write-backs the outbox gave up, each with why, and `Erneut senden` once the cause is
 * fixed; one a later status of its envelope has overtaken is only shown (sent, it would overwrite that).
 */
export function CrmWritebacksSection() {
  const writebacks = useQuery(crmWritebacksQueryOptions);
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t.heading}
        </Title>
        {writebacks.isPending ? (
          <SectionLoader />
        ) : writebacks.isError ? (
          <Alert color="red">{errorMessage(writebacks.error)}</Alert>
        ) : !writebacks.data.configured && writebacks.data.givenUp.length === 0 ? (
          <Text size="sm">{t.notConfigured}</Text>
        ) : (
          <>
            <Text size="sm">{t.intro}</Text>
            {writebacks.data.givenUp.length === 0 ? (
              <Text size="sm">{t.none}</Text>
            ) : (
              <Table.ScrollContainer minWidth={800}>
                <Table aria-labelledby={headingId}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t.match}</Table.Th>
                      <Table.Th>{t.status}</Table.Th>
                      <Table.Th>{t.givenUpAt}</Table.Th>
                      <Table.Th>{t.reason}</Table.Th>
                      <Table.Th>{integrationTexts.actions}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {writebacks.data.givenUp.map((writeback) => (
                      <WritebackRow
                        key={writeback.id}
                        writeback={writeback}
                        configured={writebacks.data.configured}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function WritebackRow({ writeback, configured }: { writeback: CrmWriteback; configured: boolean }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => resendCrmWriteback(writeback.id),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t.resent });
      void queryClient.invalidateQueries({ queryKey: crmWritebacksQueryOptions.queryKey });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  return (
    <Table.Tr>
      <Table.Td>{writeback.matchId}</Table.Td>
      <Table.Td>{writeback.status}</Table.Td>
      <Table.Td>{format(writeback.lastAttemptAt ?? writeback.createdAt)}</Table.Td>
      <Table.Td>
        <Text size="sm">{writeback.reason}</Text>
      </Table.Td>
      <Table.Td>
        {writeback.superseded ? (
          <Text size="sm">{t.superseded}</Text>
        ) : !configured ? (
          <Text size="sm">{t.notConfigured}</Text>
        ) : (
          <Button
            size="xs"
            variant="light"
            aria-label={t.resendOf(writeback.status, writeback.matchId)}
            loading={resend.isPending}
            onClick={() => resend.mutate()}
          >
            {integrationTexts.resend}
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
