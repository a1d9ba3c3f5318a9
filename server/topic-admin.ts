/**
 * The one owner of topic settings: creating, changing and deleting a topic. The dashboard's
 * settings form and the CLI (`campuswatch topics add|set|remove`) both call these functions, so
 * a topic made either way gets the same validation, the same defaults and the same normalised
 * columns. (Training writes the model and, when asked, the relevant labels: crawler/classify.)
 *
 * Defaults of a new topic:
 * - `relevantLabels` is `["on-topic"]` when none are given. That is the label review decisions
 *   give a confirmed post when the topic names none (a dismissed one becomes `off-topic`,
 *   crawler/classify/topic-train.ts and server/reviews.ts), so a topic trained on its
 *   reviewers' decisions, or on a file labelled `on-topic` / `off-topic`, trains without any
 *   setting; with an empty list training refuses ("say which labels are on-topic"). A topic whose
 *   samples use other labels (体育, 食堂…) names them: `--relevant 体育` or the form's field.
 * - thresholds 0.5 (naive Bayes P(on-topic)) and 0.35 (cosine); no keywords or words.
 * - `classifier`: `nb` (lib/classifiers.ts). Changing it changes what the next training builds;
 *   the stored model keeps scoring, with its own kind, until then.
 * - `enabled`: the form's checkbox says it (absent means off); the CLI passes it explicitly.
 * - `calibrate` on, no `targetPrecision`: each full retrain sets the threshold that maximises F1 on
 *   held-out reviews (crawler/classify/calibrate.ts). Absent means on (a topic made elsewhere gets
 *   the column's default); the form sends "off" in a hidden field before its checkbox.
 */
import { alertData, alertFormFields, alertFormValues, type AlertColumns } from "./topic-alerts";
import { z } from "zod";
import { CLASSIFIER_KINDS, DEFAULT_CLASSIFIER } from "../lib/classifiers";
import type { Db } from "../lib/db";
import { cancelQueuedJob } from "@/crawler/jobs";
// Validated here, written by the tables' owner (crawler/classify, docs/tables.md).
import { createTopicRow, DEFAULT_THRESHOLDS, deleteTopicRow, parseKeywordRules, splitKeywordEntries, updateTopicRow } from "@/crawler/classify";
import { jsonList } from "../lib/format";
import { parseInput, ValidationError } from "../lib/validation";
import {
  channelData,
  channelFormFields,
  checkChannelSecrets,
  sealChannelSecrets,
  SECRET_COLUMNS,
  splitSealedChannels,
  type ChannelColumns,
} from "./topic-channels";
import { topicProblems } from "./topic-problems";
import { recordAudit, secretState, type AuditActor } from "../lib/audit";
import type { Prisma } from "../lib/db";

/** The topic columns the audit log reads: everything but the model (secrets are reduced to "set"). */
async function topicForAudit(db: Db | Prisma.TransactionClient, id: number) {
  return db.topic.findUnique({ where: { id }, omit: { model: true, evaluation: true } });
}
type TopicAuditRow = NonNullable<Awaited<ReturnType<typeof topicForAudit>>>;

/** A topic's settings as the audit log records them (lists as lists). */
function topicSettingsOf(t: TopicAuditRow) {
  return {
    name: t.name,
    description: t.description,
    enabled: t.enabled,
    keywords: jsonList<string>(t.keywords),
    userDict: jsonList<string>(t.userDict),
    sensitiveWords: jsonList<string>(t.sensitiveWords),
    relevantLabels: jsonList<string>(t.relevantLabels),
    nbThreshold: t.nbThreshold,
    cosineThreshold: t.cosineThreshold,
    classifier: t.classifier,
    calibrate: t.calibrate,
    targetPrecision: t.targetPrecision,
  };
}

/** The sealed channel columns and their masked display column (null: a secret, no display). */
const CHANNEL_AUDIT = [
  ["webhookUrl", "webhookUrlDisplay"],
  ["webhookSecret", null],
  ["dingtalkWebhook", "dingtalkWebhookDisplay"],
  ["dingtalkSecret", null],
  ["wecomWebhook", "wecomWebhookDisplay"],
  ["feishuWebhook", "feishuWebhookDisplay"],
  ["feishuSecret", null],
] as const;

/**
 * A topic's notification channels as the audit log records them: each robot URL as its masked
 * origin, each secret as "set" or "". `other` (the row before) marks a URL or secret typed anew
 * as "replaced" when its masked form alone would not show the change (the sealed text differs).
 */
