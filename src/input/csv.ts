/**
 * Reading CSV as RFC 4180 writes it (and spreadsheets export it): fields separated by commas, a field
 * in double quotes may hold commas, quotes (doubled) and line breaks; CRLF or LF ends a record. A
 * UTF-8 byte-order mark is skipped; blank lines are dropped. Each record keeps its first line number,
 * so a problem can name where it is.
 */
import { UsageError } from '../errors.js';
import { inputLine } from '../terms.js';

export interface CsvRecord {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
}

export function parseCsv(text: string, source: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const input = text.replace(/^\uFEFF/, '');
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0]?.trim() === '')) records.push({ fields, line: start });
    fields = [];
    field = '';
  };
  while (i < input.length) {
    const c = input[i] as string;
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || (c === '\r' && input[i + 1] === '\n')) {
      if (c === '\r') i++;
      endRecord();
      line++;
      start = line;
    } else field += c;
    i++;
  }
  if (quoted) throw new UsageError(`${inputLine(source, start)}: a quoted field is not closed.`);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}
