/**
 * `campuswatch sentiment train|status|rescore`: the sentiment model (crawler/classify/sentiment.ts).
 * `train` reads the shared Weibo sentiment corpus where it lies (../shared/corpus, or
 * CAMPUSWATCH_CORPUS_DIR, or --data) and writes only the derived model to the data directory;
 * until then classification uses the built-in lexicon.
 */
import path from "node:path";
import fs from "node:fs";
import type { Command } from "commander";
import type { Db } from "../../lib/db";
import { action, UserInputError } from "./util";

/** Register `sentiment` and its subcommands. Tests pass their own database and output. */
export function registerSentimentCommands(program: Command, options: { db?: Db; out?: (line: string) => void } = {}): Command {
  const out = options.out ?? ((l: string) => console.log(l));
  const getDb = async (): Promise<Db> => options.db ?? (await import("../../lib/db")).db;
  const sentiment = program.command("sentiment").description("post sentiment (负面 / 中性 / 正面): train the model, see which scorer runs, re-score posts");

  sentiment
    .command("train")
    .description("train the sentiment model on the shared Weibo sentiment corpus and install it")
    .option("--data <file>", "JSON lines {label: positive|negative, text} (default: weibo-senti-subset.jsonl in ../shared/corpus or CAMPUSWATCH_CORPUS_DIR)")
    .option("--out <file>", "where to write the model (default: CAMPUSWATCH_SENTIMENT_MODEL or DATA_DIR/sentiment-model.json)")
    .action(
      action(async (o: { data?: string; out?: string }) => {
        const c = await import("../classify");
        const file = path.resolve(o.data ?? path.join(c.corpusDir(), c.SENTIMENT_CORPUS_FILE));
        if (!fs.existsSync(file))
          throw new UserInputError(`${file} not found (give --data, or set CAMPUSWATCH_CORPUS_DIR to the folder holding ${c.SENTIMENT_CORPUS_FILE})`);
        const { samples, skipped } = c.readSentimentSamples(file);
        const model = c.trainSentiment(samples, { corpusFile: path.basename(file) });
        const target = o.out ? path.resolve(o.out) : c.sentimentModelPath();
        if (!target) throw new UserInputError("CAMPUSWATCH_SENTIMENT_MODEL=lexicon: give --out to write the model somewhere");
        c.saveSentimentModel(model, target);
        const h = model.json.heldOut;
        const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
        out(`trained on ${model.json.corpus.trainSamples} of ${samples.length} samples${skipped ? ` (${skipped} lines skipped)` : ""}; wrote ${target}`);
        out(
          `held out ${h.samples}: accuracy ${pct(h.accuracy)}; neutral band P(negative) ${model.band.low}–${model.band.high} holds ${pct(h.neutralShare)}, accuracy outside it ${pct(h.decidedAccuracy)}`,
        );
        out("posts classified from now on use it; `campuswatch sentiment rescore --all` re-judges stored posts");
      }),
    );

  sentiment
    .command("status")
    .description("which scorer classification uses (trained model or built-in lexicon)")
    .action(
      action(async () => {
        const s = (await import("../classify")).sentimentStatus();
        if (s.source === "model") out(`model ${s.path} (held-out accuracy ${((s.heldOut?.accuracy ?? 0) * 100).toFixed(1)}%)`);
        else out(`built-in lexicon${s.path ? ` (no usable model at ${s.path}: run campuswatch sentiment train)` : ""}`);
        if (s.problem) out(`problem: ${s.problem}`);
      }),
    );

  sentiment
    .command("rescore")
    .description("judge the sentiment of stored posts that have none (with --all: every post)")
    .option("--all", "every post, e.g. after training a new model")
    .action(
      action(async (o: { all?: boolean }) => {
        const { rescoreSentiment } = await import("../classify/sentiment-rescore");
        const n = await rescoreSentiment(await getDb(), { all: o.all === true });
        out(`judged ${n} posts`);
      }),
    );
  return sentiment;
}
