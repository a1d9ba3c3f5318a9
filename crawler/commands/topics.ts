/**
 * `campuswatch topics add|list|train|eval`: watched topics, their training and evaluation.
 * Results go to stdout, progress to stderr; bad input exits 1 with a one-line reason (bad sample
 * files: one line per bad record, `FILE:LINE: reason`, then the refusal).
 */
import fs from "node:fs";
import { InvalidArgumentError, type Command } from "commander";
import type { Db } from "../../lib/db";
import {
  evaluateTopicModel,
  parseSamples,
  parseStringList,
  rescoreTopic,
  sampleFormatOf,
  trainTopic,
  TopicModel,
  type BinaryMetrics,
  type Sample,
  type TopicEvaluation,
  type TopicProgress,
} from "../classify";
import { action, listOption, UserInputError } from "./util";

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

function thresholdOption(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`${name} must be a number from 0 to 1`);
    return n;
  };
}

function pct(x: number): string {
  return `${(100 * x).toFixed(2)}%`;
}

function metricsLine(name: string, m: BinaryMetrics): string {
  return `${name}: accuracy ${pct(m.accuracy)}, precision ${pct(m.precision)}, recall ${pct(m.recall)}, F1 ${pct(m.f1)} (TP ${m.truePositives}, FP ${m.falsePositives}, FN ${m.falseNegatives}, TN ${m.trueNegatives})`;
}

function evaluationLines(e: TopicEvaluation): string[] {
  const lines = [`${e.samples} samples, ${e.onTopic} on-topic`, metricsLine(`classifier (P(on-topic) >= ${e.nbThreshold})`, e.classifier)];
  if (e.cosine) lines.push(metricsLine(`cosine (>= ${e.cosineThreshold})`, e.cosine));
  lines.push(metricsLine("flagged (classifier or cosine)", e.flagged));
  lines.push(`${Math.round(e.docsPerSecond)} docs/second (clean + segment + classify, one core)`);
  return lines;
}

