import userEvent from '@testing-library/user-event';

/**
 * Chooses `file` in `input` as a browser's file dialog does: while the input still holds a file of that
 * name, the browser sees no new choice and fires no change — it compares the path, not what is in the file.
 */
export async function chooseInDialog(input: HTMLInputElement, file: File): Promise<void> {
  if (input.files?.[0]?.name === file.name) return;
  await userEvent.upload(input, file);
}

/** `file` as a browser holds it once it was saved anew after it was chosen: reading it fails. */
export function savedAfterChoice(file: File): File {
  file.arrayBuffer = () =>
    Promise.reject(new DOMException('The requested file could not be read.', 'NotReadableError'));
  return file;
}

/** What a blob holds, as text: jsdom's Blob lacks `text()`, its FileReader reads one. */
export function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}
