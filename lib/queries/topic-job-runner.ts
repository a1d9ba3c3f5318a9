/**
 * Training or re-scoring one topic in a process of its own, started by the dashboard
 * (lib/queries/topics.ts → startTopicJob). Both are CPU-bound for seconds to minutes; running
 * them beside the web server would freeze every page meanwhile, and the classifier (nodejieba,
 * its data files) is meant for Node, not for the Next.js bundle.
 *
 *   node bin/tsx.mjs lib/queries/topic-job-runner.ts train|rescore TOPIC_ID
 *
 * Writes one JSON object per line on stdout: {"progress": {message, step, values, done?, total?}}
 * while working, then {"done": "summary", step, values} or {"failed": "message", step?, values?}.
 * `message` is English; `step` and `values` let the dashboard say it in the reader's language.
 * Uses DATABASE_URL like every process.
 */
import { db } from "../db";
import { rescoreTopic, trainTopic, TrainingError, type TopicProgress } from "@/crawler/classify";

const [kind, idArg] = process.argv.slice(2);
const topicId = Number(idArg);
const emit = (o: unknown) => process.stdout.write(JSON.stringify(o) + "\n");
const progress = (p: TopicProgress) => emit({ progress: { message: p.message, step: p.step, values: p.values, done: p.done, total: p.total } });

try {
  if (!Number.isSafeInteger(topicId) || (kind !== "train" && kind !== "rescore")) throw new Error("usage: topic-job-runner.ts train|rescore TOPIC_ID");
  if (kind === "train") {
    const r = await trainTopic(db, topicId, undefined, { onProgress: progress });
    emit({
      done: `model v${r.modelVersion} trained on ${r.samples} samples (${r.reviewSamples} from reviews)`,
      step: "trained",
      values: { version: r.modelVersion, samples: r.samples, reviews: r.reviewSamples },
    });
  } else {
    const r = await rescoreTopic(db, topicId, { onProgress: progress });
    emit({
      done: `re-scored ${r.posts} posts: ${r.flagsOpened} new flags, ${r.flagsUpdated} updated, ${r.flagsClosed} closed`,
      step: "rescored",
      values: { posts: r.posts, opened: r.flagsOpened, updated: r.flagsUpdated, closed: r.flagsClosed },
    });
  }
} catch (e) {
  // A refusal of the samples has a code the dashboard translates; anything else is shown as it is.
  emit(e instanceof TrainingError && e.code ? { failed: e.message, step: e.code, values: e.values } : { failed: (e as Error).message });
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
