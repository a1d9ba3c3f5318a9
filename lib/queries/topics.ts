/**
 * Topics for the dashboard: the settings form, sample uploads, and training / re-scoring. Those
 * two run in a child process (topic-job-runner.ts) so the web server stays responsive; their
 * progress is kept in this process's memory (one job per topic at a time; a restart forgets a
 * running job, and the topic's stored model version tells what finished).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "../db";
import { jsonList } from "../format";
import { ValidationError } from "../validation";
import { channelData, channelFormFields, checkChannelSecrets, SECRET_COLUMNS, type ChannelColumns, type SecretsSet } from "./topic-channels";
import type { Sample } from "@/crawler/classify";
import { toNumber, type SqlNumber } from "./sql";

export { notificationChannels, type SecretsSet } from "./topic-channels";

/** A list typed into a text box: one item per line or separated by commas (Chinese ones too). */
export function parseWordList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,，、;；]+/)
        .map((w) => w.trim())
        .filter(Boolean),
    ),
  ];
}

const words = (max: number) =>
  z
    .string()
    .default("")
    .transform(parseWordList)
    .pipe(z.array(z.string().max(50, "each word at most 50 characters")).max(max, `at most ${max} entries`));
const threshold = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .min(0, `${label} is between 0 and 1`)
    .max(1, `${label} is between 0 and 1`);

/** The topic settings form; the notification channels' fields are in ./topic-channels.ts. */
export const topicFormSchema = z
  .object({
    name: z.string().trim().min(1, "a topic needs a name").max(60, "at most 60 characters"),
    description: z.string().trim().max(500).default(""),
    enabled: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()).default(false),
    keywords: words(200),
    userDict: words(2000),
    sensitiveWords: words(500),
    relevantLabels: words(20),
    nbThreshold: threshold("the classifier threshold").default(0.5),
    cosineThreshold: threshold("the relevance threshold").default(0.35),
    ...channelFormFields,
  })
  .superRefine(checkChannelSecrets);
export type TopicForm = z.output<typeof topicFormSchema>;

/** A topic's settings as the form needs them: secrets only as "set or not", never their values. */
export interface TopicSettings extends ChannelColumns {
  name: string;
  description: string;
  enabled: boolean;
  keywords: string;
  userDict: string;
  sensitiveWords: string;
  relevantLabels: string;
  nbThreshold: number;
  cosineThreshold: number;
}

/** The form values of a stored topic (lists one per line). Secrets appear only as `…SecretSet: "1"`. */
export function topicToForm(t: TopicSettings): Record<string, string> {
  return {
    name: t.name,
    description: t.description,
    enabled: t.enabled ? "on" : "",
    keywords: jsonList<string>(t.keywords).join("\n"),
    userDict: jsonList<string>(t.userDict).join("\n"),
    sensitiveWords: jsonList<string>(t.sensitiveWords).join("\n"),
    relevantLabels: jsonList<string>(t.relevantLabels).join("\n"),
    nbThreshold: String(t.nbThreshold),
    cosineThreshold: String(t.cosineThreshold),
    webhookUrl: t.webhookUrl ?? "",
    notifyEmail: t.notifyEmail ?? "",
    dingtalkWebhook: t.dingtalkWebhook ?? "",
    wecomWebhook: t.wecomWebhook ?? "",
    feishuWebhook: t.feishuWebhook ?? "",
    webhookSecretSet: t.secretsSet.webhook ? "1" : "",
    dingtalkSecretSet: t.secretsSet.dingtalk ? "1" : "",
    feishuSecretSet: t.secretsSet.feishu ? "1" : "",
  };
}

function toData(f: TopicForm, update: boolean) {
  return {
    name: f.name,
    description: f.description,
    enabled: f.enabled,
    keywords: JSON.stringify(f.keywords),
    userDict: JSON.stringify(f.userDict),
    sensitiveWords: JSON.stringify(f.sensitiveWords),
    relevantLabels: JSON.stringify(f.relevantLabels.length ? f.relevantLabels : ["on-topic"]),
    nbThreshold: f.nbThreshold,
    cosineThreshold: f.cosineThreshold,
    ...channelData(f, update),
  };
}

