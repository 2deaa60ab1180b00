import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { BatchSend } from '@vertragsgenerator/domain';
import { countersignatureQueryOptions } from './api';
import { batchesTexts } from './texts';

const t = batchesTexts.batch;

/**
 * How an e-signature batch's envelopes go out, said once for all its deals: who countersigns for the
 * company (by name, as the document's options call them; the id while they load) and the message.
 */
export function BatchSendSummary({ docKey, send }: { docKey: string; send: BatchSend }) {
  const { countersignatory, message } = send;
  const setting = useQuery({ ...countersignatureQueryOptions(docKey), enabled: countersignatory !== null });
  const person = setting.data?.options.find((option) => option.id === countersignatory);
  let who = t.without;
  if (countersignatory !== null) who = person ? `${person.name} – ${person.function}` : countersignatory;
  return (
    <Stack gap={4}>
      <Text size="sm">
        <Text span fw={600}>
          {t.countersignatory}:
        </Text>{' '}
        {who}
      </Text>
      <Text size="sm">
        <Text span fw={600}>
          {t.message}:
        </Text>{' '}
        {message === '' ? (
          <Text span c="dimmed" inherit>
            {t.noMessage}
          </Text>
        ) : (
          <Text span inherit style={{ whiteSpace: 'pre-wrap' }}>
            {message}
          </Text>
        )}
      </Text>
    </Stack>
  );
}
