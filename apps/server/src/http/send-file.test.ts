import { describe, expect, it } from 'vitest';
import { contentDispositionHeader } from './send-file.js';

describe('contentDispositionHeader', () => {
  it('adds a UTF-8 filename* and transliterates umlauts for the ASCII fallback', () => {
    expect(contentDispositionHeader('PL-1 Kündigung Kunde Brückner & Söhne – Straße.docx')).toBe(
      'attachment; filename="PL-1 Kuendigung Kunde Brueckner & Soehne _ Strasse.docx"; ' +
        "filename*=UTF-8''PL-1%20K%C3%BCndigung%20Kunde%20Br%C3%BCckner%20%26%20S%C3%B6hne%20%E2%80%93%20Stra%C3%9Fe.docx",
    );
  });

  it('names the file the same way for the browser’s own viewer', () => {
    expect(contentDispositionHeader('Brückner.pdf', 'inline')).toBe(
      "inline; filename=Brueckner.pdf; filename*=UTF-8''Br%C3%BCckner.pdf",
    );
  });
});
