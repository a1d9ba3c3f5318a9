/**
 * `npm run bench:incidents`: the product's incident clustering (crawler/incidents IncidentClusterer,
 * the same core the crawl runs, here on its in-memory index) on labelled real Weibo events.
 *
 * Posts are fed in time order (input order among equal times). A reply's `parentId` is used as the
 * crawl uses a reply's parent post or a repost's original: an explicit link ("comment" → reply,
 * "repost"/"repost_quote" → link) when that post is in the file. Prints B-cubed precision, recall
 * and F1 against the `event` labels (a post left alone is a cluster of its own), the clustering
 * cost per post (CPU time of this thread, segmentation included), `textOnlyF1` (the same run with
 * every parentId ignored) and the cost per post with 100,000 posts already indexed (the corpus
 * replayed with shifted times and reworded texts, so the index really holds 100,000 posts).
 *
 *   npm run bench:incidents [-- --data FILE] [-- --json] [-- --out FILE] [-- --no-scale]
 *
 * --json prints exactly {"posts","events","incidents","bcubedPrecision","bcubedRecall","bcubedF1",
 * "msPerPost","textOnlyF1"}; --out writes one JSON line per input post, in input order:
 * {"id","incidentId"} (null for a post left alone: not clustered, or alone in its candidate).
 *
 * The corpus is read at run time from ../shared/corpus (or CAMPUSWATCH_CORPUS_DIR), never copied
 * into the repository; without it the benchmark says so and exits 0.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { bcubed } from "../crawler/incidents/bcubed";
import { IncidentClusterer, type ClusterOptions, type ClusterPost } from "../crawler/incidents/clusterer";
import { MemoryIndex } from "../crawler/incidents/memory-index";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpusDir = process.env.CAMPUSWATCH_CORPUS_DIR?.trim() || path.resolve(repoRoot, "../shared/corpus");

interface Row {
  event: string;
  time: string;
  text: string;
  kind?: string;
  id: string;
  parentId?: string;
}

function fail(message: string): never {
  process.stderr.write(`bench:incidents: ${message}\n`);
  process.exit(2);
}

/** Read and check the JSONL file: every line an object with event, time, text and id. */
function readRows(file: string): Row[] {
  const rows: Row[] = [];
  const lines = fs.readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      fail(`${file}:${i + 1}: not JSON`);
    }
    const o = r as Record<string, unknown>;
    if (
      typeof o !== "object" ||
      o === null ||
      typeof o.event !== "string" ||
      typeof o.text !== "string" ||
      typeof o.id !== "string" ||
      typeof o.time !== "string"
    )
      fail(`${file}:${i + 1}: needs string keys event, time, text and id`);
    if (Number.isNaN(Date.parse(o.time))) fail(`${file}:${i + 1}: time ${JSON.stringify(o.time)} is not a date`);
    if (o.parentId !== undefined && typeof o.parentId !== "string") fail(`${file}:${i + 1}: parentId must be a string`);
    rows.push(o as unknown as Row);
  });
  return rows;
}

