/**
 * `npm run bench:harvest`: harvest rate of bfs, best-first and focused discovery on a synthetic
 * web built from the real corpus (method.md §3's evaluation), at 500, 1,000 and 2,000 pages.
 *
 *   npm run bench:harvest [-- --pages 2000 --target 体育 --seed 42 --seeds 3]
 *
 * The web: one article per ~200–400-character slice of the THUCNews "cnews" full texts, titled
 * with THUCNews titles of the same label, on 8 sites plus a link farm (test/support/synthetic-web).
 * The topic model is trained in-process on THUCNews titles that are NOT used in the web, all ten
 * labels, the target label on-topic. Seeds are home pages. Host delay 0.
 *
 * "Relevant" is the topic classifier's decision on the fetched page (what a crawl can know); the
 * generator's true label is reported beside it. Reads ../shared/corpus (or CAMPUSWATCH_CORPUS_DIR)
 * at run time and exits 0 with the reason when it is missing: corpus text never enters the repo.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { migrateDatabase } from "../lib/migrate";
import { createDb } from "../lib/db";
import { train, type Sample } from "../crawler/classify";
import { createFetcher, HostScheduler } from "../crawler/fetch";
import { createDiscoveryRun, runDiscovery, STRATEGIES, type StrategyName } from "../crawler/discover";
import { generateSyntheticWeb, seededShuffle, startSyntheticWeb, type LabelTexts } from "../test/support/synthetic-web";

const { values } = parseArgs({
  options: {
    pages: { type: "string", default: "2000" },
    target: { type: "string", default: "体育" },
    seed: { type: "string", default: "42" },
    seeds: { type: "string", default: "3" },
    "train-per-label": { type: "string", default: "1500" },
  },
});
const maxPages = Number(values.pages);
const target = values.target;
const seed = Number(values.seed);
const seedCount = Number(values.seeds);
const trainPerLabel = Number(values["train-per-label"]);
const CHECKPOINTS = [500, 1000, 2000].filter((n) => n <= maxPages);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpusDir = process.env.CAMPUSWATCH_CORPUS_DIR ?? path.resolve(root, "../shared/corpus");
const FULLTEXT = path.join(corpusDir, "cnews-fulltext.jsonl");
const TITLES = path.join(corpusDir, "thucnews-titles.jsonl");
for (const f of [FULLTEXT, TITLES]) {
  if (!fs.existsSync(f)) {
    console.log(`bench:harvest skipped: ${f} not found (set CAMPUSWATCH_CORPUS_DIR to the folder holding the corpus)`);
    process.exit(0);
  }
}

interface Doc {
  label: string;
  text: string;
}
const readJsonl = (file: string): Doc[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Doc);

/** Cut a text into slices of whole sentences, 200–400 characters each (a short news page). */
function slices(text: string): string[] {
  const sentences = text.match(/[^。！？]+[。！？]?/g) ?? [text];
  const out: string[] = [];
  let cur = "";
  for (const s of sentences) {
    cur += s;
    if (cur.length >= 200) {
      out.push(cur.slice(0, 400));
      cur = "";
    }
  }
  if (cur.length >= 100) out.push(cur);
  else if (cur && out.length > 0) out[out.length - 1] += cur;
  return out;
}

const started = performance.now();
const fulltext = readJsonl(FULLTEXT);
const titleDocs = readJsonl(TITLES);
const titlesByLabel = new Map<string, string[]>();
for (const d of seededShuffle(titleDocs, seed)) {
  const list = titlesByLabel.get(d.label) ?? [];
  list.push(d.text);
  titlesByLabel.set(d.label, list);
}
// The web uses the labels both corpora share (page titles come from the title set).
const webLabels = [...new Set(fulltext.map((d) => d.label))].filter((l) => titlesByLabel.has(l)).sort();
if (!webLabels.includes(target)) {
  console.log(`bench:harvest: target label ${target} is not among ${webLabels.join(" ")}`);
  process.exit(1);
}
const texts: Record<string, LabelTexts> = {};
const usedTitles = new Map<string, number>();
for (const label of webLabels) {
  const bodies = fulltext.filter((d) => d.label === label).flatMap((d) => slices(d.text));
  const titles = (titlesByLabel.get(label) as string[]).slice(0, bodies.length);
  usedTitles.set(label, titles.length);
  texts[label] = { titles, bodies };
}
// Training: titles the web does not use, every label of the title set (股票 and 社会 too).
const training: Sample[] = [];
for (const [label, titles] of titlesByLabel) {
  const from = usedTitles.get(label) ?? 0;
  for (const text of titles.slice(from, from + trainPerLabel)) training.push({ label, text });
}
const model = train(training, { relevantLabels: [target] });
const trainedIn = performance.now() - started;

