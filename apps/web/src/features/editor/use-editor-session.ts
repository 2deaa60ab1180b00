import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type StoredDocument, VERSION_CONFLICT } from '@vertragsgenerator/domain';
import { useRef, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { texts } from '@/texts';
import {
  documentFileQueryOptions,
  saveDocument,
  storedDocumentQueryOptions,
  type VersionChoice,
} from './api';
import type { DocxEditor } from './docx-editor';

/** A version to open, and whether it may be changed: only the newest may. */
export interface Opening {
  version: VersionChoice;
  editable: boolean;
}

/** Whatever version is the newest when it arrives. */
export const LATEST: Opening = { version: 'latest', editable: true };

/** A version of the list (newest first): only the newest can be edited. */
export function openingOf(document: StoredDocument, version: number): Opening {
  return { version, editable: version === document.versions[0]?.version };
}

/**
 * One opened version: `sequence` counts the openings, so that opening the newest version again fetches
 * it afresh and reopens the editor.
 */
interface Opened extends Opening {
  sequence: number;
}

/**
 * The state of the editor page for one document: which version is open, the editor on it, whether it
 * has unsaved changes, and saving them as the next version.
 */
export function useEditorSession(document: StoredDocument) {
  const queryClient = useQueryClient();
  const documentKey = storedDocumentQueryOptions(document.id).queryKey;
  const [opened, setOpened] = useState<Opened>({ ...LATEST, sequence: 0 });
  // A save outlives the opening it started in when the user opens another version meanwhile.
  const currentOpening = useRef(opened);
  currentOpening.current = opened;
  const file = useQuery(documentFileQueryOptions(document.id, opened.version, opened.sequence));
  const editor = useRef<DocxEditor | null>(null);
  const [editorReady, setEditorReady] = useState(false);
  const [editorFailed, setEditorFailed] = useState(false);
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  const [dirty, setDirty] = useState(false);
  /** Counts the changes, so that a save does not clear the mark of changes made while it ran. */
  const changes = useRef(0);
  const [saving, setSaving] = useState(false);
  // The ref, not the state: a double click arrives before the re-render that disables the button.
  const savingNow = useRef(false);
  const [conflict, setConflict] = useState<string | null>(null);

  function open(next: Opening) {
    setOpened((current) => ({ ...next, sequence: current.sequence + 1 }));
    setSavedVersion(null);
    setDirty(false);
    setEditorFailed(false);
    changes.current = 0;
  }

  /** The version the editor shows and the next save builds on: the opened one, then each one saved. */
  const baseVersion = savedVersion ?? file.data?.version;

  async function save() {
    const current = editor.current;
    if (savingNow.current || !current || baseVersion === undefined) return;
    savingNow.current = true;
    setSaving(true);
    const startedIn = opened;
    const changesAtExport = changes.current;
    try {
      const saved = await saveDocument(document.id, await current.exportDocx(), baseVersion);
      queryClient.setQueryData(documentKey, saved.document);
      notifications.show({ color: 'green', message: texts.editor.saved(saved.version) });
      if (currentOpening.current !== startedIn) return;
      setSavedVersion(saved.version);
      if (changes.current === changesAtExport) setDirty(false);
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === VERSION_CONFLICT) {
        setConflict(error.message);
        // The list then shows the version that got in the way.
        void queryClient.invalidateQueries({ queryKey: documentKey });
      } else {
        notifications.show({
          color: 'red',
          title: texts.editor.saveFailedTitle,
          message: errorMessage(error),
        });
      }
    } finally {
      savingNow.current = false;
      setSaving(false);
    }
  }

  return {
    opened,
    file,
    baseVersion,
    dirty,
    saving,
    /** The server's message while a save waits on the user's decision about a newer version. */
    conflict,
    canSave: opened.editable && editorReady,
    editorFailed,
    /** Opens a version; unsaved changes are dropped. */
    open,
    save,
    reloadAfterConflict() {
      setConflict(null);
      open(LATEST);
    },
    keepAfterConflict() {
      setConflict(null);
    },
    /** What the editor frame reports. */
    editorEvents: {
      onEditor(opened: DocxEditor | null) {
        editor.current = opened;
        setEditorReady(opened !== null);
      },
      onChange() {
        changes.current++;
        setDirty(true);
      },
      onFailed() {
        setEditorFailed(true);
      },
    },
  };
}

export type EditorSession = ReturnType<typeof useEditorSession>;