function nameClash(e: unknown): never {
  if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
    throw new ValidationError("name: a topic with this name exists", { name: ["a topic with this name already exists"] });
  }
  throw e;
}

export async function createTopic(db: Db, f: TopicForm) {
  try {
    return await db.topic.create({ data: toData(f, false), omit: SECRET_COLUMNS });
  } catch (e) {
    nameClash(e);
  }
}

export async function updateTopic(db: Db, id: number, f: TopicForm) {
  try {
    return await db.topic.update({ where: { id }, data: toData(f, true), omit: SECRET_COLUMNS });
  } catch (e) {
    nameClash(e);
  }
}

export function deleteTopic(db: Db, id: number) {
  return db.topic.delete({ where: { id } });
}

/** Topics with their sample counts, flags and model. */
export async function listTopics(db: Db) {
  const [topics, samples, flags] = await Promise.all([
    db.topic.findMany({ orderBy: { name: "asc" }, omit: { model: true, ...SECRET_COLUMNS } }),
    db.topicSample.groupBy({ by: ["topicId"], _count: { _all: true } }),
    db.$queryRaw<{ topicId: SqlNumber; status: string; n: SqlNumber }[]>`SELECT "topicId", "status", sum("n") AS "n" FROM "flag_day_stats" GROUP BY 1, 2`,
  ]);
  return topics.map((t) => ({
    ...t,
    samples: samples.find((s) => s.topicId === t.id)?._count._all ?? 0,
    openFlags: toNumber(flags.find((f) => toNumber(f.topicId) === t.id && f.status === "open")?.n),
    flags: flags.filter((f) => toNumber(f.topicId) === t.id).reduce((s, f) => s + toNumber(f.n), 0),
    evaluation: parseEvaluation(t.evaluation),
  }));
}
export type TopicRow = Awaited<ReturnType<typeof listTopics>>[number];

export interface EvaluationFigures {
  samples?: number;
  onTopic?: number;
  classifier?: Metrics;
  cosine?: Metrics | null;
  flagged?: Metrics;
  docsPerSecond?: number;
  evaluatedAt?: string;
  /** Older or seeded figures: flat precision/recall/f1. */
  precision?: number;
  recall?: number;
  f1?: number;
  accuracy?: number;
}
interface Metrics {
  precision: number;
  recall: number;
  f1: number;
  accuracy: number;
  total?: number;
}

export function parseEvaluation(json: string | null): EvaluationFigures | null {
  if (!json) return null;
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === "object" ? v : null;
  } catch {
    return null;
  }
}

/**
 * One topic with sample counts by source and label, and its last notifications. Without its model
 * JSON, and without its secrets: `secretsSet` says which are stored, so a page cannot show one.
 */
export async function getTopic(db: Db, id: number) {
  const row = await db.topic.findUnique({ where: { id }, omit: { model: true } });
  if (!row) return null;
  const { webhookSecret, dingtalkSecret, feishuSecret, ...topic } = row;
  const secretsSet: SecretsSet = { webhook: webhookSecret !== null, dingtalk: dingtalkSecret !== null, feishu: feishuSecret !== null };
  const [samples, flags, notifications] = await Promise.all([
    db.topicSample.groupBy({ by: ["source", "label"], where: { topicId: id }, _count: { _all: true }, orderBy: [{ source: "asc" }, { label: "asc" }] }),
    db.$queryRaw<{ status: string; n: SqlNumber }[]>`SELECT "status", sum("n") AS "n" FROM "flag_day_stats" WHERE "topicId" = ${id} GROUP BY 1`,
    // Not the target (a robot URL holds its token) nor the payload (large).
    db.notification.findMany({ where: { topicId: id }, orderBy: { id: "desc" }, take: 20, omit: { target: true, payload: true } }),
  ]);
  return {
    ...topic,
    secretsSet,
    evaluationFigures: parseEvaluation(topic.evaluation),
    sampleCounts: samples.map((s) => ({ source: s.source, label: s.label, n: s._count._all })),
    flagCounts: Object.fromEntries(flags.map((f) => [f.status, toNumber(f.n)])) as Record<string, number>,
    notifications,
  };
}
export type TopicDetail = NonNullable<Awaited<ReturnType<typeof getTopic>>>;