function topicChannelsOf(t: TopicAuditRow, other?: TopicAuditRow | null) {
  const out: Record<string, string | null> = { notifyEmail: t.notifyEmail };
  for (const [column, display] of CHANNEL_AUDIT) {
    const value = t[column];
    const shown = display ? (t[display] ?? (value ? "set" : "")) : secretState(value);
    out[column] = other && value && other[column] && other[column] !== value && (!display || other[display] === t[display]) ? "replaced" : shown;
  }
  return out;
}

/** Record a topic's update: its settings (kind "topic") and its channels (kind "channel"), each only when changed. */
async function auditTopicUpdate(db: Db, actor: AuditActor, before: TopicAuditRow, after: TopicAuditRow): Promise<void> {
  const target = { targetId: after.id, target: after.name };
  await recordAudit(db, actor, { kind: "topic", action: "update", ...target, before: topicSettingsOf(before), after: topicSettingsOf(after) });
  await recordAudit(db, actor, { kind: "channel", action: "update", ...target, before: topicChannelsOf(before), after: topicChannelsOf(after, before) });
}

/** The relevant labels of a topic that names none (see the module comment for why). */
export const DEFAULT_RELEVANT_LABELS: readonly string[] = ["on-topic"];

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

// A list is typed text (the form) or already split (the CLI's comma lists): both end up split by
// parseWordList, so the CLI and the form store the same words for the same input.
const words = (max: number) =>
  z.preprocess(
    (v) => (Array.isArray(v) ? v.join("\n") : v),
    z
      .string()
      .default("")
      .transform(parseWordList)
      .pipe(
        z
          .array(z.string().max(50, topicProblems.error("wordTooLong", "each word at most 50 characters")))
          .max(max, topicProblems.error("atMostEntries", `at most ${max} entries`, { max })),
      ),
  );
/**
 * The keyword rules field (crawler/classify/keyword-rules.ts): one rule per line, or a plain
 * comma list as before; each rule parsed by the same parser the classifier uses, and a refused
 * rule said with its line (the rule's number) and position.
 */
const keywordRules = (max: number) =>
  z.preprocess(
    (v) => (Array.isArray(v) ? v.join("\n") : v),
    z
      .string()
      .default("")
      .transform(splitKeywordEntries)
      .pipe(z.array(z.string()).max(max, topicProblems.error("atMostEntries", `at most ${max} entries`, { max })))
      .superRefine((entries, ctx) => {
        for (const e of parseKeywordRules(entries).errors) {
          ctx.addIssue({
            code: "custom",
            message: e.message,
            params: topicProblems.params("keywordRule", { line: e.line, column: e.column, problem: e.problem }),
          });
        }
      }),
  );
const threshold = (label: string, number: "nbNumber" | "cosineNumber", range: "nbRange" | "cosineRange") =>
  z.coerce
    .number(topicProblems.error(number, `${label} must be a number`))
    .min(0, topicProblems.error(range, `${label} is between 0 and 1`))
    .max(1, topicProblems.error(range, `${label} is between 0 and 1`));

/**
 * A topic's settings as the form posts them (or the CLI gives them); the notification channels'
 * fields are in ./topic-channels.ts. Parsing a parsed value again gives the same value.
 */
export const topicFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, topicProblems.error("nameRequired", "a topic needs a name"))
      .max(60, topicProblems.error("atMostChars", "at most 60 characters", { max: 60 })),
    description: z.string().trim().max(500).default(""),
    enabled: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()).default(false),
    keywords: keywordRules(200),
    userDict: words(2000),
    sensitiveWords: words(500),
    relevantLabels: words(20),
    nbThreshold: threshold("the classifier threshold", "nbNumber", "nbRange").default(DEFAULT_THRESHOLDS.nbThreshold),
    cosineThreshold: threshold("the relevance threshold", "cosineNumber", "cosineRange").default(DEFAULT_THRESHOLDS.cosineThreshold),
    // A string in (the form's select, the CLI's --model), one of the kinds out.
    classifier: z
      .string()
      .default(DEFAULT_CLASSIFIER)
      .pipe(z.enum(CLASSIFIER_KINDS, { error: `the classifier is one of ${CLASSIFIER_KINDS.join(", ")}` })),
    calibrate: z.preprocess((v) => v === null || v === "on" || v === "true" || v === true, z.boolean()).default(true),
    // An empty field (the form) or null: no target, maximise F1.
    targetPrecision: z
      .preprocess(
        (v) => (v === null || (typeof v === "string" && v.trim() === "") ? null : v),
        z.coerce
          .number({ error: "the target precision must be a number" })
          .min(0.5, "the target precision is between 0.5 and 0.99")
          .max(0.99, "the target precision is between 0.5 and 0.99")
          .nullable(),
      )
      .default(null),
    ...channelFormFields,
    ...alertFormFields,
  })
  .superRefine(checkChannelSecrets);
