/**
 * SSRF (GitHub issue item 5): the crawler does not wander into the internal network. A blog
 * registered on 127.0.0.9 may be crawled (its administrator registered it), but what its content
 * points at — a redirect target, images read for OCR, links a discovery run follows — may not
 * reach another internal address. The "internal service" is a server on 127.0.0.1 that counts
 * requests and must receive none.
 *
 * The crawl is wired as the CLI wires it (crawler/runtime.ts createServices, the account's
 * address policy included); only OCR is replaced by a stand-in that always reads "图片文字", so
 * the test does not depend on tesseract — the image downloads still go through the fetcher.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../../crawler/runtime";
import { crawlAccount, type RunError } from "../../../crawler/worker";
import { createDiscoveryRun, runDiscovery } from "../../../crawler/discover";
import type { Ocr } from "../../../crawler/ocr";
import { createAccount } from "../../../server/accounts";
import { createTestDb, type TestDb } from "../../support/db";
import { htmlPage, startScriptedServer } from "../../support/scripted-server";
import { createTestTopic } from "../discover/support";
import { CLI_ACTOR } from "../../../lib/audit";

/** A server on 127.0.0.1 standing for an internal service (admin panel, metadata endpoint…). */
let internal: http.Server;
let internalPort = 0;
const internalHits: string[] = [];

beforeAll(async () => {
  internal = http.createServer((req, res) => {
    internalHits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "image/png" }).end("secret");
  });
  await new Promise<void>((r) => internal.listen(0, "127.0.0.1", r));
  internalPort = (internal.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => internal?.close(r));
});
afterEach(() => {
  internalHits.length = 0;
});

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

interface BlogPost {
  path: string;
  title: string;
  date: string;
  body: string;
  /** Where the listing links (default: the post's path on the blog). */
  listedAs?: string;
  /** Answer the article's URL with this redirect instead of the article. */
  redirectTo?: string;
}

/** A Hexo-like blog (listing + article pages, no feed) on 127.0.0.9, posts editable by the test. */
async function startBlog(posts: BlogPost[]): Promise<{ origin: string; entryUrl: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    requests.push(path);
    if (path === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    if (path === "/blog/ok.png") return void res.writeHead(200, { "content-type": "image/png" }).end(PNG);
    if (path === "/blog/") {
      const items = posts
        .map(
          (p) =>
            `<article class="post-block"><h2><a class="post-title-link" href="${p.listedAs ?? p.path}">${p.title}</a></h2>` +
            `<time itemprop="dateCreated datePublished" datetime="${p.date}">${p.date}</time><div class="post-body"><p>${p.title}……</p></div></article>`,
        )
        .join("\n");
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(`<!doctype html><html><head><title>校园博客</title><meta name="author" content="校园"></head><body>${items}</body></html>`);
    }
    const post = posts.find((p) => p.path === path);
    if (post?.redirectTo) return void res.writeHead(302, { location: post.redirectTo }).end();
    if (post) {
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          `<!doctype html><html><head><title>${post.title}</title></head><body><article><h1 class="post-title">${post.title}</h1><time itemprop="datePublished" datetime="${post.date}"></time><div class="post-body">${post.body}</div></article></body></html>`,
        );
    }
    res.writeHead(404, { "content-type": "text/html" }).end("<p>not found</p>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.9", r));
  const origin = `http://127.0.0.9:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    entryUrl: `${origin}/blog/`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("account crawl: content cannot send the crawler to internal addresses", () => {
  let t: TestDb | undefined;
  let blog: Awaited<ReturnType<typeof startBlog>> | undefined;
  afterAll(async () => {
    await blog?.close();
    await t?.cleanup();
  });

  it("refuses a redirect and images aimed at 127.0.0.1, records each with its URL, and crawls the rest normally", async () => {
    const inside = `http://127.0.0.1:${internalPort}`;
    const posts: BlogPost[] = [
      { path: "/blog/2024/05/welcome/", title: "迎新通知", date: "2024-05-01T10:00:00+08:00", body: "<p>欢迎新同学</p>" },
      { path: "/blog/2024/05/moved/", title: "搬家了", date: "2024-05-02T10:00:00+08:00", body: "", redirectTo: `${inside}/admin/moved` },
      {
        path: "/blog/2024/05/elsewhere/",
        title: "外链文章",
        date: "2024-05-03T10:00:00+08:00",
        body: "<p>站内正文</p>",
        // The listing links to the internal host; the blog adapter moves every link onto the
        // registered origin, so the request goes to 127.0.0.9, never to 127.0.0.1.
        listedAs: `${inside}/blog/2024/05/elsewhere/`,
      },
      {
        path: "/blog/2024/05/pictures/",
        title: "图片新闻",
        date: "2024-05-04T10:00:00+08:00",
        body: `<p>见图</p><img src="${inside}/x.png"><img src="http://intranet.campus.example:${internalPort}/z.png"><img src="/blog/ok.png">`,
      },
    ];
    blog = await startBlog(posts);
    t = await createTestDb();
    const account = await createAccount(t.db, { url: blog.entryUrl, name: "校园博客", fetchMode: "http", ocr: true }, CLI_ACTOR);

    const ocrReads: number[] = [];
    const ocr: Ocr = { available: async () => true, read: async (image) => (ocrReads.push(image.length), "图片文字") };
    // The injected resolver stands for DNS: one intranet name answers with the internal address.
    const resolve = async (host: string) => {
      if (host === "intranet.campus.example") return [{ address: "127.0.0.1", family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    };
    const services = { ...createServices({ db: t.db, hostDelayMs: 0, classify: false, archive: false, resolve }), ocr };

    const run = await crawlAccount(services, account.id, "cli");
    expect(internalHits).toEqual([]);

    const refusals = run.errors.filter((e) => e.kind === "AddressRefused");
    expect(refusals).toHaveLength(3);
    expect(run.errors).toEqual(refusals);
    const reasonFor = (fragment: string) => refusals.find((e) => e.reason.includes(fragment));
    expect(reasonFor(`${inside}/admin/moved`)).toMatchObject({
      url: `${blog.origin}/blog/2024/05/moved/`,
      reason: `refused ${inside}/admin/moved (redirect from ${blog.origin}/blog/2024/05/moved/): 127.0.0.1 is a loopback address (not a registered host)`,
    });
    expect(reasonFor(`${inside}/x.png`)).toMatchObject({
      url: `${inside}/x.png`,
      reason: `refused ${inside}/x.png: 127.0.0.1 is a loopback address (not a registered host)`,
    });
    expect(reasonFor(`intranet.campus.example`)).toMatchObject({
      url: `http://intranet.campus.example:${internalPort}/z.png`,
      reason: `refused http://intranet.campus.example:${internalPort}/z.png: intranet.campus.example resolves to 127.0.0.1, a loopback address (not a registered host)`,
    });

    // Recorded on the stored run too, each naming its URL.
    const stored = await t.db.crawlRun.findFirstOrThrow({ where: { accountId: account.id }, orderBy: { id: "desc" } });
    const storedErrors = JSON.parse(stored.errors) as RunError[];
    expect(
      storedErrors
        .filter((e) => e.kind === "AddressRefused")
        .map((e) => e.url)
        .sort(),
    ).toEqual([`${blog.origin}/blog/2024/05/moved/`, `${inside}/x.png`, `http://intranet.campus.example:${internalPort}/z.png`].sort());
    expect(stored.status).toBe("partial");

    // Everything else of the blog was crawled as usual: three posts, the image on the blog read.
    const rows = await t.db.post.findMany({ where: { accountId: account.id }, orderBy: { publishedAt: "asc" } });
    expect(rows.map((r) => r.title)).toEqual(["迎新通知", "外链文章", "图片新闻"]);
    expect(rows.find((r) => r.title === "外链文章")?.text).toContain("站内正文");
    expect(rows.find((r) => r.title === "图片新闻")?.ocrText).toBe("图片文字");
    expect(ocrReads).toEqual([PNG.length]);
    expect(blog.requests).toContain("/blog/2024/05/elsewhere/");

    // A second crawl still works: a new post is stored, the internal server still sees nothing.
    posts.push({ path: "/blog/2024/05/later/", title: "后续报道", date: "2024-05-05T10:00:00+08:00", body: "<p>后续</p>" });
    const again = await crawlAccount(services, account.id, "cli");
    expect(again.newPosts).toBe(1);
    expect(again.errors.every((e) => e.kind === "AddressRefused")).toBe(true);
    expect(await t.db.post.count({ where: { accountId: account.id } })).toBe(4);
    expect(internalHits).toEqual([]);
    await services.flush(); // notifications run after the crawl: let them finish before the database goes
  });
});

