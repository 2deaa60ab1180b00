import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, detectSeparator, parseCsv } from './csv.js';

const cells = (text: string) => parseCsv(text).map((record) => record.cells);

describe('parseCsv', () => {
  it('reads plain records', () => {
    expect(cells('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps separators, line breaks and doubled quotes inside quoted fields', () => {
    expect(cells('id,text\n1,"Müller, Meier & Co."\n2,"Zeile 1\nZeile 2"\n3,"sagt ""Hallo"""\n')).toEqual([
      ['id', 'text'],
      ['1', 'Müller, Meier & Co.'],
      ['2', 'Zeile 1\nZeile 2'],
      ['3', 'sagt "Hallo"'],
    ]);
  });

  it('reads CRLF files and turns quoted CRLF into \\n', () => {
    expect(cells('a,b\r\n1,"x\r\ny"\r\n')).toEqual([
      ['a', 'b'],
      ['1', 'x\ny'],
    ]);
  });

  it('ignores a leading byte order mark', () => {
    expect(cells('\uFEFFmatchId;kunde\nPL-1;A')[0]).toEqual(['matchId', 'kunde']);
  });

  it('reports the line each record starts on, across quoted line breaks and blank lines', () => {
    const records = parseCsv('h1,h2\n"a\nb\nc",x\n\nlast,y');
    expect(records.map((r) => r.line)).toEqual([1, 2, 5, 6]);
    expect(records[2]?.cells).toEqual(['']);
  });

  it('keeps empty fields, quoted or not, and a trailing empty field', () => {
    expect(cells('a,"",c,\n')).toEqual([['a', '', 'c', '']]);
  });

  it('treats a quote inside an unquoted field as text', () => {
    expect(cells('5" Display,b')).toEqual([['5" Display', 'b']]);
  });

  it('refuses an unterminated quote, naming the line where it opened', () => {
    const thrown = (() => {
      try {
        parseCsv('a,b\n1,"offen\n2,3\n');
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(CsvSyntaxError);
    expect(thrown).toMatchObject({ line: 2, message: expect.stringMatching(/Zeile 2 wird nie geschlossen/) });
  });

  it('reads text after a closing quote as part of the value, quotes and all, as a person typing it means it', () => {
    expect(cells('a,b\n"Müller" GmbH,2\n')).toEqual([
      ['a', 'b'],
      ['"Müller" GmbH', '2'],
    ]);
  });

  it('refuses an unterminated quote in the last record, naming its line', () => {
    expect(() => parseCsv('a,b\n1,2\n"')).toThrow(expect.objectContaining({ line: 3 }));
  });
});

describe('detectSeparator', () => {
  it('takes the semicolon German Excel writes', () => {
    expect(detectSeparator('\uFEFFmatchId;kunde;ek\nPL-1;"A, B";1,5')).toBe(';');
    expect(cells('matchId;kunde\nPL-1;"A; B"')).toEqual([
      ['matchId', 'kunde'],
      ['PL-1', 'A; B'],
    ]);
  });

  it('takes the comma otherwise, judging the header line only', () => {
    expect(detectSeparator('matchId,kunde\nPL-1;x;y;z')).toBe(',');
    expect(detectSeparator('"a;b;c",d,e')).toBe(',');
  });
});