/** Read and parse a sample file, or throw after printing every bad record. */
function readSamples(file: string, io: TopicCommandIo): Sample[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UserInputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const { samples, errors } = parseSamples(text, sampleFormatOf(file));
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

async function findTopic(db: Db, nameOrId: string) {
  const byName = await db.topic.findUnique({ where: { name: nameOrId } });
  if (byName) return byName;
  if (/^\d+$/.test(nameOrId)) {
    const byId = await db.topic.findUnique({ where: { id: Number(nameOrId) } });
    if (byId) return byId;
  }
  throw new UserInputError(`no topic named "${nameOrId}" (see: campuswatch topics list)`);
}

function progressPrinter(io: TopicCommandIo) {
  return (p: TopicProgress) => io.err(`${p.phase}: ${p.message}`);
}

/**
 * Register `topics` and its subcommands on the CLI program. The crawler's cli.ts calls this with
 * the program only; tests pass their own database and output.
 */
export function registerTopicCommands(program: Command, options: TopicCommandOptions = {}): Command {
  const io: TopicCommandIo = options.io ?? { out: (l) => console.log(l), err: (l) => console.error(l) };
  // The global client is imported lazily so that merely registering commands opens no database.
  const getDb = async (): Promise<Db> => options.db ?? (await import("../../lib/db")).db;

  const topics = program.command("topics").description("watched topics: keywords, sensitive words, trained classifiers");

  topics
    .command("add")
    .description("create a topic")
    .requiredOption("--name <name>", "unique topic name")
    .option("--keywords <list>", "comma-separated keywords (they flag posts while the topic is untrained)", listOption)
    .option("--sensitive <list>", "comma-separated sensitive words (any hit flags a post)", listOption)
    .option("--user-dict <list>", "comma-separated words for the segmenter's user dictionary", listOption)
    .option("--relevant <labels>", "comma-separated sample labels that count as on-topic", listOption)
    .option("--nb-threshold <p>", "flag when naive Bayes P(on-topic) >= p (default 0.5)", thresholdOption("--nb-threshold"))
    .option("--cosine-threshold <r>", "flag when cosine relevance >= r (default 0.35)", thresholdOption("--cosine-threshold"))
    .action(
      action(
        async (o: {
          name: string;
          keywords?: string[];
          sensitive?: string[];
          userDict?: string[];
          relevant?: string[];
          nbThreshold?: number;
          cosineThreshold?: number;
        }) => {
          const name = o.name.trim();
          if (!name) throw new UserInputError("--name must not be empty");
          const db = await getDb();
          try {
            const t = await db.topic.create({
              data: {
                name,
                keywords: JSON.stringify(o.keywords ?? []),
                sensitiveWords: JSON.stringify(o.sensitive ?? []),
                userDict: JSON.stringify(o.userDict ?? []),
                relevantLabels: JSON.stringify(o.relevant ?? []),
                ...(o.nbThreshold !== undefined ? { nbThreshold: o.nbThreshold } : {}),
                ...(o.cosineThreshold !== undefined ? { cosineThreshold: o.cosineThreshold } : {}),
              },
            });
            io.out(`added topic ${t.id} "${t.name}" (nb threshold ${t.nbThreshold}, cosine threshold ${t.cosineThreshold})`);
          } catch (e) {
            if ((e as { code?: string }).code === "P2002") throw new UserInputError(`a topic named "${name}" already exists`);
            throw e;
          }
        },
      ),
    );

  topics
    .command("list")
    .description("list topics with their model and last evaluation")
    .option("--json", "one JSON object per line")
    .action(
      action(async (o: { json?: boolean }) => {
        const db = await getDb();
        const rows = await db.topic.findMany({
          orderBy: { id: "asc" },
          select: {
            id: true,
            name: true,
            enabled: true,
            keywords: true,
            sensitiveWords: true,
            userDict: true,
            relevantLabels: true,
            nbThreshold: true,
            cosineThreshold: true,
            modelVersion: true,
            trainedAt: true,
            evaluation: true,
          },
        });
        for (const t of rows) {
          let f1: number | null = null;
          try {
            const e = t.evaluation ? (JSON.parse(t.evaluation) as { classifier?: { f1?: unknown } }) : null;
            f1 = typeof e?.classifier?.f1 === "number" ? e.classifier.f1 : null;
          } catch {
            f1 = null;
          }
          const view = {
            id: t.id,
            name: t.name,
            enabled: t.enabled,
            keywords: parseStringList(t.keywords),
            sensitiveWords: parseStringList(t.sensitiveWords),
            userDict: parseStringList(t.userDict),
            relevantLabels: parseStringList(t.relevantLabels),
            nbThreshold: t.nbThreshold,
            cosineThreshold: t.cosineThreshold,
            modelVersion: t.modelVersion,
            trainedAt: t.trainedAt?.toISOString() ?? null,
            heldOutF1: f1,
          };
          if (o.json) io.out(JSON.stringify(view));
          else
            io.out(
              [
                view.id,
                view.name,
                view.enabled ? "on" : "off",
                view.modelVersion > 0 ? `model v${view.modelVersion} (${view.trainedAt})` : "untrained",
                `relevant: ${view.relevantLabels.join(",") || "-"}`,
                `keywords: ${view.keywords.length}`,
                `sensitive: ${view.sensitiveWords.length}`,
                `thresholds nb ${view.nbThreshold} cos ${view.cosineThreshold}`,
                f1 !== null ? `held-out F1 ${pct(f1)}` : "",
              ]
                .filter(Boolean)
                .join("\t"),
            );
        }
        if (!o.json && rows.length === 0) io.out('no topics yet: campuswatch topics add --name "…"');
      }),
    );

  topics
    .command("train")
    .description("train a topic's classifier on labelled samples, then re-score stored posts")
    .argument("<topic>", "topic name (or id)")
    .requiredOption("--data <file>", "samples: JSON Lines {label, text} or CSV with a label,text header")
    .option("--relevant <labels>", "comma-separated labels that count as on-topic (stored on the topic)", listOption)
    .option("--no-rescore", "do not re-score stored posts")
    .action(
      action(async (nameOrId: string, o: { data: string; relevant?: string[]; rescore: boolean }) => {
        const db = await getDb();
        const topic = await findTopic(db, nameOrId);
        const samples = readSamples(o.data, io);
        const progress = progressPrinter(io);
        const started = Date.now();
        const r = await trainTopic(db, topic.id, samples, { relevantLabels: o.relevant, onProgress: progress });
        io.out(
          `trained topic "${topic.name}" model v${r.modelVersion} on ${r.samples} samples (${r.reviewSamples} from reviews) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
        io.out(
          `labels: ${Object.entries(r.labels)
            .map(([l, n]) => `${l} ${n}`)
            .join(", ")}`,
        );
        if (r.evaluation) for (const line of evaluationLines(r.evaluation)) io.out(`held-out 10%: ${line}`);
        if (o.rescore) {
          const s = await rescoreTopic(db, topic.id, { onProgress: progress });
          io.out(`re-scored ${s.posts} posts: ${s.flagsOpened} flags opened, ${s.flagsUpdated} updated, ${s.flagsClosed} closed`);
        }
      }),
    );

  topics
    .command("eval")
    .description("evaluate a trained topic on labelled samples: accuracy, precision, recall, F1 of the on-topic decision")
    .argument("<topic>", "topic name (or id)")
    .requiredOption("--data <file>", "samples: JSON Lines {label, text} or CSV with a label,text header")
    .option("--relevant <labels>", "comma-separated labels of the file that count as on-topic (default: the topic's)", listOption)
    .option("--nb-threshold <p>", "evaluate at this threshold instead of the topic's", thresholdOption("--nb-threshold"))
    .option("--cosine-threshold <r>", "evaluate at this cosine threshold instead of the topic's", thresholdOption("--cosine-threshold"))
    .option("--json", "print one JSON object")
    .action(
      action(async (nameOrId: string, o: { data: string; relevant?: string[]; nbThreshold?: number; cosineThreshold?: number; json?: boolean }) => {
        const db = await getDb();
        const topic = await findTopic(db, nameOrId);
        if (!topic.model) throw new UserInputError(`topic "${topic.name}" is not trained yet (campuswatch topics train)`);
        const relevantLabels = o.relevant ?? parseStringList(topic.relevantLabels);
        if (relevantLabels.length === 0) throw new UserInputError("say which labels are on-topic: --relevant LABEL[,LABEL]");
        const samples = readSamples(o.data, io);
        const model = TopicModel.fromJSON(topic.model);
        const e = evaluateTopicModel(model, samples, {
          relevantLabels,
          nbThreshold: o.nbThreshold ?? topic.nbThreshold,
          cosineThreshold: o.cosineThreshold ?? topic.cosineThreshold,
        });
        if (o.json) {
          io.out(
            JSON.stringify({
              topic: topic.name,
              modelVersion: topic.modelVersion,
              accuracy: e.classifier.accuracy,
              precision: e.classifier.precision,
              recall: e.classifier.recall,
              f1: e.classifier.f1,
              ...e,
            }),
          );
        } else {
          io.out(`topic "${topic.name}" model v${topic.modelVersion} on ${o.data}:`);
          for (const line of evaluationLines(e)) io.out(line);
        }
      }),
    );

  return topics;
}