describe("discovery: links found on pages cannot reach internal addresses", () => {
  let t: TestDb | undefined;
  afterAll(async () => {
    await t?.cleanup();
  });

  it("refuses a link to 127.0.0.1, records the reason on the frontier, and crawls the seed's own pages", async () => {
    const site = await startScriptedServer({ host: "127.0.0.9" });
    try {
      const inside = `http://127.0.0.1:${internalPort}`;
      site.route(
        "/",
        htmlPage(
          "体育新闻",
          `<a href="/news/1.html">女排比赛夺冠</a> <a href="${inside}/news/2.html">国足联赛决赛</a> <a href="http://0x7f.1:${internalPort}/news/3.html">前锋比赛</a>`,
        ),
      );
      site.route("/news/1.html", htmlPage("女排比赛夺冠", "<p>中国女排在世界杯比赛中连续击败强敌。</p>"));
      t = await createTestDb();
      const topic = await createTestTopic(t.db);
      const run = await createDiscoveryRun(t.db, {
        topic: topic.id,
        seeds: { urls: [`${site.origin}/`] },
        strategy: "bfs",
        maxPages: 20,
        options: { hostDelayMs: 0 },
      });
      const summary = await runDiscovery(t.db, run.id, { pollStatus: false });
      expect(summary.status).toBe("done");
      expect(internalHits).toEqual([]);

      const frontier = await t.db.frontierUrl.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
      const refused = frontier.filter((f) => f.url.startsWith(inside));
      // The hex spelling is normalised to 127.0.0.1 like any other: two entries, both refused.
      expect(refused.map((f) => [f.url, f.state, f.reason])).toEqual(
        [2, 3].map((n) => [
          `${inside}/news/${n}.html`,
          "irrelevant",
          `refused ${inside}/news/${n}.html: 127.0.0.1 is a loopback address (not a registered host)`,
        ]),
      );
      expect(refused.every((f) => f.fetchedAt !== null)).toBe(true);
      expect(frontier.find((f) => f.url === `${site.origin}/news/1.html`)?.fetchedAt).not.toBeNull();
      expect(site.requestsTo("/news/1.html")).toHaveLength(1);
    } finally {
      await site.close();
    }
  });

  it("rejects a malformed trusted host when the run is created", async () => {
    t ??= await createTestDb();
    const topic = (await t.db.topic.findFirst()) ?? (await createTestTopic(t.db));
    await expect(
      createDiscoveryRun(t.db, { topic: topic.id, seeds: { urls: ["http://127.0.0.9/"] }, strategy: "bfs", options: { trustedHosts: ["10.0.0.0/40"] } }),
    ).rejects.toThrow(/trustedHosts: trusted host "10\.0\.0\.0\/40" is not a valid CIDR range/);
  });
});
