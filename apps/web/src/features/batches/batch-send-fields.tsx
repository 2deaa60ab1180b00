import { Fieldset, Loader, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { BatchSend, CountersignatureChoice } from '@vertragsgenerator/domain';
import { type ReactNode, useState } from 'react';
import {
  CountersignatorySelect,
  countersignatoryOf,
  countersignatureTexts,
  WITHOUT_COUNTERSIGNATURE,
} from '@/components/countersignatory-select';
import type { FieldRule } from '@/components/form';
import { LoadFailed } from '@/components/load-failed';
import { countersignatureQueryOptions } from './api';
import { batchesTexts } from './texts';

const t = batchesTexts.send;

/** As the server takes the message (`batchSendSchema`). */
const MESSAGE_MAX = 4000;

/**
 * The countersignatory as chosen, while the document's options still offer it; otherwise the first
 * choice: without, where that is allowed, else nobody yet, so that the starter picks on purpose.
 */
function chosenCountersignatory(setting: CountersignatureChoice | undefined, choice: string | null) {
  if (!setting) return null;
  const offered =
    choice === WITHOUT_COUNTERSIGNATURE
      ? setting.withoutAllowed
      : setting.options.some((person) => person.id === choice);
  if (choice !== null && offered) return choice;
  return setting.withoutAllowed ? WITHOUT_COUNTERSIGNATURE : null;
}

/**
 * „Versand“ of an e-signature batch: who countersigns every envelope for the company and the message
 * every signer reads. `docKey` is null for any other document: then there is nothing to send.
 */
export function useBatchSend(docKey: string | null) {
  const setting = useQuery({ ...countersignatureQueryOptions(docKey ?? ''), enabled: docKey !== null });
  const [choice, setChoice] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const countersignatory = chosenCountersignatory(setting.data, choice);
  const messageTooLong = message.trim().length > MESSAGE_MAX;
  const rules: FieldRule[] =
    docKey === null
      ? []
      : [
          {
            name: 'send.countersignatory',
            required: !setting.data?.withoutAllowed,
            valid: countersignatory !== null,
          },
          { name: 'send.message', required: false, valid: !messageTooLong },
        ];
  return {
    setting,
    countersignatory,
    setCountersignatory: setChoice,
    message,
    setMessage,
    messageTooLong,
    rules,
    /** The request's `send`; undefined for a document that is not sent for signature. */
    send(): BatchSend | undefined {
      if (docKey === null) return undefined;
      return {
        countersignatory: countersignatoryOf(setting.data, countersignatory) ?? null,
        message: message.trim(),
      };
    },
  };
}

export type BatchSendState = ReturnType<typeof useBatchSend>;

/** The fields of „Versand“, with the server's words under each (`send.countersignatory`, `send.message`). */
export function BatchSendFields({
  send,
  showErrors,
  serverError,
}: {
  send: BatchSendState;
  showErrors: boolean;
  serverError: (...fields: string[]) => string | undefined;
}) {
  const { setting } = send;
  let countersignatory: ReactNode;
  if (setting.isError) {
    countersignatory = (
      <LoadFailed title={t.optionsFailed} error={setting.error} onRetry={() => void setting.refetch()} />
    );
  } else if (!setting.data) {
    countersignatory = <Loader size="sm" role="status" aria-label={t.countersignatory} />;
  } else {
    countersignatory = (
      <CountersignatorySelect
        setting={setting.data}
        value={send.countersignatory}
        onChange={send.setCountersignatory}
        error={
          serverError('send.countersignatory') ??
          (showErrors && send.countersignatory === null ? countersignatureTexts.required : undefined)
        }
      />
    );
  }
  return (
    <Fieldset legend={t.heading} variant="unstyled">
      <Stack>
        <Text size="sm" c="dimmed">
          {t.intro}
        </Text>
        {countersignatory}
        <Textarea
          label={t.message}
          description={t.messageHelp}
          rows={4}
          value={send.message}
          onChange={(event) => send.setMessage(event.currentTarget.value)}
          error={serverError('send.message', 'send') ?? (send.messageTooLong ? t.messageTooLong : undefined)}
        />
      </Stack>
    </Fieldset>
  );
}
