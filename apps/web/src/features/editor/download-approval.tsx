import { Alert, Button, List, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CATALOGUE,
  type DocumentApproval,
  documentApprovalSchema,
  formatDateTime,
  type StoredDocument,
} from '@vertragsgenerator/domain';
import { DownloadButton } from '@/components/download-button';
import { ApiRequestError, apiFetch, apiJson } from '@/lib/api';
import { texts } from '@/texts';
import { downloadDocumentVersion } from './api';

const downloadApprovalTexts = {
  ask: 'Zur Freigabe senden',
  needed: 'Vor dem Herunterladen braucht dieses Dokument eine Freigabe',
  neededIntro:
    'Eine Leitung oder Legal prüft es; sobald es freigegeben ist, kannst du es hier herunterladen.',
  saveFirst: 'Speichere deine Änderungen, bevor du das Dokument zur Freigabe sendest.',
  waiting: 'Wartet auf Freigabe',
  waitingText: (version: number, date: string) =>
    `Version ${version} wurde am ${date} zur Freigabe gesendet. Du erhältst eine E-Mail, sobald entschieden ist.`,
  released: (name: string, date: string) => `Freigegeben von ${name} am ${date}.`,
  comment: (comment: string) => `Kommentar: ${comment}`,
  declined: 'Freigabe abgelehnt',
  declinedBy: (name: string, date: string) => `${name} hat am ${date} abgelehnt.`,
  declinedReason: (reason: string) => `Begründung: ${reason}`,
  declinedAgain: 'Ändere das Dokument, speichere es und sende es dann erneut zur Freigabe.',
  voided: 'Die Anfrage gilt nicht mehr',
  askedTitle: 'Zur Freigabe gesendet',
  asked: 'Die Freigebenden sind benachrichtigt. Du erhältst eine E-Mail, sobald entschieden ist.',
};
const t = downloadApprovalTexts;

const at = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : '');

/** A document sent for signature is approved through its envelope (the sender view), never here. */
function isFinal(document: StoredDocument): boolean {
  return CATALOGUE.get(document.docKey)?.form !== 'docusign';
}

/** The newest version's approval; asked again after each save, as the key holds the newest version. */
function documentApprovalQueryOptions(document: StoredDocument) {
  return queryOptions({
    queryKey: ['document-approval', document.id, document.versions[0]?.version ?? 0],
    queryFn: ({ signal }) =>
      apiJson(`/backend/documents/${encodeURIComponent(document.id)}/approval`, documentApprovalSchema, {
        signal,
      }),
    enabled: isFinal(document),
  });
}

/** What the editor offers for the shown version: the download, or the way to its approval. */
type DownloadState = 'download' | 'ask' | 'waiting' | 'declined';

function downloadState(
  approval: DocumentApproval | undefined,
  shownVersion: number | undefined,
): DownloadState {
  // Another version than the newest, or nothing known yet: the server's gate decides on the download.
  if (!approval?.applies || shownVersion !== approval.version || !approval.required) return 'download';
  const request = approval.request;
  if (request?.documentVersion === approval.version) {
    if (request.status === 'open') return 'waiting';
    if (request.status === 'declined') return 'declined';
  }
  return 'ask';
}

/**
 * The editor's `Herunterladen`, which becomes `Zur Freigabe senden` where a rule applies to the newest
 * version and it is not released; while a request waits, or after a decline until the text changes,
 * there is nothing to click (the notice below says why).
 */
export function EditorDownloadButton({
  document,
  shownVersion,
  dirty,
}: {
  document: StoredDocument;
  shownVersion: number | undefined;
  dirty: boolean;
}) {
  const queryClient = useQueryClient();
  const options = documentApprovalQueryOptions(document);
  const approval = useQuery(options);
  const ask = useMutation({
    // The answer is not needed: the approval's state is asked again once it is settled.
    mutationFn: () =>
      apiFetch(`/backend/documents/${encodeURIComponent(document.id)}/approval`, { method: 'POST' }),
    onSuccess: () => {
      notifications.show({ color: 'green', title: t.askedTitle, message: t.asked });
    },
    onError: (error) => {
      notifications.show({
        color: 'yellow',
        message: error instanceof ApiRequestError ? error.message : texts.api.unexpectedAnswer,
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: options.queryKey }),
  });
  const state = downloadState(approval.data, shownVersion);
  if (state === 'ask') {
    return (
      <Button onClick={() => ask.mutate()} loading={ask.isPending} disabled={dirty}>
        {t.ask}
      </Button>
    );
  }
  if (state !== 'download') return null;
  return (
    <DownloadButton
      // A final document's state is known before its download is offered: a click would only be refused.
      disabled={shownVersion === undefined || (isFinal(document) && approval.isPending)}
      download={async () => {
        if (shownVersion !== undefined) await downloadDocumentVersion(document, shownVersion);
      }}
    >
      {texts.editor.download}
    </DownloadButton>
  );
}

function Reasons({ texts: words }: { texts: readonly string[] }) {
  return (
    <List size="sm" spacing={2}>
      {words.map((text) => (
        <List.Item key={text}>{text}</List.Item>
      ))}
    </List>
  );
}

/**
 * Below the editor's buttons, for a final document (not one sent for signature, where the sender view
 * asks for the approval): why the newest version needs an approval in the rules' words, that it waits,
 * who released it and when, or why it was declined.
 */
export function DownloadApprovalNotice({
  document,
  shownVersion,
  dirty = false,
}: {
  document: StoredDocument;
  shownVersion: number | undefined;
  dirty?: boolean;
}) {
  const approval = useQuery(documentApprovalQueryOptions(document)).data;
  if (!approval?.applies || shownVersion !== approval.version) return null;
  const request = approval.request;
  const state = downloadState(approval, shownVersion);
  if (approval.released) {
    return (
      <Alert color="green" title={t.released(approval.released.by.name, at(approval.released.at))}>
        {approval.released.comment && <Text size="sm">{t.comment(approval.released.comment)}</Text>}
      </Alert>
    );
  }
  if (state === 'waiting' && request) {
    return (
      <Alert color="orange" title={t.waiting}>
        <Stack gap="xs">
          <Text size="sm">{t.waitingText(request.documentVersion, at(request.requestedAt))}</Text>
          <Reasons texts={request.reasonTexts} />
        </Stack>
      </Alert>
    );
  }
  if (state === 'declined' && request) {
    return (
      <Alert color="red" title={t.declined}>
        <Stack gap="xs">
          {request.decidedBy && (
            <Text size="sm">{t.declinedBy(request.decidedBy.name, at(request.decidedAt))}</Text>
          )}
          {request.comment && <Text size="sm">{t.declinedReason(request.comment)}</Text>}
          <Reasons texts={approval.reasonTexts} />
          <Text size="sm">{t.declinedAgain}</Text>
        </Stack>
      </Alert>
    );
  }
  if (state !== 'ask') return null;
  return (
    <Stack gap="sm">
      {request?.status === 'void' && request.voidReason && (
        <Alert color="yellow" title={t.voided}>
          <Text size="sm">{request.voidReason}</Text>
        </Alert>
      )}
      <Alert color="yellow" title={t.needed}>
        <Stack gap="xs">
          <Reasons texts={approval.reasonTexts} />
          <Text size="sm">{dirty ? t.saveFirst : t.neededIntro}</Text>
        </Stack>
      </Alert>
    </Stack>
  );
}
