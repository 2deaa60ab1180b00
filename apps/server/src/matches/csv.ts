import { CsvError, parse } from 'csv-parse/sync';

/**
 * The CSV side of the match import, read by csv-parse: quoted fields, doubled quotes, separators and
 * line breaks inside quotes, a leading BOM, and the semicolon that German Excel writes instead of the
 * comma. What it adds is what a person needs to correct the file: the line each record starts on, and
 * a German message naming the line where the file cannot be read.
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

const OPTIONS = {
  bom: true,
  // The row checks name a wrong number of cells with the header's count, in the row's own words.
  relax_column_count: true,
  // A quote inside an unquoted value (`5" Display`) is text, as a person typing the file means it.
  relax_quotes: true,
  // Blank lines are records of one empty cell, so that every line counts and line numbers stay right.
  skip_empty_lines: false,
} as const;

/** The separator that gives the header line more columns; comma when tied. */
export function detectSeparator(text: string): CsvSeparator {
  const header = text.split(/\r\n|\n|\r/, 1)[0] ?? '';
  const columns = (delimiter: CsvSeparator) => {
    try {
      return (parse(header, { ...OPTIONS, delimiter }) as string[][])[0]?.length ?? 0;
    } catch {
      return 0;
    }
  };
  return columns(';') > columns(',') ? ';' : ',';
}

/**
 * Every record of the text, blank lines included as one empty cell, so that callers can report line
 * numbers as an editor shows them. Line breaks inside quoted fields become `\n`, so that a file gives
 * the same values whether it was saved on Windows or elsewhere.
 */
export function parseCsv(text: string, separator: CsvSeparator = detectSeparator(text)): CsvRecord[] {
  const records: CsvRecord[] = [];
  // csv-parse counts lines up to the end of each record; a record starts on the line after the last.
  let lastLine = 0;
  try {
    parse(text.replace(/\r\n?/g, '\n'), {
      ...OPTIONS,
      delimiter: separator,
      on_record: (cells: string[], { lines }) => {
        records.push({ line: lastLine + 1, cells });
        lastLine = lines;
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = lastLine + 1;
    throw new CsvSyntaxError(
      line,
      error.code === 'CSV_QUOTE_NOT_CLOSED'
        ? `Das Anführungszeichen in Zeile ${line} wird nie geschlossen.`
        : `Die CSV-Datei lässt sich ab Zeile ${line} nicht lesen.`,
    );
  }
  return records;
}
