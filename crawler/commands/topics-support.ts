/**
 * The helpers of `campuswatch topics …` (./topics.ts): sample files, finding a topic, the
 * settings options as the form's fields, and how results are printed. The topic commands import
 * it when one runs (it loads the classifier); their option parsers are in ./util.ts.
 */
import fs from "node:fs";
import { z } from "zod";
import type { Db } from "../../lib/db";
import { ValidationError } from "../../lib/validation";
import {
  parseSamples,
  sampleFormatOf,
  topicLabelRule,
  TopicModel,
  type BinaryMetrics,
  type Sample,
  type TopicEvaluation,
  type TopicProgress,
} from "../classify";
import { UserInputError } from "./util";

/** What `topics list` reads of a stored evaluation: the classifier's F1, when it is a number. */
export const EVALUATION_F1 = z.object({ classifier: z.object({ f1: z.number() }) });

/** Where command output goes; tests capture it. */
export interface TopicCommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Options of {@link registerTopicCommands}; the CLI passes none. */
export interface TopicCommandOptions {
  /** Database client. @default the process-wide client of lib/db.ts (DATABASE_URL) */
  db?: Db;
  /** @default console.log / console.error */
  io?: TopicCommandIo;
}

export function pct(x: number): string {
  return `${(100 * x).toFixed(2)}%`;
}

export function metricsLine(name: string, m: BinaryMetrics): string {
  return `${name}: accuracy ${pct(m.accuracy)}, precision ${pct(m.precision)}, recall ${pct(m.recall)}, F1 ${pct(m.f1)} (TP ${m.truePositives}, FP ${m.falsePositives}, FN ${m.falseNegatives}, TN ${m.trueNegatives})`;
}

export function evaluationLines(e: TopicEvaluation): string[] {
  const lines = [`${e.samples} samples, ${e.onTopic} on-topic`, metricsLine(`classifier (P(on-topic) >= ${e.nbThreshold})`, e.classifier)];
  if (e.cosine) lines.push(metricsLine(`cosine (>= ${e.cosineThreshold})`, e.cosine));
  lines.push(metricsLine("flagged (classifier or cosine)", e.flagged));
  lines.push(`${Math.round(e.docsPerSecond)} docs/second (clean + segment + classify, one core)`);
  return lines;
}

/**
 * Read and parse a sample file, or throw after printing every bad record. `relevantLabels`: the
 * topic's, for the corpus label rule (`on-topic`/`off-topic` literal, look-alikes refused).
 */
export function readSamples(file: string, io: TopicCommandIo, relevantLabels: readonly string[] = []): Sample[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserInputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const { samples, errors } = parseSamples(text, sampleFormatOf(file), topicLabelRule(relevantLabels, "corpus"));
  if (errors.length > 0) {
    for (const e of errors.slice(0, 20)) io.err(`${file}:${e.line}: ${e.reason}`);
    if (errors.length > 20) io.err(`${file}: … and ${errors.length - 20} more`);
    const first = errors[0] as (typeof errors)[number];
    throw new UserInputError(
      `${file}: ${errors.length} bad record${errors.length === 1 ? "" : "s"} (first: line ${first.line}, ${first.reason}); nothing was changed`,
    );
  }
  if (samples.length === 0) throw new UserInputError(`${file}: no samples`);
  return samples;
}

/** A topic by name or id; a clear refusal when there is none. */
export async function findTopic(db: Db, nameOrId: string) {
  const byName = await db.topic.findUnique({ where: { name: nameOrId } });
  if (byName) return byName;
  if (/^\d+$/.test(nameOrId)) {
    const byId = await db.topic.findUnique({ where: { id: Number(nameOrId) } });
    if (byId) return byId;
  }
  throw new UserInputError(`no topic named "${nameOrId}" (see: campuswatch topics list)`);
}

/** The setting options `topics add` and `topics set` share (commander's names). */
export interface TopicOptions {
  keywords?: string[];
  sensitive?: string[];
  userDict?: string[];
  relevant?: string[];
  nbThreshold?: number;
  cosineThreshold?: number;
  description?: string;
  /** The classifier kind (`--model`), checked by the settings schema like the form's select. */
  model?: string;
  /** `--target-precision`: checked by the settings schema (0.5–0.99); "none" or '' clears it. */
  targetPrecision?: string;
  /** `--calibrate` / `--no-calibrate`; undefined: neither given. */
  calibrate?: boolean;
}

/** The options as the settings form's fields (server/topic-admin.ts); undefined: not given. */
export function topicInput(o: TopicOptions) {
  return {
    keywords: o.keywords,
    sensitiveWords: o.sensitive,
    userDict: o.userDict,
    relevantLabels: o.relevant,
    nbThreshold: o.nbThreshold,
    cosineThreshold: o.cosineThreshold,
    description: o.description,
    classifier: o.model,
    targetPrecision: o.targetPrecision === "none" ? "" : o.targetPrecision,
    calibrate: o.calibrate,
  };
}

/** The calibration settings as one line, printed when `--target-precision` or `--(no-)calibrate` was given. */
export function calibrationLine(t: { calibrate: boolean; targetPrecision: number | null }): string {
  if (!t.calibrate) return "threshold: kept as set (calibration off)";
  return `threshold: calibrated on held-out reviews after each full retrain (${t.targetPrecision === null ? "maximum F1" : `target precision ${t.targetPrecision}`})`;
}

/** The form's field names in a refusal, as the CLI's options. */
export const FIELD_FLAGS: Record<string, string> = {
  name: "--name",
  description: "--description",
  keywords: "--keywords",
  sensitiveWords: "--sensitive",
  userDict: "--user-dict",
  relevantLabels: "--relevant",
  nbThreshold: "--nb-threshold",
  cosineThreshold: "--cosine-threshold",
  classifier: "--model",
  targetPrecision: "--target-precision",
  calibrate: "--calibrate",
};

/**
 * Await a topic write, and say a schema refusal with the option names the user typed
 * (`--keywords: at most 200 entries`) rather than the form's field names.
 */
export async function withFlagNames<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (e) {
    if (!(e instanceof ValidationError) || !e.detail.issues) throw e;
    // A list's path names the item ("keywords.0"): the option is what the user can find.
    const byFlag = new Map<string, Set<string>>();
    for (const [path, messages] of Object.entries(e.fieldErrors)) {
      const field = path.split(".")[0] ?? path;
      const flag = FIELD_FLAGS[field] ?? field;
      for (const m of messages) (byFlag.get(flag) ?? byFlag.set(flag, new Set()).get(flag)!).add(m);
    }
    throw new UserInputError([...byFlag].map(([flag, messages]) => `${flag}: ${[...messages].join("; ")}`).join("; "));
  }
}

/** The classifier kind of a stored model; null when there is none or it cannot be read. */
export function storedClassifier(model: string | null): string | null {
  if (!model) return null;
  try {
    return TopicModel.fromJSON(model).classifier;
  } catch {
    return null;
  }
}

export function progressPrinter(io: TopicCommandIo) {
  return (p: TopicProgress) => io.err(`${p.phase}: ${p.message}`);
}
