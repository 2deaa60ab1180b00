/** Lets the browser save a file under the given name. */
export function downloadFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL only after the click handler returned.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
