/**
 * A small RFC 4180 reader for the match import: quoted fields, doubled quotes, separators and line
 * breaks inside quotes, CRLF, a leading BOM, and the semicolon that German Excel writes instead of
 * the comma.
 */

export type CsvSeparator = ',' | ';';

export interface CsvRecord {
  /** Line of the file where the record starts, counted from 1; a quoted line break spans lines. */
  line: number;
  cells: string[];
}

export class CsvSyntaxError extends Error {
  override name = 'CsvSyntaxError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const BOM = '\uFEFF';

function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** The separator that occurs more often outside quotes in the header line; comma when tied. */
export function detectSeparator(text: string): CsvSeparator {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of withoutBom(text)) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas++;
    else if (!quoted && char === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * Every record of the text, blank lines included as one empty cell, so that callers can report line
 * numbers as an editor shows them. Line breaks inside quoted fields become `\n`, so that a file gives
 * the same values whether it was saved on Windows or elsewhere.
 */
export function parseCsv(text: string, separator: CsvSeparator = detectSeparator(text)): CsvRecord[] {
  const input = withoutBom(text);
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let pending = false;
  let i = 0;

  const lineBreakLength = (at: number) => {
    if (input[at] === '\r') return input[at + 1] === '\n' ? 2 : 1;
    return input[at] === '\n' ? 1 : 0;
  };
  const endRecord = () => {
    cells.push(cell);
    records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
    pending = false;
  };

  while (i < input.length) {
    const char = input[i];
    if (char === '"' && cell === '' && !pending) {
      const openedOn = line;
      i++;
      for (;;) {
        if (i >= input.length) {
          throw new CsvSyntaxError(
            openedOn,
            `Das Anführungszeichen in Zeile ${openedOn} wird nie geschlossen.`,
          );
        }
        if (input[i] === '"') {
          if (input[i + 1] !== '"') break;
          cell += '"';
          i += 2;
          continue;
        }
        const lineBreak = lineBreakLength(i);
        if (lineBreak > 0) {
          cell += '\n';
          line++;
          i += lineBreak;
          continue;
        }
        cell += input[i];
        i++;
      }
      i++;
      pending = true;
      if (i < input.length && input[i] !== separator && lineBreakLength(i) === 0) {
        throw new CsvSyntaxError(
          line,
          `In Zeile ${line} folgt auf ein schließendes Anführungszeichen weder „${separator}“ noch ein Zeilenende. Anführungszeichen in einem Wert werden verdoppelt ("").`,
        );
      }
      continue;
    }
    if (char === separator) {
      cells.push(cell);
      cell = '';
      pending = false;
      i++;
      continue;
    }
    const lineBreak = lineBreakLength(i);
    if (lineBreak > 0) {
      endRecord();
      i += lineBreak;
      line++;
      recordLine = line;
      continue;
    }
    cell += char;
    pending = true;
    i++;
  }
  if (pending || cell !== '' || cells.length > 0) endRecord();
  return records;
}
