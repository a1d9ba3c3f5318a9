/**
 * Topics for the dashboard: lists and details and sample uploads (the settings themselves are
 * written by ./topic-admin.ts, re-exported here). Training and re-scoring are jobs
 * (crawler/jobs/, asked for and read through ./jobs.ts): they run in the scheduler's process or a
 * PostgreSQL worker, never in the web server.
 */
import type { Db } from "../lib/db";
import { anyJson, parseJsonColumn } from "../lib/json-column";
import { SECRET_COLUMNS, type SecretsSet } from "./topic-channels";
import { recordAudit, type AuditActor } from "../lib/audit";
import {
  clearUploadedSamples as clearTopicUploads,
  addUploadedSamples,
  parseSamples,
  parseStringList,
  topicLabelRule,
  type SampleError,
  type SampleFormat,
} from "@/crawler/classify";
import { toNumber, type SqlNumber } from "./sql";

export { notificationChannels, type SecretsSet } from "./topic-channels";
/** A new topic's thresholds, for the new-topic form's initial values. */
export { DEFAULT_THRESHOLDS } from "@/crawler/classify";

// Creating, changing and deleting a topic (and the settings form's schema) live in ./topic-admin.ts,
// the one writer of topic settings for the dashboard and the CLI; re-exported for the pages.
export {
  changeTopic,
  createTopic,
  DEFAULT_RELEVANT_LABELS,
  deleteTopic,
  parseWordList,
  topicFormSchema,
  topicToForm,
  updateTopic,
  type DeletedTopic,
  type TopicForm,
  type TopicInput,
  type TopicSettings,
} from "./topic-admin";

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
  const v = parseJsonColumn(json, anyJson, null);
  return v && typeof v === "object" ? v : null;
}

/**
 * One topic with sample counts by source and label, and its last notifications. Without its model
 * JSON, and without its secrets: `secretsSet` says which are stored, so a page cannot show one.
 */
export async function getTopic(db: Db, id: number) {
  const row = await db.topic.findUnique({
    where: { id },
    omit: { model: true, webhookUrl: true, dingtalkWebhook: true, wecomWebhook: true, feishuWebhook: true },
  });
  if (!row) return null;
  // The sealed URLs are not even read: the pages show their masked `…Display` columns.
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

/**
 * The dashboard's sample upload: read the file with the topic's label rule (corpus mode of
 * {@link topicLabelRule}: `on-topic`/`off-topic` understood literally, relevance look-alikes
 * refused with their line) and store the good records as uploads (crawler/classify writes them). Null when there is no such topic.
 */
export async function uploadSamples(
  db: Db,
  topicId: number,
  text: string,
  format: SampleFormat,
  actor: AuditActor,
): Promise<{ kept: number; errors: SampleError[] } | null> {
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: { name: true, relevantLabels: true } });
  if (!topic) return null;
  const { samples, errors } = parseSamples(text, format, topicLabelRule(parseStringList(topic.relevantLabels), "corpus"));
  const kept = await addUploadedSamples(db, topicId, samples);
  if (kept > 0)
    await recordAudit(db, actor, { kind: "samples", action: "upload", targetId: topicId, target: topic.name, after: { kept, refused: errors.length, format } });
  return { kept, errors };
}

/** Remove a topic's uploaded samples (review samples stay). */
export async function clearUploadedSamples(db: Db, topicId: number, actor: AuditActor): Promise<{ count: number }> {
  const topic = await db.topic.findUnique({ where: { id: topicId }, select: { name: true } });
  const { count } = await clearTopicUploads(db, topicId);
  if (topic && count > 0)
    await recordAudit(db, actor, { kind: "samples", action: "clear", targetId: topicId, target: topic.name, before: { uploaded: count } });
  return { count };
}