const webModel = generateSyntheticWeb({ seed, texts, bodySlices: 2 });
const web = await startSyntheticWeb(webModel);
const farmHubs = webModel.farm.length;
const listHubs = webModel.sites.reduce(
  (n, s) => n + [...s.byLabel.values()].reduce((m, ids) => m + Math.max(1, Math.ceil(ids.length / webModel.options.listPageSize)), 0),
  0,
);
const totalPages = webModel.articles.length + listHubs + webModel.sites.length * 4 + farmHubs;
const onTopic = webModel.articles.filter((a) => a.label === target).length;
const seeds = Array.from({ length: Math.min(seedCount, webModel.sites.length) }, (_, i) => web.homeUrl(i));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-bench-harvest-"));
const dbUrl = `file:${path.join(dir, "bench.db")}`;
await migrateDatabase(dbUrl);
const db = createDb(dbUrl);
const topic = await db.topic.create({
  data: { name: target, relevantLabels: JSON.stringify([target]), model: JSON.stringify(model.toJSON()), modelVersion: 1, trainedAt: new Date() },
});

console.log(
  `web: ${totalPages} pages (${webModel.articles.length} articles, ${onTopic} labelled ${target}) on ${webModel.sites.length + (farmHubs ? 1 : 0)} loopback hosts; ` +
    `seeds: ${seeds.length} home pages; model trained on ${training.length} held-out titles in ${(trainedIn / 1000).toFixed(1)} s`,
);

interface Result {
  strategy: StrategyName;
  at: Map<number, { classifier: number; truth: number }>;
  crawled: number;
  seconds: number;
  agree: number;
  blockDrops: { links: number; offTopic: number };
}
const results: Result[] = [];
for (const strategy of STRATEGIES) {
  // The web's other loopback hosts are not seeds: trusted explicitly, as an operator would, so the
  // run's address policy (crawler/fetch/address-policy.ts) is in force as in production.
  const trustedHosts = [...web.origins.sites, web.origins.farm].filter(Boolean);
  const run = await createDiscoveryRun(db, { topic: topic.id, seeds: { urls: seeds }, strategy, maxPages, options: { hostDelayMs: 0, trustedHosts } });
  const at = new Map<number, { classifier: number; truth: number }>();
  let truth = 0;
  let agree = 0;
  const t0 = performance.now();
  const summary = await runDiscovery(db, run.id, {
    scheduler: new HostScheduler(),
    fetcherFactory: ({ scheduler, addressPolicy }) =>
      createFetcher({ mode: "http", scheduler, hostDelayMs: 0, retries: 0, addressPolicy, log: () => undefined }),
    flushEvery: 50,
    onPage: (e) => {
      const isTarget = web.labelOf(e.url) === target;
      if (isTarget) truth++;
      if (isTarget === e.relevant) agree++;
      if (CHECKPOINTS.includes(e.crawled)) at.set(e.crawled, { classifier: e.relevantSoFar / e.crawled, truth: truth / e.crawled });
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  // How precise were the block rules (pass 1) on this web? Judged by the generator's labels.
  const dropped = await db.frontierUrl.findMany({ where: { runId: run.id, reason: { contains: ": rule " } }, select: { url: true } });
  const offTopic = dropped.filter((d) => web.labelOf(d.url) !== target).length;
  results.push({
    strategy,
    at,
    crawled: summary.crawled,
    seconds,
    agree: agree / Math.max(1, summary.crawled),
    blockDrops: { links: dropped.length, offTopic },
  });
  console.log(
    `${strategy}: ${summary.crawled} pages in ${seconds.toFixed(1)} s (${(summary.crawled / seconds).toFixed(0)} pages/s), ` +
      `stopped: ${summary.reason}, classifier agrees with the labels on ${((agree / Math.max(1, summary.crawled)) * 100).toFixed(1)}% of pages`,
  );
}
await web.close();
await db.$disconnect();
fs.rmSync(dir, { recursive: true, force: true });

const fmt = (x: { classifier: number; truth: number } | undefined) => (x ? `${x.classifier.toFixed(3)} (${x.truth.toFixed(3)})` : "—");
const header = ["pages", ...results.map((r) => r.strategy)];
const rows = CHECKPOINTS.map((n) => [String(n), ...results.map((r) => fmt(r.at.get(n)))]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(" | ")} |`;
console.log(`\nHarvest rate, topic ${target}: classifier decision (generator label in brackets)\n`);
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
const last = CHECKPOINTS.at(-1);
if (last !== undefined) {
  const get = (s: StrategyName) => results.find((r) => r.strategy === s)?.at.get(last);
  const bfs = get("bfs");
  const best = get("best-first");
  const focused = get("focused");
  if (bfs && best && focused) {
    console.log(
      `\nAt ${last} pages: focused/bfs = ${(focused.classifier / bfs.classifier).toFixed(2)}× (labels: ${(focused.truth / bfs.truth).toFixed(2)}×), ` +
        `focused − best-first = ${(focused.classifier - best.classifier).toFixed(3)} (labels: ${(focused.truth - best.truth).toFixed(3)})`,
    );
  }
}
const f = results.find((r) => r.strategy === "focused");
if (f && f.blockDrops.links > 0) {
  console.log(
    `Block rules (focused run): ${f.blockDrops.links} links dropped, ${((f.blockDrops.offTopic / f.blockDrops.links) * 100).toFixed(1)}% of them off-topic by the generator's labels`,
  );
}
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