/** The posts of the rows, keyed by their input index, in feeding (time) order. */
function postsOf(rows: readonly Row[], withLinks: boolean, shiftMs = 0, keyBase = 0, suffix = ""): ClusterPost[] {
  const index = new Map(rows.map((r, i) => [r.id, i]));
  const order = rows.map((_, i) => i).sort((a, b) => Date.parse(rows[a]!.time) - Date.parse(rows[b]!.time) || a - b);
  return order.map((i) => {
    const r = rows[i]!;
    const parent = withLinks && r.parentId !== undefined ? index.get(r.parentId) : undefined;
    return {
      key: keyBase + i,
      time: Date.parse(r.time) + shiftMs,
      text: r.text + suffix,
      parentKey: parent === undefined ? null : keyBase + parent,
      linkKind: r.kind === "comment" ? "reply" : "link",
    } satisfies ClusterPost;
  });
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Cluster the posts; returns each key's incident (null when alone) and the CPU ms per post. */
async function run(posts: readonly ClusterPost[], n: number, options: ClusterOptions = {}) {
  const index = new MemoryIndex();
  const clusterer = new IncidentClusterer(index, options);
  const incidentOf = new Array<number | null>(n).fill(null);
  const t0 = cpuMs();
  for (const p of posts) incidentOf[p.key] = (await clusterer.cluster(p)).incidentId;
  const ms = (cpuMs() - t0) / Math.max(1, posts.length);
  const sizes = index.incidentSizes();
  const out = incidentOf.map((id) => (id !== null && (sizes.get(id) ?? 0) > 1 ? id : null));
  return { out, ms, index, clusterer };
}

/**
 * Cost at scale: replay the corpus, shifted by a month each copy and with a copy mark appended
 * (so texts are new documents, not near-duplicates of the first copy), until 100,000 posts are
 * indexed; then measure the next copy.
 */
async function costAtScale(rows: readonly Row[], target: number, options: ClusterOptions): Promise<number> {
  const index = new MemoryIndex();
  const clusterer = new IncidentClusterer(index, options);
  const span = Math.max(...rows.map((r) => Date.parse(r.time))) - Math.min(...rows.map((r) => Date.parse(r.time))) + 30 * 24 * 3600 * 1000;
  let stored = 0;
  let copy = 0;
  while (stored < target) {
    for (const p of postsOf(rows, true, copy * span, copy * rows.length, ` 第${copy}批`)) await clusterer.cluster(p);
    stored += rows.length;
    copy++;
  }
  const measured = postsOf(rows, true, copy * span, copy * rows.length, ` 第${copy}批`);
  const t0 = cpuMs();
  for (const p of measured) await clusterer.cluster(p);
  return (cpuMs() - t0) / measured.length;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: "string" },
      json: { type: "boolean", default: false },
      out: { type: "string" },
      "no-scale": { type: "boolean", default: false },
      db: { type: "string" },
      "db-posts": { type: "string" },
      threshold: { type: "string" },
      scoring: { type: "string" },
      saturation: { type: "string" },
      topk: { type: "string" },
      bigram: { type: "string" },
      share: { type: "string" },
      "recency-min": { type: "string" },
      boost: { type: "string" },
      prior: { type: "string" },
    },
  });
  const file = values.data ? path.resolve(values.data) : path.join(corpusDir, "incidents-dev.jsonl");
  if (!fs.existsSync(file)) {
    if (values.data) fail(`${file} not found`);
    process.stdout.write(`bench:incidents: skipped, ${file} not found (the shared corpora are in ../shared/corpus)\n`);
    return;
  }
  const options: ClusterOptions = {
    ...(values.threshold ? { similarThreshold: Number(values.threshold) } : {}),
    ...(values.scoring ? { scoring: values.scoring as "cosine" } : {}),
    ...(values.saturation ? { saturation: Number(values.saturation) } : {}),
    ...(values.topk ? { queryTerms: Number(values.topk) } : {}),
    ...(values.bigram ? { bigramWeight: Number(values.bigram) } : {}),
    ...(values.share ? { shareFull: Number(values.share) } : {}),
    ...(values["recency-min"] ? { recencyMs: Number(values["recency-min"]) * 60_000 } : {}),
    ...(values.boost ? { recencyBoost: Number(values.boost) } : {}),
    ...(values.prior ? { idfPrior: Number(values.prior) } : {}),
  };
  const rows = readRows(file);
  const labels = rows.map((r) => r.event);
  const linked = await run(postsOf(rows, true), rows.length, options);
  const textOnly = await run(postsOf(rows, false), rows.length, { ...options, ignoreLinks: true });
  const score = bcubed(labels, linked.out);
  const textScore = bcubed(labels, textOnly.out);
  const result = {
    posts: rows.length,
    events: new Set(labels).size,
    incidents: new Set(linked.out.filter((x) => x !== null)).size,
    bcubedPrecision: round(score.precision),
    bcubedRecall: round(score.recall),
    bcubedF1: round(score.f1),
    msPerPost: round(linked.ms),
    textOnlyF1: round(textScore.f1),
  };
  if (values.out) {
    fs.writeFileSync(values.out, rows.map((r, i) => JSON.stringify({ id: r.id, incidentId: linked.out[i] }) + "\n").join(""));
  }
  if (values.json) {
    process.stdout.write(JSON.stringify(result) + "\n");
    return;
  }
  const print = (s: string) => process.stdout.write(s + "\n");
  print(`incident clustering on ${path.basename(file)}: ${result.posts} posts, ${result.events} events`);
  print(
    `  with links:  ${result.incidents} incidents (2+ posts)  B-cubed P ${result.bcubedPrecision}  R ${result.bcubedRecall}  F1 ${result.bcubedF1}  (target ≥ 0.90)`,
  );
  print(`  text only:   B-cubed P ${round(textScore.precision)}  R ${round(textScore.recall)}  F1 ${result.textOnlyF1}  (target ≥ 0.80)`);
  print(`  cost:        ${result.msPerPost} ms per post (CPU, one thread, segmentation included)`);
  if (values.db) {
    const n = Math.min(rows.length, Number(values["db-posts"] ?? 300));
    const r = await dbCost(values.db, rows.slice(0, n));
    print(
      `  database path (${r.kind}, ${n} posts through clusterPosts, as the crawl does): ${round(r.ms)} ms per post (wall), ${round(r.cpu)} ms CPU of this thread; same incidents as in memory: ${r.same}`,
    );
  }
  if (!values["no-scale"]) {
    const ms = await costAtScale(rows, 100_000, options);
    print(`  at 100,000 indexed posts: ${round(ms)} ms per post (target ≤ 2 ms) ${ms <= 2 ? "OK" : "OVER"}`);
  }
}

