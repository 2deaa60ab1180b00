import { useRef } from 'react';
import { texts } from '@/texts';

/** A chosen file the browser can no longer read: changed, moved or deleted on disk since it was chosen. */
export class UnreadableFileError extends Error {
  constructor(cause: unknown) {
    super(texts.unreadableFile, { cause });
    this.name = 'UnreadableFileError';
  }
}

/**
 * The file the user chose, as its bytes read now. A browser refuses to read a chosen file that changed on
 * disk since (saved again from Excel, say); sent as it is, that refusal would surface as a failed upload
 * and blame the server.
 */
export async function readChosenFile(file: File): Promise<File> {
  try {
    return new File([await file.arrayBuffer()], file.name, { type: file.type });
  } catch (error) {
    throw new UnreadableFileError(error);
  }
}

/**
 * The `onChange` and `resetRef` of a file input (Mantine's FileInput) that reports every choice. The input
 * forgets each choice at once: a browser reports a file chosen again under the same name (corrected and
 * saved) only when the input does not still hold that name.
 */
export function useFreshFileChoice(onChoose: (file: File | null) => void) {
  const resetRef = useRef<() => void>(null);
  return {
    resetRef,
    onChange(file: File | null) {
      resetRef.current?.();
      onChoose(file);
    },
  };
}
