import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { StoredDocument } from '@vertragsgenerator/domain';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { runDownload } from '@/components/download-button';
import { DownloadInstead } from '@/components/download-instead';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { PATHS } from '@/lib/paths';
import { texts } from '@/texts';
import { downloadDocumentVersion, storedDocumentQueryOptions } from './api';
import { DocxEditorFrame, EditorLoader } from './docx-editor-frame';
import { DownloadApprovalNotice, EditorDownloadButton } from './download-approval';
import { ConflictModal, DiscardChangesModal } from './editor-dialogs';
import { preloadDocxEditor } from './load-docx-editor';
import { SignedElsewhereButton } from './signed-elsewhere';
import { type EditorSession, LATEST, type Opening, openingOf, useEditorSession } from './use-editor-session';
import { useLeaveGuard } from './use-leave-guard';
import { VersionList } from './version-list';

/** What the page tells a panel that app/ composes below the editor (the negotiation with the counterparty). */
export interface DocumentPanelContext {
  document: StoredDocument;
  /** The newest stored version: what a change on the server builds on (undefined while none is known). */
  latestVersion: number | undefined;
  /** The editor holds changes not saved yet: what the server has is not what the user sees. */
  dirty: boolean;
  /**
   * The server made a new version (a decision on suggestions, or a conflict told of one): the page
   * reloads the versions and opens the newest. Settles once the versions are known again.
   */
  onDocumentChanged: () => Promise<void>;
}

export type DocumentPanel = (context: DocumentPanelContext) => ReactNode;

/**
 * The built-in editor of a stored document (`/dokumente/:documentId`), opened after generation; `panel`
 * is shown below the editor, for what another feature adds to the page.
 */
