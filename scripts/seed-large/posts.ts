/**
 * The posts of the large seed: posts and replies spread over the days with the campus rhythm,
 * a few edited posts with their earlier version, and every post classified against the three
 * topics, with flags (most older ones reviewed) and the review samples they leave.
 *
 * Rows are written in the exact formats the Prisma driver adapter uses (see ./index.ts), so
 * the triggers of the post_search migration (full-text index queue, daily roll-up) run as for crawled posts.
 */
import { ACCOUNTS, AUTHORS, PLAIN_SENTENCES, PLAIN_TITLES, REPLIES, TOPICS, type AccountSeed, type TopicSeed } from "./campus";
import { iso, type SeedContext } from "./context";
import { contentHash, htmlToText } from "../../crawler/text";
import { DEFAULT_THRESHOLDS, relevanceDecision } from "../../crawler/classify/relevance-rule";

/** Rows written by {@link writePosts}. */
export interface PostCounts {
  posts: number;
  replies: number;
  flags: number;
  reviews: number;
  versions: number;
}

/**
 * The stored text and content hash of an item's HTML, cleaned and hashed by the crawler's own
 * functions (crawler/text.ts), so that seeded rows are what a crawl stores: a later crawl of the
 * same content finds them unchanged, and a change of cleaning re-hashes them like crawled ones.
 */
function cleaned(title: string, html: string): { text: string; sha1: string } {
  const text = htmlToText(html);
  return { text, sha1: contentHash(title, text) };
}

/** Posting volume over the year: weekly rhythm, quiet summer and winter breaks, busy exam weeks. */
function dayWeight(ms: number): number {
  const d = new Date(ms + 8 * 3_600_000);
  const month = d.getUTCMonth() + 1;
  const dow = d.getUTCDay();
  let w = dow === 0 || dow === 6 ? 0.75 : 1;
  if (month === 7 || month === 8) w *= 0.45;
  if (month === 2) w *= 0.5;
  if (month === 1 || month === 6 || month === 12) w *= 1.25;
  return w;
}

/** A recent post of an account, which replies may answer. */
interface Recent {
  id: number;
  platformId: string;
  at: number;
  replies: number;
}

/** The URL of a post or reply the way its platform spells it. */
function postUrl(a: AccountSeed, pid: string, parent?: string): string {
  const origin = new URL(a.entryUrl).origin;
  switch (a.platform) {
    case "weibo":
      return `${origin}/${a.entryUrl.split("/").at(-1)}/${parent ?? pid}${parent ? `#comment-${pid}` : ""}`;
    case "tieba":
      return `${origin}/p/${parent ?? pid}${parent ? `?pid=${pid}#${pid}` : ""}`;
    case "discuz":
      return `${origin}/forum.php?mod=viewthread&tid=${parent ?? pid}${parent ? `#pid${pid}` : ""}`;
    default:
      return `${a.entryUrl}${parent ?? pid}.html${parent ? `#comment-${pid}` : ""}`;
  }
}
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Write `total` posts and replies over the seed's days, one transaction per day, logging progress
 * from `startedAt`; then set the posts' reply counts as the platforms show them.
 */
