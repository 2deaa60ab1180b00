import { Alert, Button, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { SigningView } from '@vertragsgenerator/domain';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { isCodeError, isLinkError, requestSigningCode, verifySigningCode } from './signing-api';
import { codeTexts } from './signing-code-texts';

interface SigningCodeStepProps {
  token: string;
  view: SigningView;
  /** The server's new view of the link: a code sent, or the code confirmed. */
  onAnswered: (view: SigningView) => void;
  /** Asks for the view again (after a lock, or when it ended). */
  onRefresh: () => void;
  onLinkClosed: (error: ApiRequestError) => void;
}

const CODE_PATTERN = /^[0-9]{6}$/;

const BERLIN_TIME = new Intl.DateTimeFormat('de-DE', {
  timeZone: 'Europe/Berlin',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * Before the document opens, the signer confirms a code mailed to the address their envelope names.
 * The first code goes out when the step first shows and no code is on its way (a reload within its
 * 10 minutes sends none); `Code erneut senden` waits the 60 seconds the server asks for.
 */
export function SigningCodeStep({ token, view, onAnswered, onRefresh, onLinkClosed }: SigningCodeStepProps) {
  const { verification } = view;
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [resent, setResent] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const now = useSecondsClock();
  // Counted from when the view arrived, so that the browser's clock need not agree with the server's.
  const [resendAt, setResendAt] = useState(() => countdown(verification.resendInSeconds));
  useEffect(() => {
    setResendAt(countdown(verification.resendInSeconds));
  }, [verification.resendInSeconds]);
  const lockedUntil = verification.lockedUntil ? new Date(verification.lockedUntil) : null;
  const locked = lockedUntil !== null && lockedUntil.getTime() > now;
  // The clock ticks once a second: a countdown set since its last tick starts from when it was set.
  const resendIn = Math.max(0, Math.ceil((resendAt.until - Math.max(now, resendAt.from)) / 1000));

  const onCodeProblem = (error: Error) => {
    if (isLinkError(error)) return onLinkClosed(error);
    // A lock (or its end) changes what the page may offer: the view says until when.
    if (error instanceof ApiRequestError && error.code === 'verification_locked') onRefresh();
  };
  const send = useMutation({
    mutationFn: () => requestSigningCode(token),
    onSuccess: (next) => {
      setResendAt(countdown(next.verification.resendInSeconds));
      onAnswered(next);
    },
    onError: onCodeProblem,
  });
  const confirm = useMutation({
    mutationFn: (typed: string) => verifySigningCode(token, typed),
    onSuccess: onAnswered,
    onError: (error) => {
      onCodeProblem(error);
      if (isCodeError(error) && error.code !== 'verification_locked') setCodeError(error.message);
      if (error instanceof ApiRequestError && error.fields.code) setCodeError(error.fields.code[0]);
      input.current?.focus();
    },
  });

  // The first code: sent once when the step shows and none is on its way.
  const firstSent = useRef(false);
  const needsFirst = !verification.codeSent && verification.resendInSeconds === 0 && !locked;
  useEffect(() => {
    if (!needsFirst || firstSent.current) return;
    firstSent.current = true;
    send.mutate();
  }, [needsFirst, send.mutate]);

  // A lock that ends is asked about once, so the page offers a new code again.
  const lockEnd = lockedUntil?.getTime();
  useEffect(() => {
    if (lockEnd === undefined) return;
    const wait = lockEnd - Date.now();
    const timer = setTimeout(onRefresh, Math.max(0, wait) + 500);
    return () => clearTimeout(timer);
  }, [lockEnd, onRefresh]);

  function handleConfirm(event: FormEvent) {
    event.preventDefault();
    if (!CODE_PATTERN.test(code)) {
      setCodeError(codeTexts.codeFormat);
      input.current?.focus();
      return;
    }
    setCodeError(undefined);
    confirm.mutate(code);
  }

  function handleResend() {
    setResent(false);
    setCode('');
    setCodeError(undefined);
    send.mutate(undefined, { onSuccess: () => setResent(true) });
  }

  const email = verification.email;
  const status = send.isPending
    ? codeTexts.sending(email)
    : verification.codeSent || send.isSuccess
      ? codeTexts.sent(email)
      : codeTexts.notSent(email);
  const sendProblem = send.isError && !isLinkError(send.error) ? errorMessage(send.error) : undefined;

  return (
    <Stack>
      {/* As the signing form's heading (signing-page.tsx), which takes its place once the code is confirmed,
          and signing.html's early one (app/signing/early-heading.ts), which it takes the place of. */}
      <Title order={1} fz={{ base: 'h3', sm: 'h1' }}>
        {view.subject || view.fileName}
      </Title>
      <Paper withBorder p="md">
        <form onSubmit={handleConfirm} noValidate>
          <Stack>
            <Title order={2}>{codeTexts.heading}</Title>
            <Text>{codeTexts.intro}</Text>
            <Text role="status">{resent && !send.isPending ? codeTexts.resent : status}</Text>
            <Text size="sm" c="dimmed">
              {codeTexts.validity}
            </Text>
            {locked && lockedUntil && (
              <Alert color="red">{codeTexts.locked(BERLIN_TIME.format(lockedUntil))}</Alert>
            )}
            {sendProblem && !locked && <Alert color="red">{sendProblem}</Alert>}
            <TextInput
              ref={input}
              label={codeTexts.codeLabel}
              required
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              disabled={locked}
              // Pasted codes may carry spaces; only the digits count (no maxLength, which would cut a
              // pasted „123 456“ before the space is dropped).
              onChange={(event) => setCode(event.currentTarget.value.replace(/[^0-9]/g, '').slice(0, 6))}
              error={codeError && <span role="alert">{codeError}</span>}
              maw={280}
              styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
            />
            <Group>
              <Button type="submit" loading={confirm.isPending} disabled={locked}>
                {codeTexts.confirm}
              </Button>
              <Button
                variant="default"
                onClick={handleResend}
                disabled={locked || resendIn > 0 || send.isPending}
              >
                {resendIn > 0 ? codeTexts.resendIn(resendIn) : codeTexts.resend}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <DocumentFingerprint sha256={view.documentSha256} />
    </Stack>
  );
}

/** The SHA-256 of the document to sign, which the completion certificate names too. */
export function DocumentFingerprint({ sha256 }: { sha256: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {codeTexts.documentHash}
      </Text>
      <Code style={{ wordBreak: 'break-all', whiteSpace: 'normal' }}>{sha256}</Code>
      <Text size="xs" c="dimmed">
        {codeTexts.documentHashHint}
      </Text>
    </Stack>
  );
}

/** A countdown of `seconds` from now. */
function countdown(seconds: number): { from: number; until: number } {
  const from = Date.now();
  return { from, until: from + seconds * 1000 };
}

/** The time, moved on every second: what the countdown and the lock's end are measured against. */
function useSecondsClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
