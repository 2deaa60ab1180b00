import {
  Alert,
  Button,
  Checkbox,
  Container,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  COUNTERSIGNER_ROLE,
  type SignEnvelopeRequest,
  type SigningView,
  signEnvelopeSchema,
} from '@vertragsgenerator/domain';
import { type FormEvent, useCallback, useDeferredValue, useState } from 'react';
// The reader's own module: the package's index brings the sender's viewer and superdoc's frame along.
import { DocumentReader } from '@/components/document-viewer/document-reader';
import { runDownload } from '@/components/download-button';
import { useFirstInvalidFocus } from '@/components/form';
import { FullPageMessage } from '@/components/full-page-message';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { texts } from '@/texts';
import { announced } from './announced';
import { errorAt, type FieldErrors, fieldErrorsOf, NO_FIELD_ERRORS } from './field-errors';
import { SignatureDrawing } from './signature-drawing';
import {
  downloadSigningDocument,
  isLinkError,
  loadSigningDocument,
  signEnvelope,
  signingDocumentKey,
  signingQueryOptions,
} from './signing-api';
import { DocumentFingerprint, SigningCodeStep } from './signing-code-step';

// Loaded when the signer first asks to decline: the dialog (Mantine's Modal, its focus trap and scroll
// lock) is code that a phone would otherwise load and run before the contract shows, for the few who decline.
const loadDeclineDialog = async () => (await import('./decline-dialog')).DeclineDialog;
type DeclineDialogComponent = Awaited<ReturnType<typeof loadDeclineDialog>>;

/**
 * The public page behind a signer's e-mail link (`/unterschreiben#<token>`): no sign-in and no app
 * shell. The token stays in the fragment, which the browser never sends to a server; the page's own
 * entry (app/signing) reads it from there.
 */
export function SigningPage({ token }: { token: string }) {
  return (
    <Container size="md" py="xl">
      <Stack>
        <Text fw={700} size="lg">
          {texts.appTitle}
        </Text>
        {token ? <Signing token={token} /> : <LinkProblem message={texts.signing.missingToken} />}
      </Stack>
    </Container>
  );
}

