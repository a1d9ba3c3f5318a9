/**
 * Reading labelled samples from an uploaded file: JSON Lines (`{"label": …, "text": …}` per line)
 * or CSV with a `label,text` header. Every bad record is reported with its line number and why;
 * good records are kept, so a caller decides whether to refuse the whole file.
 */
import type { Sample } from "./model";

/** A record that could not be read. `line` is 1-based (the first line of a multi-line CSV record). */
export interface SampleError {
  line: number;
  /** English, for the CLI. */
  reason: string;
  /** The reason as a key of the dashboard's `topics.sampleErrors` messages, with its values. */
  code: SampleErrorCode;
  values?: Record<string, string | number>;
}

/** Why a record of a samples file was not kept (keys of the dashboard's messages). */
export type SampleErrorCode =
  | "missingLabel"
  | "missingText"
  | "labelType"
  | "textType"
  | "emptyLabel"
  | "emptyText"
  | "invalidJson"
  | "notObject"
  | "header"
  | "unterminatedQuote"
  | "textAfterQuote"
  | "columns";

/** Result of {@link parseSamples}. */
export interface ParsedSamples {
  samples: Sample[];
  errors: SampleError[];
}

/** File formats {@link parseSamples} reads. */
export type SampleFormat = "jsonl" | "csv";

/** The format implied by a file name: `.csv` is CSV, anything else JSON Lines. */
export function sampleFormatOf(fileName: string): SampleFormat {
  return /\.csv$/i.test(fileName) ? "csv" : "jsonl";
}

function checkRecord(label: unknown, text: unknown, line: number, errors: SampleError[], samples: Sample[]): void {
  if (label === undefined || label === null) {
    errors.push({ line, reason: 'missing field "label"', code: "missingLabel" });
    return;
  }
  if (text === undefined || text === null) {
    errors.push({ line, reason: 'missing field "text"', code: "missingText" });
    return;
  }
  if (typeof label !== "string" && typeof label !== "number") {
    const type = Array.isArray(label) ? "array" : typeof label;
    errors.push({ line, reason: `"label" must be a string (got ${type})`, code: "labelType", values: { type } });
    return;
  }
  if (typeof text !== "string") {
    const type = Array.isArray(text) ? "array" : typeof text;
    errors.push({ line, reason: `"text" must be a string (got ${type})`, code: "textType", values: { type } });
    return;
  }
  const l = String(label).trim();
  if (l === "") {
    errors.push({ line, reason: "empty label", code: "emptyLabel" });
    return;
  }
  if (text.trim() === "") {
    errors.push({ line, reason: "empty text", code: "emptyText" });
    return;
  }
  samples.push({ label: l, text });
}

function parseJsonl(input: string): ParsedSamples {
  const samples: Sample[] = [];
  const errors: SampleError[] = [];
  const lines = input.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).replace(/^\uFEFF/, "");
    if (raw.trim() === "") continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      errors.push({ line, reason: `invalid JSON: ${(e as Error).message}`, code: "invalidJson" });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      errors.push({ line, reason: "expected a JSON object with label and text", code: "notObject" });
      continue;
    }
    const record = value as Record<string, unknown>;
    checkRecord(record.label, record.text, line, errors, samples);
  }
  return { samples, errors };
}

/** RFC 4180 records with the line each starts on: quoted fields may hold commas, quotes ("") and newlines. */
function csvRecords(input: string): { line: number; fields: string[]; error?: string }[] {
  const out: { line: number; fields: string[]; error?: string }[] = [];
  let line = 1;
  let i = input.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < input.length) {
    const start = line;
    const fields: string[] = [];
    let field = "";
    let error: string | undefined;
    for (;;) {
      if (input[i] === '"') {
        // Quoted field.
        i++;
        for (;;) {
          if (i >= input.length) {
            error = "unterminated quoted field";
            break;
          }
          const ch = input[i] as string;
          if (ch === '"') {
            if (input[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (ch === "\n") line++;
          field += ch;
          i++;
        }
        // Anything between the closing quote and the separator is malformed.
        while (i < input.length && input[i] !== "," && input[i] !== "\n" && input[i] !== "\r") {
          error ??= "text after a closing quote";
          i++;
        }
      } else {
        while (i < input.length && input[i] !== "," && input[i] !== "\n" && input[i] !== "\r") field += input[i++];
      }
      fields.push(field);
      field = "";
      if (i < input.length && input[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    if (input[i] === "\r") i++;
    if (input[i] === "\n") {
      i++;
      line++;
    }
    out.push({ line: start, fields, error });
  }
  return out;
}

function parseCsv(input: string): ParsedSamples {
  const samples: Sample[] = [];
  const errors: SampleError[] = [];
  const records = csvRecords(input).filter((r) => !(r.fields.length === 1 && (r.fields[0] as string).trim() === "" && !r.error));
  if (records.length === 0) return { samples, errors };
  const header = (records[0] as (typeof records)[number]).fields.map((f) => f.trim().toLowerCase());
  let labelCol = header.indexOf("label");
  let textCol = header.indexOf("text");
  let body = records.slice(1);
  if (labelCol < 0 && textCol < 0) {
    // No header: the documented column order.
    labelCol = 0;
    textCol = 1;
    body = records;
  } else if (labelCol < 0 || textCol < 0) {
    errors.push({ line: (records[0] as (typeof records)[number]).line, reason: `header must name both "label" and "text" columns`, code: "header" });
    return { samples, errors };
  }
  for (const r of body) {
    if (r.error) {
      errors.push({ line: r.line, reason: r.error, code: r.error === "unterminated quoted field" ? "unterminatedQuote" : "textAfterQuote" });
      continue;
    }
    if (r.fields.length <= Math.max(labelCol, textCol)) {
      const expected = Math.max(labelCol, textCol) + 1;
      errors.push({
        line: r.line,
        reason: `expected ${expected} columns (label, text), got ${r.fields.length}`,
        code: "columns",
        values: { expected, got: r.fields.length },
      });
      continue;
    }
    checkRecord(r.fields[labelCol], r.fields[textCol], r.line, errors, samples);
  }
  return { samples, errors };
}

/**
 * Parse labelled samples. JSON Lines: one object per line with string `label` and `text` (extra
 * keys ignored; blank lines skipped). CSV: a header naming `label` and `text` (or no header and
 * those two columns in that order). Reasons: invalid JSON, not an object, missing field, wrong
 * type, empty label, empty text, malformed CSV.
 */
export function parseSamples(text: string, format: SampleFormat): ParsedSamples {
  return format === "csv" ? parseCsv(text) : parseJsonl(text);
}