export type TopicForm = z.output<typeof topicFormSchema>;
/** What {@link createTopic} and {@link updateTopic} accept: form values, or a parsed {@link TopicForm}. */
export type TopicInput = z.input<typeof topicFormSchema>;

/** A topic's settings as the form needs them: secrets only as "set or not", never their values. */
export interface TopicSettings extends ChannelColumns, AlertColumns {
  name: string;
  description: string;
  enabled: boolean;
  keywords: string;
  userDict: string;
  sensitiveWords: string;
  relevantLabels: string;
  nbThreshold: number;
  cosineThreshold: number;
  classifier: string;
  /** Absent (an older caller): on. */
  calibrate?: boolean;
  targetPrecision?: number | null;
  /** 0 while untrained: the form then need not say "train again" when the classifier changes. */
  modelVersion?: number;
}

/**
 * The form values of a stored topic (lists one per line). Secrets appear only as `…SecretSet: "1"`,
 * robot and webhook URLs only as `…Set: "1"` with their masked form in `…Shown`: the URL fields
 * themselves start empty (empty keeps the stored URL).
 */
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
    classifier: t.classifier,
    calibrate: t.calibrate === false ? "off" : "on",
    targetPrecision: t.targetPrecision == null ? "" : String(t.targetPrecision),
    trained: (t.modelVersion ?? 0) > 0 ? "1" : "",
    notifyEmail: t.notifyEmail ?? "",
    ...urlFormValues("webhookUrl", t.webhookUrlDisplay),
    ...urlFormValues("dingtalkWebhook", t.dingtalkWebhookDisplay),
    ...urlFormValues("wecomWebhook", t.wecomWebhookDisplay),
    ...urlFormValues("feishuWebhook", t.feishuWebhookDisplay),
    webhookSecretSet: t.secretsSet.webhook ? "1" : "",
    dingtalkSecretSet: t.secretsSet.dingtalk ? "1" : "",
    feishuSecretSet: t.secretsSet.feishu ? "1" : "",
    ...alertFormValues(t),
  };
}

/** A stored URL in the form: an empty field, whether one is stored, and its masked form. */
function urlFormValues(field: string, display: string | null): Record<string, string> {
  return { [field]: "", [`${field}Set`]: display ? "1" : "", [`${field}Shown`]: display ?? "" };
}

function toData(f: TopicForm, update: boolean) {
  return {
    name: f.name,
    description: f.description,
    enabled: f.enabled,
    keywords: JSON.stringify(f.keywords),
    userDict: JSON.stringify(f.userDict),
    sensitiveWords: JSON.stringify(f.sensitiveWords),
    relevantLabels: JSON.stringify(f.relevantLabels.length ? f.relevantLabels : DEFAULT_RELEVANT_LABELS),
    nbThreshold: f.nbThreshold,
    cosineThreshold: f.cosineThreshold,
    classifier: f.classifier,
    calibrate: f.calibrate,
    targetPrecision: f.targetPrecision,
    ...channelData(f, update),
    ...alertData(f),
  };
}

/** A unique-name violation as a refusal the form shows on its name field and the CLI prints. */
function nameClash(e: unknown, name: string): never {
  // Duck-typed: the error class differs between the generated client's runtimes (SQLite, PostgreSQL).
  if ((e as { code?: unknown } | null)?.code === "P2002") {
    throw new ValidationError(`a topic named "${name}" already exists`, { name: ["a topic with this name already exists"] }, { code: "nameExists" });
  }
  throw e;
}

/**
 * Create a topic from form values or CLI options. Throws a ValidationError when the input is
 * refused (field errors by form field) or the name is taken. Returns the row without its secrets.
 */
