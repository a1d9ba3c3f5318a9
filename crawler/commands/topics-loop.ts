/**
 * `campuswatch topics queue|feedback`: the review loop from the command line, so it can be
 * scripted and measured. `queue` prints the lines of a JSONL file the topic most wants reviewed
 * (crawler/classify/active-learning.ts chooses them); `feedback` stores labelled lines as review
 * samples of the topic and runs the learn step in-process as a learn job with its row (the CLI acts
 * as a worker: crawler/jobs/ `runHere`), exactly as a learn job does for reviews made in the dashboard: folded in incrementally, counted toward the
 * every-N full retrain (with its threshold calibration), each sample counted once.
 *
 * Registered by registerTopicCommands (./topics.ts) on its `topics` command, with the same
 * injected database and output, so tests run both in-process.
 */
import fs from "node:fs";
import type { Command } from "commander";
import type { Db } from "../../lib/db";
import type { ReviewStrategy, TopicProgress } from "../classify";
import type { JobOutcome } from "../jobs";
import type { TopicCommandIo } from "./topics-support";
import { action, intOption, jobRefusal, UserInputError } from "./util";
import { CLI_ACTOR, recordAudit } from "../../lib/audit";

/** The classifier (nodejieba) and the topic helpers, loaded when a loop command runs, not when the CLI starts. */
async function load() {
  const [classify, { findTopic }] = await Promise.all([import("../classify"), import("./topics-support")]);
  return { ...classify, findTopic };
}

/** What the loop commands need from registerTopicCommands: its output and its database. */
export interface TopicLoopDeps {
  io: TopicCommandIo;
  getDb: () => Promise<Db>;
}

/** At most this many bad lines are printed one by one; the refusal gives the total. */
const MAX_LISTED_ERRORS = 20;

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserInputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Print the bad lines and refuse the whole file: nothing is used when any line is bad. */
function refuse(file: string, errors: readonly { line: number; reason: string }[], io: TopicCommandIo, what: string): never {
  for (const e of errors.slice(0, MAX_LISTED_ERRORS)) io.err(`${file}:${e.line}: ${e.reason}`);
  if (errors.length > MAX_LISTED_ERRORS) io.err(`${file}: … and ${errors.length - MAX_LISTED_ERRORS} more`);
  const first = errors[0] as { line: number; reason: string };
  throw new UserInputError(`${file}: ${errors.length} bad line${errors.length === 1 ? "" : "s"} (first: line ${first.line}, ${first.reason}); ${what}`);
}

/** The records of a JSONL file of candidates: objects with a non-empty string `text`, other fields kept. */
function readCandidates(file: string, io: TopicCommandIo): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const errors: { line: number; reason: string }[] = [];
  for (const [i, raw] of readFile(file).split(/\r?\n/).entries()) {
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      errors.push({ line: i + 1, reason: "not valid JSON" });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      errors.push({ line: i + 1, reason: "not a JSON object" });
      continue;
    }
    const text = (value as Record<string, unknown>).text;
    if (typeof text !== "string" || text.trim() === "") {
      errors.push({ line: i + 1, reason: text === undefined ? 'missing field "text"' : '"text" must be a non-empty string' });
      continue;
    }
    rows.push(value as Record<string, unknown>);
  }
  if (errors.length > 0) refuse(file, errors, io, "nothing was printed");
  return rows;
}

function strategyOption(value: string, strategies: readonly ReviewStrategy[]): ReviewStrategy {
  if (!(strategies as readonly string[]).includes(value)) throw new UserInputError(`--strategy must be one of ${strategies.join(", ")}`);
  return value as ReviewStrategy;
}

/**
 * Add `topics queue` and `topics feedback` to the `topics` command.
 * @param topics the `topics` command registerTopicCommands made
 * @param deps its output and database (tests pass their own)
 */
