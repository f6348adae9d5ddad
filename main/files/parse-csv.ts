/**
 * The one CSV reader (a watched folder's manifest.csv, the app's CSV import), on csv-parse
 * (RFC 4180: quoted fields with "" escapes and line breaks inside quotes, CRLF, LF or CR line
 * ends), keeping the line each record starts on so errors can
 * name it. The delimiter is a comma, or a semicolon when the header has semicolons and no comma
 * (what spreadsheets write in many locales). An unterminated quote spoils only its own record:
 * reading goes on from the line after the one it starts on.
 */
import { parse, type CsvError as ParseError } from 'csv-parse/sync';

export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  fields: string[];
}

export interface CsvError {
  line: number;
  message: string;
  /** The fields read before the error (the first ones are often still usable). */
  fields: string[];
}

export interface CsvResult {
  records: CsvRecord[];
  errors: CsvError[];
  delimiter: ',' | ';';
}

function detectDelimiter(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return commas === 0 && semicolons > 0 ? ';' : ',';
}

function options(delimiter: string, onRecord: (fields: string[], endLine: number, emptyLines: number) => void) {
  return {
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    // Rows of another length are reported by the manifest reader with their line, not here.
    relax_column_count: true,
    // Text after a closing quote, or a quote inside an unquoted field, is kept as it stands.
    relax_quotes: true,
    skip_empty_lines: true,
    on_record: (record: string[], context: { lines: number; empty_lines: number }) => {
      onRecord(record, context.lines, context.empty_lines);
      return null;
    },
  };
}

/** The fields of a line cut short by an unterminated quote: those before the quote's field. */
function fieldsBefore(line: string, delimiter: string): string[] {
  for (let end = line.lastIndexOf(delimiter); end >= 0; end = line.lastIndexOf(delimiter, end - 1)) {
    const fields: string[] = [];
    try {
      parse(line.slice(0, end), options(delimiter, (record) => fields.push(...record)));
      return fields;
    } catch {
      if (end === 0) break;
    }
  }
  return [];
}

export function parseCsv(input: string): CsvResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const delimiter = detectDelimiter(text);
  const lines = text.split(/\r\n|\n|\r/);
  const records: CsvRecord[] = [];
  const errors: CsvError[] = [];
  // Parse from line `from` (0-based) on; after an unterminated quote, go on from the next line.
  for (let from = 0; from < lines.length; ) {
    let lastEnd = from;
    let lastEmpty = 0;
    const chunk = lines.slice(from).join('\n');
    try {
      parse(
        chunk,
        options(delimiter, (fields, endLine, emptyLines) => {
          const start = lastEnd + 1 + (emptyLines - lastEmpty);
          lastEnd = from + endLine;
          lastEmpty = emptyLines;
          // A line of blanks is not a record.
          if (fields.length === 1 && fields[0]!.trim() === '') return;
          records.push({ line: start, fields });
        }),
      );
      break;
    } catch (error) {
      if ((error as ParseError).code !== 'CSV_QUOTE_NOT_CLOSED') throw error;
      // The broken record starts on the first non-blank line after the last good one.
      let start = lastEnd;
      while (start < lines.length - 1 && lines[start]!.trim() === '') start++;
      const line = start + 1;
      errors.push({ line, message: `line ${line}: a quoted field is never closed`, fields: fieldsBefore(lines[start]!, delimiter) });
      from = start + 1;
    }
  }
  return { records, errors, delimiter };
}