/**
 * The crawl's own path on a database: store the first rows as posts (replies under their parent),
 * queue them, and time clusterPosts; then check the database grouped them as the memory index does.
 * `target` is a DATABASE_URL of an empty database, or "sqlite" for a temporary file.
 */
async function dbCost(target: string, rows: readonly Row[]): Promise<{ kind: string; ms: number; cpu: number; same: boolean }> {
  const [{ createDb }, { migrateDatabase }, { clusterPosts }, { queueForClustering }, os] = await Promise.all([
    import("../lib/db"),
    import("../lib/migrate"),
    import("../crawler/incidents/cluster"),
    import("../crawler/incidents/queue"),
    import("node:os"),
  ]);
  const dir = target === "sqlite" ? fs.mkdtempSync(path.join(os.tmpdir(), "cw-bench-incidents-")) : null;
  const url = dir ? `file:${path.join(dir, "bench.db")}` : target;
  await migrateDatabase(url);
  const db = createDb(url);
  try {
    const account = await db.account.create({ data: { platform: "weibo", entryUrl: "http://127.0.0.1:9/u/1", name: "bench" } });
    const posts = postsOf(rows, true);
    const idOf = new Map<number, number>();
    for (const p of posts) {
      const r = rows[p.key]!;
      const created = await db.post.create({
        data: {
          accountId: account.id,
          platformId: r.id,
          url: `http://127.0.0.1:9/p/${r.id}`,
          text: r.text,
          publishedAt: new Date(p.time),
          sha1: r.id,
          kind: p.parentKey == null ? "post" : "reply",
          parentId: p.parentKey == null ? null : (idOf.get(p.parentKey) ?? null),
        },
      });
      idOf.set(p.key, created.id);
    }
    const ids = posts.map((p) => idOf.get(p.key)!);
    await db.$transaction((tx) => queueForClustering(tx, ids, [], new Date()));
    const t0 = performance.now();
    const c0 = cpuMs();
    for (let i = 0; i < ids.length; i += 50) await clusterPosts(db, ids.slice(i, i + 50));
    const ms = (performance.now() - t0) / ids.length;
    const cpu = (cpuMs() - c0) / ids.length;
    const members = new Map((await db.incidentPost.findMany()).map((m) => [m.postId, m.incidentId]));
    const key = (of: (k: number) => number | null | undefined) =>
      posts.map((a) => posts.map((b) => of(a.key) != null && of(a.key) === of(b.key)).join("")).join("|");
    const memOf = new Map<number, number | null>();
    posts.forEach((p) => memOf.set(p.key, null));
    const raw = new IncidentClusterer(new MemoryIndex());
    for (const p of posts) memOf.set(p.key, (await raw.cluster({ ...p, linkKind: "reply" })).incidentId);
    const same = key((k) => members.get(idOf.get(k)!)) === key((k) => memOf.get(k));
    return { kind: dir ? "SQLite" : "PostgreSQL", ms, cpu, same };
  } finally {
    await db.$disconnect();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

await main();
