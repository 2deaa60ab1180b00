import { Alert, Button, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '@/lib/api';
import { texts } from '@/texts';
import { ownAccessRequestQueryOptions, requestAccess } from './api';

const dateFormat = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * "Zugang anfragen" for someone signed in without a level: one request at a time; while it is open the
 * button says when it was sent. A declined request shows its reason and may be sent again.
 */
export function AccessRequestPanel() {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const own = useQuery(ownAccessRequestQueryOptions);
  const send = useMutation({
    mutationFn: () => requestAccess(message),
    onSuccess: (answer) => queryClient.setQueryData(ownAccessRequestQueryOptions.queryKey, answer),
  });

  const request = own.data?.request;
  if (own.isPending) return null;
  if (request?.status === 'open') {
    return (
      <Stack w="100%" gap="xs">
        <Button disabled fullWidth>
          {texts.login.requestedOn(dateFormat.format(new Date(request.requestedAt)))}
        </Button>
        <Text size="sm">{texts.login.requestPending}</Text>
      </Stack>
    );
  }
  return (
    <Stack
      component="form"
      w="100%"
      gap="sm"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate();
      }}
    >
      {request?.status === 'declined' && request.reason && (
        <Text size="sm">{texts.login.requestDeclined(request.reason)}</Text>
      )}
      <Textarea
        label={texts.login.requestMessage}
        description={texts.login.requestMessageHint}
        value={message}
        onChange={(event) => setMessage(event.currentTarget.value)}
        maxLength={2000}
        rows={3}
      />
      <Button type="submit" loading={send.isPending}>
        {texts.login.requestAccess}
      </Button>
      {(send.isError || own.isError) && (
        <Alert color="red" role="alert">
          {errorMessage(send.error ?? own.error)}
        </Alert>
      )}
    </Stack>
  );
}
