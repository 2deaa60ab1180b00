import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './api';

describe('fileNameFromDisposition', () => {
  it('prefers the UTF-8 filename* over the ASCII fallback', () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="PL-10001 Kuendigung Brueckner.docx"; filename*=UTF-8''PL-10001%20K%C3%BCndigung%20Br%C3%BCckner.docx`,
      ),
    ).toBe('PL-10001 Kündigung Brückner.docx');
  });

  it('reads a quoted or plain filename when there is no filename*', () => {
    expect(fileNameFromDisposition('attachment; filename="Angebot \\"A\\".docx"')).toBe('Angebot "A".docx');
    expect(fileNameFromDisposition('attachment; filename=angebot.docx')).toBe('angebot.docx');
  });

  it('falls back to the plain name when filename* is malformed', () => {
    expect(fileNameFromDisposition(`attachment; filename="a.docx"; filename*=UTF-8''%E0%A4%A.docx`)).toBe(
      'a.docx',
    );
  });

  it('defaults to document.docx', () => {
    expect(fileNameFromDisposition(null)).toBe('document.docx');
    expect(fileNameFromDisposition('attachment')).toBe('document.docx');
  });
});