function Signing({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const options = signingQueryOptions(token);
  const view = useQuery(options);
  // The page the view brings is built in slices (a transition), not in one piece as the query's answer
  // would have it: on a phone, one piece holds up everything else for a good part of a second.
  const data = useDeferredValue(view.data);
  // A link can stop working while the page is open (the sender voids the envelope); the sign and
  // decline answers then say so, and the page shows it as it would on opening the link.
  const [closedLink, setClosedLink] = useState<ApiRequestError | null>(null);

  const refetch = view.refetch;
  const refresh = useCallback(() => void refetch(), [refetch]);
  const answered = useCallback(
    (next: SigningView) => queryClient.setQueryData(signingQueryOptions(token).queryKey, next),
    [queryClient, token],
  );

  const linkError = closedLink ?? (isLinkError(view.error) ? view.error : null);
  if (linkError) return <LinkProblem message={linkError.message} />;
  if (data === undefined) {
    if (view.isError)
      return <LoadProblem message={errorMessage(view.error)} onRetry={() => view.refetch()} />;
    return <SectionLoader />;
  }
  if (data.state === 'signed')
    return <Outcome title={texts.signing.signedTitle} text={texts.signing.signed} />;
  if (data.state === 'declined') {
    return <Outcome title={texts.signing.declinedTitle} text={texts.signing.declined(data.sender.name)} />;
  }
  const { verification } = data;
  if (verification.required && !verification.verified) {
    return (
      <SigningCodeStep
        token={token}
        view={data}
        onAnswered={answered}
        onRefresh={refresh}
        onLinkClosed={setClosedLink}
      />
    );
  }
  return (
    <SigningForm
      token={token}
      view={data}
      onAnswered={answered}
      onCodeNeeded={refresh}
      onLinkClosed={setClosedLink}
    />
  );
}

interface SigningFormProps {
  token: string;
  view: SigningView;
  /** The signer signed or declined: the server's new view of the link. */
  onAnswered: (view: SigningView) => void;
  /** The server wants the code (again): the view says so once asked. */
  onCodeNeeded: () => void;
  onLinkClosed: (error: ApiRequestError) => void;
}

function SigningForm({ token, view, onAnswered, onCodeNeeded, onLinkClosed }: SigningFormProps) {
  const [consent, setConsent] = useState(false);
  const [typedName, setTypedName] = useState(view.signer.name);
  const [drawnSignature, setDrawnSignature] = useState<string | undefined>();
  const [clientErrors, setClientErrors] = useState<FieldErrors>(NO_FIELD_ERRORS);
  const [declineOpened, decline] = useDisclosure(false);
  // Once loaded, the dialog stays: its closing transition plays, and it keeps what the signer typed.
  const [DeclineDialog, setDeclineDialog] = useState<DeclineDialogComponent>();
  // Its code did not arrive (a phone's connection dropped): the page stays, and says so.
  const [declineUnavailable, setDeclineUnavailable] = useState(false);
  const askToDecline = () => {
    setDeclineUnavailable(false);
    loadDeclineDialog().then(
      (loaded) => {
        setDeclineDialog(() => loaded);
        decline.open();
      },
      () => setDeclineUnavailable(true),
    );
  };
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  const sign = useSingleMutation({
    mutationFn: (request: SignEnvelopeRequest) => signEnvelope(token, request),
    onSuccess: onAnswered,
    onError: (error) => {
      if (isLinkError(error)) onLinkClosed(error);
      else if (error instanceof ApiRequestError && error.code === 'verification_required') onCodeNeeded();
      else focusFirstInvalid();
    },
  });
  const download = () => void runDownload(() => downloadSigningDocument(token, view.fileName));
  const serverErrors = sign.error instanceof ApiRequestError ? sign.error.fields : NO_FIELD_ERRORS;
  const ready = consent && typedName.trim() !== '';

  function handleSign(event: FormEvent) {
    event.preventDefault();
    const request = signEnvelopeSchema.safeParse({
      consent,
      typedName,
      ...(drawnSignature !== undefined && { drawnSignature }),
    });
    if (!request.success) {
      setClientErrors(fieldErrorsOf(request.error));
      focusFirstInvalid();
      return;
    }
    setClientErrors(NO_FIELD_ERRORS);
    sign.mutate(request.data);
  }

  const consentError = errorAt('consent', clientErrors, serverErrors);
  const nameError = errorAt('typedName', clientErrors, serverErrors);
  const drawingError = errorAt('drawnSignature', clientErrors, serverErrors);
  const fieldError = consentError ?? nameError ?? drawingError;

  return (
    <Stack>
      {/* At a page heading's size, a subject would fill a phone's first screen; the section heading follows suit. */}
      <Title order={1} fz={{ base: 'h3', sm: 'h1' }}>
        {view.subject || view.fileName}
      </Title>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Text>
            <Text span fw={600}>
              {texts.signing.sentBy}:
            </Text>{' '}
            {view.sender.name} ({view.sender.email})
          </Text>
          {view.message && (
            <>
              <Text fw={600}>{texts.signing.message}</Text>
              <Text style={{ whiteSpace: 'pre-wrap' }}>{view.message}</Text>
            </>
          )}
        </Stack>
      </Paper>
      {view.signer.role === COUNTERSIGNER_ROLE && (
        <Alert color="blue" title={texts.signing.countersignTitle}>
          {texts.signing.countersign}
        </Alert>
      )}
      <DocumentReader
        documentKey={signingDocumentKey(view)}
        load={(signal) => loadSigningDocument(token, signal)}
        onDownload={download}
      />
      {/* The file as it is, laid out exactly: the page shows its text in the screen's width. */}
      <Group>
        <Button variant="default" onClick={download}>
          {texts.documentViewer.download}
        </Button>
      </Group>
      <DocumentFingerprint sha256={view.documentSha256} />
      <form ref={container} onSubmit={handleSign} noValidate>
        <Stack>
          <Title order={2} fz={{ base: 'h4', sm: 'h2' }}>
            {texts.signing.signHeading}
          </Title>
          <Checkbox
            label={texts.signing.consent}
            checked={consent}
            onChange={(event) => setConsent(event.currentTarget.checked)}
            error={announced(consentError)}
          />
          <TextInput
            label={texts.signing.typedName}
            required
            autoComplete="name"
            value={typedName}
            onChange={(event) => setTypedName(event.currentTarget.value)}
            error={announced(nameError)}
            maw={480}
          />
          <SignatureDrawing onChange={setDrawnSignature} />
          {drawingError && (
            <Text c="red" size="sm" role="alert">
              {drawingError}
            </Text>
          )}
          {/* Field problems show at their fields; anything else the server said shows here. */}
          {sign.isError && !fieldError && !isLinkError(sign.error) && (
            <Alert color="red">{errorMessage(sign.error)}</Alert>
          )}
          {declineUnavailable && <Alert color="red">{texts.api.network}</Alert>}
          <Group>
            <Button type="submit" disabled={!ready} loading={sign.isPending}>
              {texts.signing.sign}
            </Button>
            <Button variant="default" color="red" onClick={askToDecline} disabled={sign.isPending}>
              {texts.signing.decline}
            </Button>
          </Group>
        </Stack>
      </form>
      {DeclineDialog && (
        <DeclineDialog
          token={token}
          senderName={view.sender.name}
          opened={declineOpened}
          onClose={decline.close}
          onDeclined={onAnswered}
          onLinkClosed={onLinkClosed}
        />
      )}
    </Stack>
  );
}

function LinkProblem({ message }: { message: string }) {
  return (
    <FullPageMessage title={texts.signing.linkErrorTitle}>
      <Text role="alert">{message}</Text>
    </FullPageMessage>
  );
}

function LoadProblem({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <FullPageMessage title={texts.signing.loadFailedTitle}>
      <Text role="alert">{message}</Text>
      <Group>
        <Button onClick={onRetry}>{texts.signing.retry}</Button>
      </Group>
    </FullPageMessage>
  );
}

function Outcome({ title, text }: { title: string; text: string }) {
  return (
    <FullPageMessage title={title}>
      <Text role="status">{text}</Text>
    </FullPageMessage>
  );
}
