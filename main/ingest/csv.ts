/**
 * A small CSV reader for manifest.csv (RFC 4180: quoted fields with "" escapes and line breaks
 * inside quotes, CRLF or LF), keeping the line each record starts on so errors can name it.
 * The delimiter is a comma, or a semicolon when the header has semicolons and no comma (what
 * spreadsheets write in many locales). An unterminated quote spoils only its own record:
 * reading goes on from the line after it.
 */

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

/** Offsets where each line starts, to turn a position into a line number. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function parseCsv(input: string): CsvResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const delimiter = detectDelimiter(text);
  const starts = lineStarts(text);
  const lineAt = (pos: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const records: CsvRecord[] = [];
  const errors: CsvError[] = [];
  let pos = 0;
  while (pos < text.length) {
    const recordStart = pos;
    const fields: string[] = [];
    let field = '';
    let unterminated = false;
    for (;;) {
      if (pos >= text.length) {
        fields.push(field);
        break;
      }
      const ch = text[pos]!;
      if (ch === '"' && field.length === 0) {
        // A quoted field: up to the closing quote; "" is a quote inside.
        let end = pos + 1;
        let value = '';
        for (;;) {
          const next = text.indexOf('"', end);
          if (next < 0) {
            unterminated = true;
            break;
          }
          value += text.slice(end, next);
          if (text[next + 1] === '"') {
            value += '"';
            end = next + 2;
            continue;
          }
          end = next + 1;
          break;
        }
        if (unterminated) break;
        field = value;
        pos = end;
        // Text after the closing quote (lenient: kept as it stands).
        while (pos < text.length && text[pos] !== delimiter && text[pos] !== '\n' && text[pos] !== '\r') field += text[pos++];
        continue;
      }
      if (ch === delimiter) {
        fields.push(field);
        field = '';
        pos++;
        continue;
      }
      if (ch === '\n' || ch === '\r') {
        fields.push(field);
        pos += ch === '\r' && text[pos + 1] === '\n' ? 2 : 1;
        break;
      }
      field += ch;
      pos++;
    }
    const line = lineAt(recordStart);
    if (unterminated) {
      errors.push({ line, message: `line ${line}: a quoted field is never closed`, fields });
      // Go on from the line after the one the bad record started on.
      pos = line < starts.length ? starts[line]! : text.length;
      continue;
    }
    // Blank lines are not records.
    if (fields.length === 1 && fields[0]!.trim() === '') continue;
    records.push({ line, fields });
  }
  return { records, errors, delimiter };
}
