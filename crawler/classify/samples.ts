/**
 * Reading labelled samples from an uploaded file: JSON Lines (`{"label": …, "text": …}` per line)
 * or CSV with a `label,text` header. Every bad record is reported with its line number and why;
 * good records are kept, so a caller decides whether to refuse the whole file.
 */
import { OFF_TOPIC, ON_TOPIC, type Sample } from "./model";

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
  | "columns"
  | "unknownLabel"
  | "lookalikeLabel";

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

/**
 * What a record's label means for a topic: the label to store, or a refusal (without the line,
 * which the reader adds). See {@link topicLabelRule}.
 */
export type LabelRule = (label: string) => string | Omit<SampleError, "line">;

// Spellings of "relevant or not" that are none of the accepted labels: refused in every file, so
// that "on topic" or "相关" never trains a class of its own. Only relevance words: yes/no, 0/1 or
// positive/negative are real class names in sentiment corpora.
const LOOKALIKES = new Set(["ontopic", "offtopic", "relevant", "irrelevant", "notrelevant", "nonrelevant", "相关", "不相关", "无关", "有关"]);

/**
 * The one label rule of a topic, for `topics feedback`, `topics train|evaluate --data` and the
 * dashboard's sample upload. Matching ignores case and surrounding spaces.
 *
 * - A relevant label of the topic (`体育`) is on-topic.
 * - `on-topic` and `off-topic`, literally, mean what they say whatever the relevant labels are:
 *   `on-topic` is stored as the topic's first relevant label, `off-topic` as `off-topic`.
 * - A look-alike (`on topic`, `On_Topic`, `relevant`, `相关`…) is refused with a hint: it is a
 *   reviewer's yes or no in a spelling the model would take as a class of its own (an off-topic one).
 * - Any other label: `review` (what reviewers type: `topics feedback`) refuses it, naming the
 *   labels accepted; `corpus` (training files: uploads, `--data`) keeps it as a class of its own —
 *   a corpus names its off-topic classes (THUCNews' 财经, 娱乐…), and they train as off-topic.
 */
export function topicLabelRule(relevantLabels: readonly string[], mode: "review" | "corpus"): LabelRule {
  const relevant = new Map(relevantLabels.map((l) => [l.trim().toLowerCase(), l]));
  const first = relevantLabels[0] ?? ON_TOPIC;
  const accepted = [...relevantLabels, ON_TOPIC, OFF_TOPIC].filter((l, i, all) => all.indexOf(l) === i).join(", ");
  return (label) => {
    const key = label.trim().toLowerCase();
    const own = relevant.get(key);
    if (own !== undefined) return mode === "review" ? first : own;
    if (key === ON_TOPIC) return first;
    if (key === OFF_TOPIC) return OFF_TOPIC;
    if (LOOKALIKES.has(key.replace(/[\s_-]+/g, "")))
      return {
        reason: `label "${label}" is ambiguous: write ${ON_TOPIC} or ${OFF_TOPIC} (or one of the topic's relevant labels: ${relevantLabels.join(", ") || "none"})`,
        code: "lookalikeLabel",
        values: { label, accepted },
      };
    if (mode === "corpus") return label;
    return { reason: `unknown label "${label}": use ${accepted}`, code: "unknownLabel", values: { label, accepted } };
  };
}

function checkRecord(label: unknown, text: unknown, line: number, errors: SampleError[], samples: Sample[], rule?: LabelRule): void {
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
  const stored = rule ? rule(l) : l;
  if (typeof stored !== "string") {
    errors.push({ line, ...stored });
    return;
  }
  samples.push({ label: stored, text });
}

function parseJsonl(input: string, rule?: LabelRule): ParsedSamples {
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
    checkRecord(record.label, record.text, line, errors, samples, rule);
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

function parseCsv(input: string, rule?: LabelRule): ParsedSamples {
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
    checkRecord(r.fields[labelCol], r.fields[textCol], r.line, errors, samples, rule);
  }
  return { samples, errors };
}

/**
 * Parse labelled samples. JSON Lines: one object per line with string `label` and `text` (extra
 * keys ignored; blank lines skipped). CSV: a header naming `label` and `text` (or no header and
 * those two columns in that order). Reasons: invalid JSON, not an object, missing field, wrong
 * type, empty label, empty text, malformed CSV, and what `rule` ({@link topicLabelRule}) refuses;
 * the labels kept are those the rule gives.
 */
export function parseSamples(text: string, format: SampleFormat, rule?: LabelRule): ParsedSamples {
  return format === "csv" ? parseCsv(text, rule) : parseJsonl(text, rule);
}
