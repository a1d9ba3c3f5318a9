/**
 * `campuswatch topics add|set|remove|list|train|eval`: watched topics, their training and evaluation.
 * Results go to stdout, progress to stderr; bad input exits 1 with a one-line reason (bad sample
 * files: one line per bad record, `FILE:LINE: reason`, then the refusal).
 *
 * Settings are written by server/topic-admin.ts, the same functions as the dashboard's form,
 * so a topic made here and one made there are the same rows.
 */
import type { Command } from "commander";
import type { Db } from "../../lib/db";
import { DEFAULT_CLASSIFIER, CLASSIFIER_KINDS } from "../../lib/classifiers";
// The rule's module has no imports: the options' help reads the defaults without loading the classifier.
import { DEFAULT_THRESHOLDS } from "../classify/relevance-rule";
import { action, jobRefusal, listOption, thresholdOption, UserInputError } from "./util";
import { CLI_ACTOR, recordAudit } from "../../lib/audit";
import { registerTopicLoopCommands } from "./topics-loop";
import type { TopicCommandIo, TopicCommandOptions, TopicOptions } from "./topics-support";

export type { TopicCommandIo, TopicCommandOptions } from "./topics-support";

/**
 * server/topic-admin.ts's DEFAULT_RELEVANT_LABELS as the options' help says it. Spelled out
 * here so that declaring the options does not load the settings schema (zod, the jobs layer) at
 * every start of the CLI; test/unit/cli-startup.test.ts checks that the two agree.
 */
export const DEFAULT_RELEVANT_HELP = "on-topic";

const KEYWORDS_HELP =
  "keyword rules, comma-separated or the option repeated (one rule each): 考试 | 食堂 中毒 (all) | (食堂|饭堂) (中毒|腹泻) (any of each group) | +must | !exclude | /食堂.{0,10}中毒/; they flag posts while the topic is untrained";

/**
 * `--keywords`, repeatable: each value is kept whole and the settings schema splits it with the
 * keyword-rule splitter (crawler/classify/keyword-rules.ts), which leaves a regex's or a group's
 * commas alone: `--keywords '/a.{0,10}b/, c'` is two rules, where a plain comma split would cut
 * the regex.
 */
