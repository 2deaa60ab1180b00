import { vi } from 'vitest';

/**
 * Catches the downloads lib/download.ts starts (a click on a link to an object URL, which jsdom can
 * neither create nor follow) and answers with the file names they save, in order. Call it in
 * `beforeEach`: the spy on the click ends with the test.
 */
export function captureDownloads(): string[] {
  const downloads: string[] = [];
  URL.createObjectURL = vi.fn(() => 'blob:download');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
  return downloads;
}