/** Keep uploaded samples (added to the earlier uploads). */
export async function addSamples(db: Db, topicId: number, samples: readonly Sample[]) {
  for (let i = 0; i < samples.length; i += 1000) {
    await db.topicSample.createMany({ data: samples.slice(i, i + 1000).map((s) => ({ topicId, text: s.text, label: s.label, source: "upload" })) });
  }
  return samples.length;
}

export function clearUploadedSamples(db: Db, topicId: number) {
  return db.topicSample.deleteMany({ where: { topicId, source: "upload" } });
}

// ---- background jobs -----------------------------------------------------------------------------

export interface TopicJob {
  topicId: number;
  kind: "train" | "rescore";
  state: "running" | "done" | "failed";
  /** English (the CLI's words); the dashboard says `step` with `values` when it knows the step. */
  message: string;
  /** A key of the `topics.job.steps` messages (or of `topics.job.errors` when failed). */
  step?: string;
  values?: Record<string, string | number>;
  done?: number;
  total?: number;
  startedAt: string;
  finishedAt?: string;
  error?: string;
}

const store = globalThis as unknown as { campuswatchTopicJobs?: Map<number, TopicJob> };
const jobs = (store.campuswatchTopicJobs ??= new Map<number, TopicJob>());

/** The current or last job of a topic in this server process. */
export function topicJob(topicId: number): TopicJob | null {
  return jobs.get(topicId) ?? null;
}

/**
 * Start training or re-scoring in a child process. Returns false when a job of this topic is
 * already running. The work continues after the request that started it has been answered.
 */
export function startTopicJob(_db: Db, topicId: number, kind: "train" | "rescore"): boolean {
  const current = jobs.get(topicId);
  if (current?.state === "running") return false;
  const job: TopicJob = {
    topicId,
    kind,
    state: "running",
    message: kind === "train" ? "starting training" : "starting to re-score",
    step: "starting",
    startedAt: new Date().toISOString(),
  };
  jobs.set(topicId, job);
  const finish = (state: "done" | "failed", message: string, step?: string, values?: Record<string, string | number>) => {
    if (job.state !== "running") return;
    job.state = state;
    job.message = state === "failed" ? `failed: ${message}` : message;
    // A failure without a code keeps its own words (a crash's message); the dashboard shows it as is.
    if (state === "done" || step) {
      job.step = step;
      job.values = values;
    } else job.step = undefined;
    if (state === "failed") job.error = message;
    job.finishedAt = new Date().toISOString();
  };
  const root = process.cwd();
  const child = spawn(
    process.execPath,
    [
      path.join(/*turbopackIgnore: true*/ root, "bin", "tsx.mjs"),
      path.join(/*turbopackIgnore: true*/ root, "lib", "queries", "topic-job-runner.ts"),
      kind,
      String(topicId),
    ],
    { cwd: root, env: process.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    type Values = Record<string, string | number>;
    let msg: {
      progress?: { message: string; step?: string; values?: Values; done?: number; total?: number };
      done?: string;
      failed?: string;
      step?: string;
      values?: Values;
    };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      return;
    }
    if (msg.progress) {
      job.message = msg.progress.message;
      job.step = msg.progress.step;
      job.values = msg.progress.values;
      job.done = msg.progress.done;
      job.total = msg.progress.total;
    } else if (msg.done) finish("done", msg.done, msg.step, msg.values);
    else if (msg.failed) finish("failed", msg.failed, msg.step, msg.values);
  });
  child.on("error", (e) => finish("failed", e.message));
  child.on("close", (code) =>
    code === 0 ? finish("done", job.message, job.step, job.values) : finish("failed", stderr.trim().split("\n").at(-1) || `worker exited with ${code}`),
  );
  return true;
}