export function writePosts(ctx: SeedContext, total: number, startedAt: number): PostCounts {
  const { db, now, start, accountIds, topicIds, reviewerId } = ctx;
  const { rand, pick, chance, between } = ctx.random;
  const TOTAL = total;
  const DAYS = ctx.days;
  const insPost = db.prepare(
    `INSERT INTO "Post"(accountId, platformId, parentId, kind, url, title, author, publishedAt, text, html, sha1, version, replyCount, firstSeenAt, lastSeenAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insVersion = db.prepare(`INSERT INTO "PostVersion"(postId, version, title, text, html, sha1, seenAt, replacedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const insClass = db.prepare(
    `INSERT INTO "Classification"(postId, topicId, score, cosine, label, relevant, topTerms, sensitiveHits, modelVersion, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  );
  const insFlag = db.prepare(`INSERT INTO "Flag"(postId, topicId, reasons, score, status, createdAt, reviewedAt) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insReview = db.prepare(`INSERT INTO "Review"(flagId, reviewerId, decision, note, createdAt) VALUES (?, ?, ?, ?, ?)`);
  const insSample = db.prepare(`INSERT INTO "TopicSample"(topicId, text, label, source, postId, createdAt) VALUES (?, ?, ?, 'review', ?, ?)`);

  // Spread TOTAL rows over the days in proportion to the weights.
  const weights: number[] = [];
  for (let d = 0; d < DAYS; d++) weights.push(dayWeight(start + d * 86_400_000));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const accountWeightSum = ACCOUNTS.reduce((a, b) => a + b.weight, 0);
  const pickAccount = () => {
    let r = rand() * accountWeightSum;
    for (let i = 0; i < ACCOUNTS.length; i++) {
      r -= ACCOUNTS[i]!.weight;
      if (r <= 0) return i;
    }
    return ACCOUNTS.length - 1;
  };
  const recent: Recent[][] = ACCOUNTS.map(() => []);

  const counts: PostCounts = { posts: 0, replies: 0, flags: 0, reviews: 0, versions: 0 };
  let nextPid = 4_000_000_000;

  const writeDay = db.transaction((day: number, n: number) => {
    const dayStart = start + day * 86_400_000;
    // Times within the day, sorted, with the campus rhythm (few posts at night).
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      let h = between(0, 24);
      if (h < 7 && chance(0.7)) h = between(7, 24);
      else if (chance(0.25)) h = between(19, 24);
      let t = dayStart + Math.floor(h * 3_600_000);
      if (t >= now) t = dayStart + Math.floor(rand() * (now - dayStart));
      times.push(t);
    }
    times.sort((a, b) => a - b);
    for (const at of times) {
      const ai = pickAccount();
      const account = ACCOUNTS[ai]!;
      const accountId = accountIds[ai]!;
      const pool = recent[ai]!;
      const isReply = pool.length > 0 && chance(0.4);
      const pid = String(nextPid++);
      if (isReply) {
        const parent = pool[Math.floor(rand() * pool.length)]!;
        const text = chance(0.15) ? `${pick(REPLIES)}${pick(PLAIN_SENTENCES)}` : pick(REPLIES);
        const html = `<p>${escapeHtml(text)}</p>`;
        const c = cleaned("", html);
        const r = insPost.run(
          accountId,
          pid,
          parent.id,
          "reply",
          postUrl(account, pid, parent.platformId),
          "",
          pick(AUTHORS),
          iso(at),
          c.text,
          html,
          c.sha1,
          1,
          null,
          iso(at + 300_000),
          iso(at + 300_000),
        );
        parent.replies++;
        counts.replies++;
        classify(Number(r.lastInsertRowid), text, at, true);
        continue;
      }
      // A post: mostly campus life, sometimes on one of the topics.
      let topic: TopicSeed | null = null;
      const r0 = rand();
      let acc = 0;
      for (const t of TOPICS) {
        acc += t.rate * (account.name.includes("食堂") && t.name === "食堂" ? 6 : 1);
        if (r0 < acc) {
          topic = t;
          break;
        }
      }
      const sentences = [pick(PLAIN_SENTENCES), pick(PLAIN_SENTENCES)];
      if (chance(0.5)) sentences.push(pick(PLAIN_SENTENCES));
      if (topic) sentences.splice(Math.floor(rand() * sentences.length), 0, pick(topic.sentences));
      const title = account.platform === "weibo" ? "" : topic && chance(0.6) ? pick(topic.titles) : pick(PLAIN_TITLES);
      const text = sentences.join("\n");
      const image = chance(0.08) ? `<p><img src="https://img.example-cdn.cn/${pid}.jpg" alt="图片"></p>` : "";
      const html = sentences.map((s) => `<p>${escapeHtml(s)}</p>`).join("") + image;
      const edited = chance(0.005);
      const c = cleaned(title, html);
      const r = insPost.run(
        accountId,
        pid,
        null,
        "post",
        postUrl(account, pid),
        title,
        pick(AUTHORS),
        iso(at),
        c.text,
        html,
        c.sha1,
        edited ? 2 : 1,
        0,
        iso(at + 300_000),
        iso(at + 300_000),
      );
      const id = Number(r.lastInsertRowid);
      if (edited) {
        const oldText = sentences.slice(0, -1).join("\n") + "\n（原帖内容已修改）";
        const old = cleaned(title, `<p>${escapeHtml(oldText)}</p>`);
        insVersion.run(id, 1, title, old.text, `<p>${escapeHtml(oldText)}</p>`, old.sha1, iso(at + 300_000), iso(at + 7_200_000));
        counts.versions++;
      }
      pool.push({ id, platformId: pid, at, replies: 0 });
      if (pool.length > 40) pool.shift();
      counts.posts++;
      classify(id, title + "\n" + text, at, false);
    }
  });

  function classify(postId: number, text: string, at: number, reply: boolean) {
    for (let ti = 0; ti < TOPICS.length; ti++) {
      const t = TOPICS[ti]!;
      const hits = t.sensitive.filter((w) => text.includes(w));
      const about = t.sentences.some((s) => text.includes(s)) || t.keywords.some((k) => text.includes(k));
      const score = about ? between(0.55, 0.99) : reply ? between(0.01, 0.2) : between(0.01, 0.45);
      const cosine = about ? between(0.35, 0.8) : between(0, 0.3);
      const terms = about ? t.terms.filter((w) => text.includes(w)) : [];
      const topTerms = JSON.stringify(terms.slice(0, 5).map((term, i) => ({ term, weight: Number((0.5 - i * 0.07).toFixed(3)) })));
      // The thresholds of the seed's topics (../seed-large.ts writes the defaults) and the monitor's rule.
      const { relevant, byClassifier, byCosine } = relevanceDecision({ score, cosine, hasVector: true }, DEFAULT_THRESHOLDS);
      insClass.run(
        postId,
        topicIds[ti],
        score,
        cosine,
        relevant ? "on-topic" : "off-topic",
        relevant ? 1 : 0,
        topTerms,
        JSON.stringify(hits),
        iso(at + 300_000),
      );
      if (!relevant && hits.length === 0) continue;
      const reasons = [
        ...(byClassifier ? [{ kind: "classifier", detail: `P(on-topic) = ${score.toFixed(2)}` }] : []),
        ...(byCosine ? [{ kind: "cosine", detail: `r = ${cosine.toFixed(2)}` }] : []),
        ...hits.map((w) => ({ kind: "sensitive", detail: w })),
      ];
      const ageDays = (now - at) / 86_400_000;
      const reviewed = chance(ageDays > 14 ? 0.75 : ageDays > 2 ? 0.3 : 0.05);
      const confirmed = reviewed && chance(hits.length ? 0.8 : 0.55);
      const status = reviewed ? (confirmed ? "confirmed" : "dismissed") : "open";
      const reviewedAt = reviewed ? at + between(0.5, 48) * 3_600_000 : null;
      const f = insFlag.run(
        postId,
        topicIds[ti],
        JSON.stringify(reasons),
        Math.max(score, hits.length ? 1 : 0),
        status,
        iso(at + 300_000),
        reviewedAt ? iso(Math.min(reviewedAt, now)) : null,
      );
      counts.flags++;
      if (reviewed) {
        const flagId = Number(f.lastInsertRowid);
        insReview.run(
          flagId,
          reviewerId,
          confirmed ? "confirm" : "dismiss",
          chance(0.2) ? (confirmed ? "已转交学院处理" : "误报：正常讨论") : "",
          iso(Math.min(reviewedAt!, now)),
        );
        insSample.run(topicIds[ti], text, confirmed ? "on-topic" : "off-topic", postId, iso(Math.min(reviewedAt!, now)));
        counts.reviews++;
      }
    }
  }

  for (let d = 0; d < DAYS; d++) {
    const n = Math.round((TOTAL * weights[d]!) / weightSum);
    writeDay(d, d === DAYS - 1 ? Math.max(0, TOTAL - counts.posts - counts.replies) : n);
    if (d % 30 === 0 || d === DAYS - 1) {
      const done = counts.posts + counts.replies;
      console.log(
        `day ${d + 1}/${DAYS}: ${done.toLocaleString("en")} rows, ${counts.flags.toLocaleString("en")} flags (${((Date.now() - startedAt) / 1000).toFixed(0)} s)`,
      );
    }
  }
  // Reply counts on posts, as the platforms show them.
  db.exec(`UPDATE "Post" SET replyCount = (SELECT count(*) FROM "Post" r WHERE r.parentId = "Post".id) WHERE kind = 'post'`);
  return counts;
}