export function EditorPage({ panel }: { panel?: DocumentPanel } = {}) {
  const { documentId = '' } = useParams();
  const storedDocument = useQuery(storedDocumentQueryOptions(documentId));
  // superdoc loads while the sign-in is checked and the document fetched, not after.
  useEffect(preloadDocxEditor, []);
  // A failed refresh keeps the workspace: the last known version list is still right for what is open.
  if (storedDocument.data) {
    return <DocumentWorkspace key={documentId} document={storedDocument.data} panel={panel} />;
  }
  if (storedDocument.isError) {
    const { error } = storedDocument;
    if (error instanceof ApiRequestError && error.status === 403) return <ForbiddenDocument />;
    return (
      <Alert color="red" title={texts.editor.loadFailedTitle}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{errorMessage(error)}</Text>
          <Button variant="light" onClick={() => storedDocument.refetch()}>
            {texts.editor.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <SectionLoader />;
}

function ForbiddenDocument() {
  return (
    <Stack>
      <Title order={1}>{texts.editor.forbiddenTitle}</Title>
      <Text>{texts.editor.forbidden}</Text>
      <Anchor component={Link} to={PATHS.start}>
        {texts.editor.backToStart}
      </Anchor>
    </Stack>
  );
}

function DocumentWorkspace({
  document,
  panel,
}: {
  document: StoredDocument;
  panel: DocumentPanel | undefined;
}) {
  const queryClient = useQueryClient();
  const session = useEditorSession(document);
  const { baseVersion, dirty } = session;
  const blocker = useLeaveGuard(dirty);
  /** An opening that waits until the user gives up the unsaved changes. */
  const [pendingOpening, setPendingOpening] = useState<Opening | null>(null);

  function requestOpen(opening: Opening) {
    if (dirty) setPendingOpening(opening);
    else session.open(opening);
  }
  // A panel's callback may run after renders that changed `dirty`: it asks through the current render.
  const requestOpenNow = useRef(requestOpen);
  requestOpenNow.current = requestOpen;

  // The panel (its code and its requests) waits until the document's file is here: the tab shows the
  // document first. Once shown it stays, also while another version loads, so its state is kept.
  const [panelDue, setPanelDue] = useState(false);
  const fileSettled = session.file.data !== undefined || session.file.isError;
  useEffect(() => {
    if (fileSettled) setPanelDue(true);
  }, [fileSettled]);

  async function documentChanged() {
    // Unsaved changes are not dropped unasked: the dialog of any other opening asks first.
    requestOpenNow.current(LATEST);
    await queryClient.invalidateQueries({ queryKey: storedDocumentQueryOptions(document.id).queryKey });
  }

  async function downloadShown() {
    if (baseVersion !== undefined) await downloadDocumentVersion(document, baseVersion);
  }

  return (
    // As wide as a page with superdoc's margin beside it; wider would only push the page to the left.
    <Stack maw={1000}>
      <DiscardChangesModal
        opened={blocker.state === 'blocked' || pendingOpening !== null}
        onDiscard={() => {
          if (blocker.state === 'blocked') blocker.proceed();
          if (pendingOpening) session.open(pendingOpening);
          setPendingOpening(null);
        }}
        onKeep={() => {
          if (blocker.state === 'blocked') blocker.reset();
          setPendingOpening(null);
        }}
      />
      <ConflictModal
        message={session.conflict}
        onReload={session.reloadAfterConflict}
        onCancel={session.keepAfterConflict}
      />
      <Stack gap={4}>
        <Title order={1}>{document.fileName}</Title>
        <Group gap="sm">
          <Text>
            <Text span fw={600}>
              {texts.editor.matchLabel}:
            </Text>{' '}
            {document.matchId}
            {baseVersion !== undefined && (
              <>
                {' · '}
                <Text span fw={600}>
                  {texts.editor.versionLabel}:
                </Text>{' '}
                {baseVersion}
              </>
            )}
          </Text>
          {dirty && (
            <Badge color="orange.9" variant="light">
              {texts.editor.unsaved}
            </Badge>
          )}
        </Group>
      </Stack>
      <Group gap="sm">
        <Button onClick={session.save} loading={session.saving} disabled={!session.canSave}>
          {texts.editor.save}
        </Button>
        <EditorDownloadButton document={document} shownVersion={baseVersion} dirty={dirty} />
        <SignedElsewhereButton document={document} dirty={dirty} />
      </Group>
      <DownloadApprovalNotice document={document} shownVersion={baseVersion} dirty={dirty} />
      {!session.opened.editable && baseVersion !== undefined && (
        <Alert color="yellow">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{texts.editor.readOnly(baseVersion)}</Text>
            <Button variant="light" size="xs" onClick={() => session.open(LATEST)}>
              {texts.editor.openLatest}
            </Button>
          </Stack>
        </Alert>
      )}
      <EditorArea session={session} onDownload={() => void runDownload(downloadShown)} />
      {panelDue &&
        panel?.({
          document,
          latestVersion: document.versions[0]?.version,
          dirty,
          onDocumentChanged: documentChanged,
        })}
      <VersionList
        document={document}
        shownVersion={baseVersion}
        onOpen={(version) => requestOpen(openingOf(document, version))}
      />
    </Stack>
  );
}

function EditorArea({ session, onDownload }: { session: EditorSession; onDownload: () => void }) {
  const { file, opened } = session;
  if (file.isError) {
    return (
      <Alert color="red" title={texts.editor.loadFailedTitle}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{errorMessage(file.error)}</Text>
          <Button variant="light" onClick={() => file.refetch()}>
            {texts.editor.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (session.editorFailed) {
    return (
      <DownloadInstead
        title={texts.editor.openFailedTitle}
        text={texts.editor.openFailed}
        buttonLabel={texts.editor.download}
        onDownload={onDownload}
      />
    );
  }
  if (!file.data) return <EditorLoader />;
  return (
    <DocxEditorFrame
      key={opened.sequence}
      docx={file.data.docx}
      readOnly={!opened.editable}
      {...session.editorEvents}
    />
  );
}
