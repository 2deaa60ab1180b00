import { Code, Stack, Text } from '@mantine/core';
import type { SigningView } from '@vertragsgenerator/domain';
import { EmailCodeStep } from '@/components/email-code-step';
import type { ApiRequestError } from '@/lib/api';
import { isLinkError, requestSigningCode, verifySigningCode } from './signing-api';
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

/**
 * Before the document opens, the signer confirms a code mailed to the address their envelope names: the
 * code step the review page shares (components/email-code-step.tsx), with the signing routes, its texts
 * and the document's fingerprint below it.
 */
export function SigningCodeStep({ token, view, onAnswered, onRefresh, onLinkClosed }: SigningCodeStepProps) {
  return (
    <EmailCodeStep
      title={view.subject || view.fileName}
      verification={view.verification}
      texts={codeTexts}
      locale="de-DE"
      requestCode={() => requestSigningCode(token)}
      verifyCode={(code) => verifySigningCode(token, code)}
      onAnswered={onAnswered}
      onRefresh={onRefresh}
      isLinkError={isLinkError}
      onLinkClosed={onLinkClosed}
    >
      <DocumentFingerprint sha256={view.documentSha256} />
    </EmailCodeStep>
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