function keywordRulesOption(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * What the topic commands run on, loaded when one runs: the settings (topic-admin), the classifier
 * (nodejieba) and the printing helpers.
 */
async function load() {
  const [admin, classify, support, json] = await Promise.all([
    import("../../server/topic-admin"),
    import("../classify"),
    import("./topics-support"),
    import("../../lib/json-column"),
  ]);
  return { ...admin, ...classify, ...support, ...json };
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
    .option("--keywords <rules>", KEYWORDS_HELP, keywordRulesOption)
    .option("--sensitive <list>", "comma-separated sensitive words (any hit flags a post)", listOption)
    .option("--user-dict <list>", "comma-separated words for the segmenter's user dictionary", listOption)
    .option("--relevant <labels>", `comma-separated sample labels that count as on-topic (default ${DEFAULT_RELEVANT_HELP})`, listOption)
    .option("--nb-threshold <p>", `flag when naive Bayes P(on-topic) >= p (default ${DEFAULT_THRESHOLDS.nbThreshold})`, thresholdOption("--nb-threshold"))
    .option("--cosine-threshold <r>", `flag when cosine relevance >= r (default ${DEFAULT_THRESHOLDS.cosineThreshold})`, thresholdOption("--cosine-threshold"))
    .option("--model <kind>", `the classifier training builds: ${CLASSIFIER_KINDS.join(" | ")} (default ${DEFAULT_CLASSIFIER})`)
    .option("--target-precision <p>", "calibrate the threshold to the lowest one holding this precision (0.5-0.99; default: maximum F1)")
    .option("--calibrate", "choose the threshold on held-out reviews after each full retrain (the default)")
    .option("--no-calibrate", "keep the threshold as set (--nb-threshold)")
    .option("--description <text>", "what the topic watches for")
    .option("--disabled", "create it switched off (it flags nothing until enabled)")
    .action(
      action(async (o: TopicOptions & { name: string; disabled?: boolean }) => {
        const { withFlagNames, createTopic, topicInput, calibrationLine } = await load();
        const db = await getDb();
        // The same function as the dashboard's form: same validation, defaults and word lists.
        const t = await withFlagNames(createTopic(db, { ...topicInput(o), name: o.name, enabled: !o.disabled }, CLI_ACTOR));
        const model = o.model ? `classifier ${t.classifier}, ` : "";
        io.out(`added topic ${t.id} "${t.name}" (${model}nb threshold ${t.nbThreshold}, cosine threshold ${t.cosineThreshold})`);
        if (o.targetPrecision !== undefined || o.calibrate !== undefined) io.out(calibrationLine(t));
      }),
    );

  topics
    .command("set")
    .description("change a topic's settings: only the options given change (a list option replaces the list; '' empties it)")
    .argument("<topic>", "topic name (or id)")
    .option("--name <name>", "new unique name")
    .option("--keywords <rules>", KEYWORDS_HELP, keywordRulesOption)
    .option("--sensitive <list>", "comma-separated sensitive words", listOption)
    .option("--user-dict <list>", "comma-separated words for the segmenter's user dictionary", listOption)
    .option("--relevant <labels>", `comma-separated sample labels that count as on-topic ('' for ${DEFAULT_RELEVANT_HELP})`, listOption)
    .option("--nb-threshold <p>", "flag when naive Bayes P(on-topic) >= p", thresholdOption("--nb-threshold"))
    .option("--cosine-threshold <r>", "flag when cosine relevance >= r", thresholdOption("--cosine-threshold"))
    .option("--model <kind>", `the classifier the next training builds: ${CLASSIFIER_KINDS.join(" | ")}`)
    .option("--target-precision <p>", "calibrate to the lowest threshold holding this precision (0.5-0.99; 'none': maximum F1)")
    .option("--calibrate", "choose the threshold on held-out reviews after each full retrain")
    .option("--no-calibrate", "keep the threshold as set (--nb-threshold)")
    .option("--description <text>", "what the topic watches for")
    .option("--enable", "switch the topic on")
    .option("--disable", "switch the topic off (it keeps its flags and model)")
    .action(
      action(async (nameOrId: string, o: TopicOptions & { name?: string; enable?: boolean; disable?: boolean }) => {
        if (o.enable && o.disable) throw new UserInputError("--enable and --disable exclude each other");
        const { topicInput, findTopic, withFlagNames, changeTopic, parseStringList, calibrationLine, storedClassifier } = await load();
        const changes = { ...topicInput(o), name: o.name, enabled: o.enable ? true : o.disable ? false : undefined };
        if (Object.values(changes).every((v) => v === undefined))
          throw new UserInputError("nothing to change: give at least one option (campuswatch topics set --help)");
        const db = await getDb();
        const topic = await findTopic(db, nameOrId);
        const t = await withFlagNames(changeTopic(db, topic.id, changes, CLI_ACTOR));
        io.out(
          `changed topic ${t.id} "${t.name}" (${t.enabled ? "on" : "off"}, ${o.model ? `classifier ${t.classifier}, ` : ""}nb threshold ${t.nbThreshold}, cosine threshold ${t.cosineThreshold}, relevant: ${parseStringList(t.relevantLabels).join(",")})`,
        );
        if (o.targetPrecision !== undefined || o.calibrate !== undefined) io.out(calibrationLine(t));
        // The stored model keeps its own kind: it goes on scoring until the topic is trained again.
        const trained = o.model ? storedClassifier(topic.model) : null;
        if (trained && trained !== t.classifier) {
          io.out(`train again to use ${t.classifier}: model v${topic.modelVersion} (${trained}) keeps scoring until then`);
        }
      }),
    );

  topics
    .command("remove")
    .description("delete a topic with its flags and their reviews, scores, samples, model, notifications and discovery runs (posts stay)")
    .argument("<topic>", "topic name (or id)")
    .action(
      action(async (nameOrId: string) => {
        const { findTopic, deleteTopic } = await load();
        const db = await getDb();
        const topic = await findTopic(db, nameOrId);
        const d = await deleteTopic(db, topic.id, CLI_ACTOR);
        io.out(
          `removed topic ${d.id} "${d.name}" with ${d.flags} flags (${d.reviews} reviews), ${d.samples} samples, ${d.notifications} notifications and ${d.discoveryRuns} discovery runs; posts stay`,
        );
      }),
    );

  topics
    .command("list")
    .description("list topics with their model and last evaluation")
    .option("--json", "one JSON object per line")
    .action(
      action(async (o: { json?: boolean }) => {
        const { parseJsonColumn, EVALUATION_F1, parseStringList, pct } = await load();
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
            classifier: true,
            modelVersion: true,
            trainedAt: true,
            evaluation: true,
          },
        });
        for (const t of rows) {
          const f1 = parseJsonColumn(t.evaluation, EVALUATION_F1, null)?.classifier.f1 ?? null;
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
            /** The kind the next training builds (the stored model may be of the kind before). */
            classifier: t.classifier,
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
                `classifier ${view.classifier}`,
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
        const { findTopic, parseStringList, readSamples, progressPrinter, trainTopic, evaluationLines, rescoreTopic } = await load();
        const { createJobRunner } = await import("../jobs");
        const db = await getDb();
        const topic = await findTopic(db, nameOrId);
        const samples = readSamples(o.data, io, o.relevant ?? parseStringList(topic.relevantLabels));
        const print = progressPrinter(io);
        // A train job of the topic, run here (crawler/jobs/): shown by `jobs list`, and refused
        // while the dashboard's (or another terminal's) job of the topic is queued or running.
        const ran = await createJobRunner({ db }).runHere(
          { kind: "train", topicId: topic.id },
          {
            handler: async (ctx) => {
              const progress = (p: Parameters<typeof print>[0]) => {
                print(p);
                ctx.progress(p);
              };
              const started = Date.now();
              const r = await trainTopic(db, topic.id, samples, { relevantLabels: o.relevant, onProgress: progress });
              await recordAudit(db, CLI_ACTOR, {
                kind: "topic",
                action: "train",
                targetId: topic.id,
                target: topic.name,
                before: { modelVersion: topic.modelVersion },
                after: { modelVersion: r.modelVersion, samples: r.samples, ...(o.relevant ? { relevantLabels: o.relevant } : {}) },
              });
              io.out(
                `trained topic "${topic.name}" model v${r.modelVersion} on ${r.samples} samples (${r.reviewSamples} from reviews) in ${((Date.now() - started) / 1000).toFixed(1)} s (classifier ${r.classifier})`,
              );
              io.out(
                `labels: ${Object.entries(r.labels)
                  .map(([l, n]) => `${l} ${n}`)
                  .join(", ")}`,
              );
              if (r.evaluation) for (const line of evaluationLines(r.evaluation)) io.out(`held-out 10%: ${line}`);
              const trained = `model v${r.modelVersion} trained on ${r.samples} samples (${r.reviewSamples} from reviews)`;
              if (!o.rescore) return { message: trained, step: "trained", values: { version: r.modelVersion, samples: r.samples, reviews: r.reviewSamples } };
              const s = await rescoreTopic(db, topic.id, { onProgress: progress });
              io.out(`re-scored ${s.posts} posts: ${s.flagsOpened} flags opened, ${s.flagsUpdated} updated, ${s.flagsClosed} closed`);
              return {
                message: `${trained}; re-scored ${s.posts} posts`,
                step: "trained",
                values: { version: r.modelVersion, samples: r.samples, reviews: r.reviewSamples },
              };
            },
          },
        );
        if (ran.refused) throw jobRefusal(`topic "${topic.name}"`, ran.refused);
        if (ran.error !== undefined) throw ran.error;
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
        const { findTopic, parseStringList, readSamples, TopicModel, evaluateTopicModel, evaluationLines } = await load();
        const db = await getDb();
        const topic = await findTopic(db, nameOrId);
        if (!topic.model) throw new UserInputError(`topic "${topic.name}" is not trained yet (campuswatch topics train)`);
        const relevantLabels = o.relevant ?? parseStringList(topic.relevantLabels);
        if (relevantLabels.length === 0) throw new UserInputError("say which labels are on-topic: --relevant LABEL[,LABEL]");
        const samples = readSamples(o.data, io, relevantLabels);
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

  registerTopicLoopCommands(topics, { io, getDb });
  return topics;
}