export async function createTopic(db: Db, input: TopicInput, actor: AuditActor) {
  const f = parseInput(topicFormSchema, input);
  const { sealed, rest: data } = splitSealedChannels(toData(f, false));
  try {
    // URLs and secrets are sealed bound to the row's id, known once it is inserted: see sealChannelSecrets.
    return await db.$transaction(async (tx) => {
      let topic = await createTopicRow(tx, { data, omit: SECRET_COLUMNS });
      if (Object.values(sealed).some(Boolean))
        topic = await updateTopicRow(tx, { where: { id: topic.id }, data: sealChannelSecrets(sealed, topic.id), omit: SECRET_COLUMNS });
      const row = (await topicForAudit(tx, topic.id))!;
      await recordAudit(tx, actor, {
        kind: "topic",
        action: "create",
        targetId: topic.id,
        target: topic.name,
        after: { ...topicSettingsOf(row), ...topicChannelsOf(row) },
      });
      return topic;
    });
  } catch (e) {
    nameClash(e, f.name);
  }
}

/**
 * Replace a topic's settings with a whole form (what the settings form saves): a setting left out
 * takes its default, except the secrets, which an empty field keeps (./topic-channels.ts).
 */
export async function updateTopic(db: Db, id: number, input: TopicInput, actor: AuditActor) {
  const f = parseInput(topicFormSchema, input);
  try {
    const before = await topicForAudit(db, id);
    const topic = await updateTopicRow(db, { where: { id }, data: sealChannelSecrets(toData(f, true), id), omit: SECRET_COLUMNS });
    const after = await topicForAudit(db, id);
    if (before && after) await auditTopicUpdate(db, actor, before, after);
    return topic;
  } catch (e) {
    nameClash(e, f.name);
  }
}

/**
 * Change only the given settings of a topic (the CLI's `topics set`): the others, channels and
 * secrets included, are kept. The result passes through the same validation as the form.
 */
export async function changeTopic(db: Db, id: number, changes: Partial<TopicInput>, actor: AuditActor) {
  const row = await db.topic.findUnique({ where: { id }, omit: { model: true } });
  if (!row) throw new ValidationError(`no topic with id ${id}`, { id: ["not found"] }, { code: "topicNotFound" });
  const secretsSet = { webhook: row.webhookSecret !== null, dingtalk: row.dingtalkSecret !== null, feishu: row.feishuSecret !== null };
  // Stored URLs are kept as they are (the form's "…Set" markers): changeTopic never opens them.
  // An undefined value is a setting not given (an option left out), not one to clear.
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const current = topicToForm({ ...row, secretsSet });
  return updateTopic(db, id, { ...current, ...given, name: typeof given.name === "string" ? given.name : row.name }, actor);
}

/** What went with a deleted topic (its posts stay). */
export interface DeletedTopic {
  id: number;
  name: string;
  flags: number;
  /** Review decisions on those flags. */
  reviews: number;
  /** Uploaded samples and samples from reviews. */
  samples: number;
  /** Posts' scores for this topic. */
  classifications: number;
  notifications: number;
  discoveryRuns: number;
}

/**
 * Delete a topic with everything that only means something for it: its flags and their reviews,
 * the posts' scores for it, its samples and model, its notification history and its discovery
 * runs (all by the schema's cascades). Posts, accounts and crawl runs stay. Throws a
 * ValidationError when there is no such topic.
 */
export async function deleteTopic(db: Db, id: number, actor: AuditActor): Promise<DeletedTopic> {
  const deleted = await db.$transaction(async (tx) => {
    const before = await topicForAudit(tx, id);
    const topic = await tx.topic.findUnique({
      where: { id },
      select: {
        id: true,
        name: true,
        _count: { select: { flags: true, samples: true, classifications: true, notifications: true, discoveries: true } },
      },
    });
    if (!topic) throw new ValidationError(`no topic with id ${id}`, { id: ["not found"] }, { code: "topicNotFound" });
    const reviews = await tx.review.count({ where: { flag: { topicId: id } } });
    await deleteTopicRow(tx, id);
    const n = topic._count;
    await recordAudit(tx, actor, {
      kind: "topic",
      action: "delete",
      targetId: id,
      target: topic.name,
      before: { ...(before ? { ...topicSettingsOf(before), ...topicChannelsOf(before) } : {}), flags: n.flags, reviews, samples: n.samples },
    });
    return {
      id,
      name: topic.name,
      flags: n.flags,
      reviews,
      samples: n.samples,
      classifications: n.classifications,
      notifications: n.notifications,
      discoveryRuns: n.discoveries,
    };
  });
  // Its queued training or re-scoring has nothing left to work on (one already running fails on the missing topic).
  await cancelQueuedJob(db, `topic:${id}`, "the topic was deleted");
  return deleted;
}