export function registerTopicLoopCommands(topics: Command, deps: TopicLoopDeps): void {
  const { io, getDb } = deps;

  topics
    .command("queue")
    .description("print the lines of a JSONL file the topic most wants reviewed, each with its score (JSONL)")
    .argument("<topic>", "topic name (or id)")
    .requiredOption("--data <file>", 'candidates: JSON Lines with a "text" field (other fields are printed back)')
    .requiredOption("--limit <k>", "how many lines to print", intOption("--limit", 1))
    .option("--strategy <s>", `uncertain: nearest the threshold, near-duplicates skipped; flagged: what the topic would flag, most confident last`, "uncertain")
    .action(
      action(async (nameOrId: string, o: { data: string; limit: number; strategy: string }) => {
        const { REVIEW_STRATEGIES, findTopic, TopicModel, selectForReview } = await load();
        const strategy = strategyOption(o.strategy, REVIEW_STRATEGIES);
        const db = await getDb();
        const topic = await findTopic(db, nameOrId);
        if (!topic.model) throw new UserInputError(`topic "${topic.name}" is not trained yet (campuswatch topics train)`);
        const rows = readCandidates(o.data, io);
        const model = TopicModel.fromJSON(topic.model);
        const picks = selectForReview(
          model,
          rows.map((r) => r.text as string),
          { limit: o.limit, strategy, threshold: topic.nbThreshold, cosineThreshold: topic.cosineThreshold },
        );
        // Four decimals: enough to order by, short enough to read.
        for (const p of picks) io.out(JSON.stringify({ ...rows[p.index], score: Math.round(p.score * 1e4) / 1e4 }));
        io.err(`${picks.length} of ${rows.length} lines (${strategy}, threshold ${topic.nbThreshold}, model v${topic.modelVersion})`);
      }),
    );

  topics
    .command("feedback")
    .description(
      "store labelled lines as review samples of the topic and update its model; labels: on-topic, off-topic or one of the topic's relevant labels (any other is refused with its line)",
    )
    .argument("<topic>", "topic name (or id)")
    .requiredOption("--data <file>", 'reviews: JSON Lines {"text", "label"}')
    .option("--rescore", "re-score stored posts with the updated model")
    .action(
      action(async (nameOrId: string, o: { data: string; rescore?: boolean }) => {
        const {
          findTopic,
          parseStringList,
          parseSamples,
          topicLabelRule,
          storeFeedbackSamples,
          learnTopic,
          trainTopic,
          TopicModel,
          parseCalibration,
          rescoreTopic,
        } = await load();
        const db = await getDb();
        const topic = await findTopic(db, nameOrId);
        const relevantLabels = parseStringList(topic.relevantLabels);
        if (relevantLabels.length === 0)
          throw new UserInputError(`topic "${topic.name}" has no relevant labels: campuswatch topics set "${topic.name}" --relevant LABEL`);
        // JSON Lines only: the same reader and label rule as uploads, so the same reasons for a bad
        // line; the review rule gives the topic's first relevant label or off-topic, and refuses the rest.
        const { samples: reviews, errors } = parseSamples(readFile(o.data), "jsonl", topicLabelRule(relevantLabels, "review"));
        if (errors.length > 0) refuse(o.data, errors, io, "nothing was stored");
        if (reviews.length === 0) throw new UserInputError(`${o.data}: no reviews`);
        const onLabel = relevantLabels[0] as string;
        const nRelevant = reviews.filter((s) => s.label === onLabel).length;
        // A learn job of the topic, run here (crawler/jobs/): shown by `jobs list`, and refused
        // (nothing stored) while the dashboard's or another terminal's job of the topic is queued or running.
        const { createJobRunner } = await import("../jobs");
        const ran = await createJobRunner({ db }).runHere(
          { kind: "learn", topicId: topic.id },
          {
            handler: async (ctx) => {
              await storeFeedbackSamples(db, topic.id, reviews);
              await recordAudit(db, CLI_ACTOR, {
                kind: "samples",
                action: "feedback",
                targetId: topic.id,
                target: topic.name,
                after: { stored: reviews.length, relevant: nRelevant },
              });
              io.out(`stored ${reviews.length} reviews of topic "${topic.name}": ${nRelevant} relevant, ${reviews.length - nRelevant} irrelevant`);
              const progress = (p: TopicProgress) => {
                io.err(`${p.phase}: ${p.message}`);
                ctx.progress(p);
              };
              let outcome: JobOutcome;
              // The learn job's own step, in this process: fold in, or retrain in full every N reviews.
              const r = await learnTopic(db, topic.id, { onProgress: progress });
              if (r.mode === "nothing" && topic.model !== null) {
                // Another learner (a learn job) took the samples meanwhile: they are in the model all the same.
                io.out(`nothing learned here: ${r.reason ?? ""}`);
                outcome = { message: `nothing learned: ${r.reason ?? ""}`, step: "learnedNothing" };
              } else if (r.mode === "nothing") {
                // An untrained topic has no model to fold into: train it (uploads and every review sample) as `topics train` would.
                const t = await trainTopic(db, topic.id, undefined, { onProgress: progress });
                io.out(`model v${t.modelVersion} (${t.classifier}) trained on ${t.samples} samples (${t.reviewSamples} from reviews)`);
                io.out(`threshold ${t.calibration.threshold}: ${t.calibration.reason}`);
                outcome = { message: `model v${t.modelVersion} trained on ${t.samples} samples (${t.reviewSamples} from reviews)`, step: "trained" };
              } else {
                const now = await db.topic.findUniqueOrThrow({
                  where: { id: topic.id },
                  select: { model: true, trainUploadSamples: true, reviewsLearned: true, nbThreshold: true },
                });
                const kind = now.model ? TopicModel.fromJSON(now.model).classifier : topic.classifier;
                const how = r.mode === "folded" ? `${r.learned} review${r.learned === 1 ? "" : "s"} folded in` : `retrained in full (${r.reason ?? ""})`;
                io.out(
                  `model v${r.modelVersion} (${kind}) on ${now.trainUploadSamples + now.reviewsLearned} samples (${now.reviewsLearned} from reviews): ${how}`,
                );
                if (r.mode === "retrained") {
                  const ev = await db.topicEvaluation.findFirst({ where: { topicId: topic.id }, orderBy: { id: "desc" }, select: { curve: true } });
                  const c = parseCalibration(ev?.curve);
                  io.out(`threshold ${now.nbThreshold}${c ? `: ${c.reason}` : ""}`);
                }
                if (r.rescored) io.err(`open flags re-scored: ${r.rescored.flagsUpdated} updated, ${r.rescored.flagsClosed} closed`);
                outcome = { message: `model v${r.modelVersion}: ${r.learned} review samples ${r.mode}`, step: r.mode === "folded" ? "learned" : "relearned" };
              }
              if (o.rescore) {
                const s = await rescoreTopic(db, topic.id, { onProgress: progress });
                io.out(`re-scored ${s.posts} posts: ${s.flagsOpened} flags opened, ${s.flagsUpdated} updated, ${s.flagsClosed} closed`);
              }
              return outcome;
            },
          },
        );
        if (ran.refused) throw jobRefusal(`topic "${topic.name}"`, ran.refused);
        if (ran.error !== undefined) throw ran.error;
      }),
    );
}
