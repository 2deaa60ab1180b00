import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { SIGNING_CODE_ERRORS, type SignerVerification } from '@vertragsgenerator/domain';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';

/** What the code step says; each page that shows it words it for its readers (and in their language). */
export interface EmailCodeStepTexts {
  heading: string;
  intro: string;
  sending: (email: string) => string;
  sent: (email: string) => string;
  notSent: (email: string) => string;
  validity: string;
  resent: string;
  codeLabel: string;
  codeFormat: string;
  confirm: string;
  resend: string;
  resendIn: (seconds: number) => string;
  locked: (time: string) => string;
}

export interface EmailCodeStepProps<View> {
  /** The page's heading above the step: the document the link is about. */
  title: string;
  verification: SignerVerification;
  texts: EmailCodeStepTexts;
  /** The locale the lock's end is written in (`de-DE`, `en-GB`). */
  locale: string;
  /** Asks the server to mail a (new) code; answers the link's view, never the code. */
  requestCode: () => Promise<View>;
  /** Confirms the code from the mail; answers the link's view. */
  verifyCode: (code: string) => Promise<View>;
  /** The server's new view of the link: a code sent, or the code confirmed. */
  onAnswered: (view: View) => void;
  /** Asks for the view again (after a lock, or when it ended). */
  onRefresh: () => void;
  /** The link stopped working: nothing on the step can help any more. */
  isLinkError: (error: unknown) => error is ApiRequestError;
  onLinkClosed: (error: ApiRequestError) => void;
  /** Words a failed call for the reader; default: the server's own message. */
  problemText?: (error: unknown) => string;
  /** Shown below the step (the signing page's document fingerprint). */
  children?: ReactNode;
}

const CODE_PATTERN = /^[0-9]{6}$/;

/** An answer of the code step (wrong, expired, locked, too early, or not confirmed yet). */
function isCodeError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError && Object.hasOwn(SIGNING_CODE_ERRORS, error.code);
}

/**
 * Before the document behind an e-mail link opens, its reader confirms a code mailed to the address the
 * link names (the signing page's signers, the review page's counterparty: the same server semantics,
 * SIGNING_CODE_ERRORS). The first code goes out when the step first shows and no code is on its way (a
 * reload within its 10 minutes sends none); the resend waits the 60 seconds the server asks for.
 */
export function EmailCodeStep<View extends { verification: SignerVerification }>({
  title,
  verification,
  texts,
  locale,
  requestCode,
  verifyCode,
  onAnswered,
  onRefresh,
  isLinkError,
  onLinkClosed,
  problemText = errorMessage,
  children,
}: EmailCodeStepProps<View>) {
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
    mutationFn: requestCode,
    onSuccess: (next) => {
      setResendAt(countdown(next.verification.resendInSeconds));
      onAnswered(next);
    },
    onError: onCodeProblem,
  });
  const confirm = useMutation({
    mutationFn: verifyCode,
    onSuccess: onAnswered,
    onError: (error) => {
      onCodeProblem(error);
      if (isCodeError(error) && error.code !== 'verification_locked') setCodeError(problemText(error));
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
      setCodeError(texts.codeFormat);
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
    ? texts.sending(email)
    : verification.codeSent || send.isSuccess
      ? texts.sent(email)
      : texts.notSent(email);
  const sendProblem = send.isError && !isLinkError(send.error) ? problemText(send.error) : undefined;
  const lockTime = new Intl.DateTimeFormat(locale, {
    timeZone: 'Europe/Berlin',
    hour: '2-digit',
    minute: '2-digit',
  });

  return (
    <Stack>
      {/* As the heading of the page the step leads to, which takes its place once the code is confirmed
          (and the signing page's early one, app/signing/early-heading.ts, which it takes the place of). */}
      <Title order={1} fz={{ base: 'h3', sm: 'h1' }} style={{ overflowWrap: 'anywhere' }}>
        {title}
      </Title>
      <Paper withBorder p="md">
        <form onSubmit={handleConfirm} noValidate>
          <Stack>
            <Title order={2}>{texts.heading}</Title>
            <Text>{texts.intro}</Text>
            <Text role="status">{resent && !send.isPending ? texts.resent : status}</Text>
            <Text size="sm" c="dimmed">
              {texts.validity}
            </Text>
            {locked && lockedUntil && <Alert color="red">{texts.locked(lockTime.format(lockedUntil))}</Alert>}
            {sendProblem && !locked && <Alert color="red">{sendProblem}</Alert>}
            <TextInput
              ref={input}
              label={texts.codeLabel}
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
                {texts.confirm}
              </Button>
              <Button
                variant="default"
                onClick={handleResend}
                disabled={locked || resendIn > 0 || send.isPending}
              >
                {resendIn > 0 ? texts.resendIn(resendIn) : texts.resend}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {children}
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
