/**
 * Never silently empty (issue 30 item 5): a Discuz! board whose list page is recognised (the
 * thread table is there) but from which nothing can be read — a theme that renames the rows —
 * records a "structure" warning on each run with the URL and what was expected; after two such
 * runs in a row the account is "unrecognised" and the account page's notice (both locales) says
 * 页面结构无法识别 with that URL; once the page reads again the account is back to normal.
 *
 * Through the real worker, fetcher and SQLite, against a board on 127.0.0.1 (its registered
 * host) served by a plain HTTP server.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTranslator } from "next-intl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../../crawler/runtime";
import { crawlAccount } from "../../../crawler/worker";
import { STRUCTURE_FIELD } from "../../../crawler/types";
import type { RunWarning } from "../../../crawler/runs";
import { createAccount } from "../../../server/accounts";
import { messagesFor } from "../../../i18n/messages";
import { structureNotice } from "../../../app/(dashboard)/accounts/_lib/problems";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

/** How the board draws its rows: the stock X3 markup, or a theme whose rows the adapter does not know. */
let theme: "stock" | "renamed" = "renamed";

function row(tid: number, title: string): string {
  const id = theme === "stock" ? `normalthread_${tid}` : `thread-row-${tid}`;
  return `<tbody id="${id}"><tr><th class="common"><a href="forum.php?mod=viewthread&amp;tid=${tid}" class="s xst">${title}</a></th>
<td class="by"><cite><a href="home.php?mod=space&amp;uid=7">小刚</a></cite><em><span>2024-5-9 10:00</span></em></td>
<td class="num"><a href="#" class="xi2">0</a><em>5</em></td>
<td class="by"><cite><a href="#">小刚</a></cite><em><a href="#">2024-5-9 10:00</a></em></td></tr></tbody>`;
}

function listPage(): string {
  return `<html><head><title>校园生活 - 北江大学BBS - Powered by Discuz!</title></head><body>
<div id="threadlist" class="tl bm bmw"><form method="post" name="moderate" id="moderate"><table summary="forum_2" cellspacing="0" cellpadding="0" id="threadlisttableid">
${row(501, "宿舍停电")}${row(502, "食堂涨价")}</table></form></div></body></html>`;
}

function threadPage(tid: number): string {
  return `<html><head><title>帖子 - 北江大学BBS</title></head><body><span id="thread_subject">帖子 ${tid}</span><div id="postlist">
<div id="post_${tid}0"><table><tr><td class="pls"><div class="authi"><a href="home.php?mod=space&amp;uid=7" class="xw1">小刚</a></div></td>
<td class="plc"><div class="authi"><em id="authorposton${tid}0">发表于 2024-5-9 10:00</em></div><table><tr><td class="t_f" id="postmessage_${tid}0">正文 ${tid}</td></tr></table></td></tr></table></div>
</div></body></html>`;
}

let server: http.Server;
let origin = "";
let t: TestDb;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    if (url.pathname === "/bbs/forum.php" && url.searchParams.get("mod") === "forumdisplay")
      return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(listPage());
    if (url.pathname === "/bbs/forum.php" && url.searchParams.get("mod") === "viewthread")
      return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(threadPage(Number(url.searchParams.get("tid"))));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestDb();
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.cleanup();
});

describe("a recognised page read as nothing", () => {
  it("warns on every run, marks the account after two in a row, and clears when the page reads again", async () => {
    const account = await createAccount(t.db, { url: `${origin}/bbs/forum.php?mod=forumdisplay&fid=2`, name: "校园生活", fetchMode: "http" }, CLI_ACTOR);
    const services = { ...createServices({ db: t.db, hostDelayMs: 0, classify: false, archive: false }), notify: undefined };
    const listUrl = `${origin}/bbs/forum.php?mod=forumdisplay&fid=2&page=1`;
    const state = () => t.db.account.findUniqueOrThrow({ where: { id: account.id }, select: { status: true, lastError: true } });

    const first = await crawlAccount(services, account.id, "cli");
    const structure = (ws: RunWarning[]) => ws.filter((w) => w.field === STRUCTURE_FIELD);
    expect(structure(first.warnings)).toEqual([
      {
        at: expect.any(String),
        url: listUrl,
        field: STRUCTURE_FIELD,
        raw: "校园生活 - 北江大学BBS - Powered by Discuz!",
        reason: expect.stringMatching(/^page structure not recognised: expected thread rows \(tbody\[id\^=normalthread_\]/),
      },
    ]);
    expect(first.newPosts).toBe(0);
    // One run alone is not a changed template (a half-written page, a maintenance page).
    expect(await state()).toEqual({ status: "idle", lastError: null });
    // Stored on the run, with the URL.
    const stored = await t.db.crawlRun.findFirstOrThrow({ where: { accountId: account.id }, orderBy: { id: "desc" } });
    expect(structure(JSON.parse(stored.warnings) as RunWarning[]).map((w) => w.url)).toEqual([listUrl]);

    const second = await crawlAccount(services, account.id, "cli");
    expect(structure(second.warnings)).toHaveLength(1);
    const marked = await state();
    expect(marked.status).toBe("unrecognised");
    expect(marked.lastError).toMatch(new RegExp(`^PageStructure: page structure not recognised at ${listUrl.replace(/[?.]/g, "\\$&")}: expected thread rows`));
    expect(second.notes.join("\n")).toContain(`page structure not recognised in two runs in a row: ${listUrl}`);

    // The account page's notice and status label, in both languages.
    const zh = createTranslator({ locale: "zh-CN", messages: messagesFor("zh-CN"), namespace: "accounts" });
    const en = createTranslator({ locale: "en", messages: messagesFor("en"), namespace: "accounts" });
    expect(zh("status", { status: "unrecognised" })).toBe("页面结构无法识别");
    expect(en("status", { status: "unrecognised" })).toBe("Page structure not recognised");
    const zhNotice = structureNotice(createTranslator({ locale: "zh-CN", messages: messagesFor("zh-CN"), namespace: "accounts.structure" }), marked);
    expect(zhNotice).toMatch(/^页面结构无法识别：/);
    expect(zhNotice).toContain(listUrl);
    expect(zhNotice).toContain("tbody[id^=normalthread_]");
    const enNotice = structureNotice(createTranslator({ locale: "en", messages: messagesFor("en"), namespace: "accounts.structure" }), marked);
    expect(enNotice).toMatch(/^Page structure not recognised: /);
    expect(enNotice).toContain(listUrl);
    expect(
      structureNotice(createTranslator({ locale: "en", messages: messagesFor("en"), namespace: "accounts.structure" }), { status: "idle", lastError: null }),
    ).toBeNull();

    // The board's theme is fixed: the page reads, the threads are stored, the account is normal again.
    theme = "stock";
    const third = await crawlAccount(services, account.id, "cli");
    expect(structure(third.warnings)).toEqual([]);
    expect(third.newPosts).toBe(2);
    expect(await state()).toEqual({ status: "idle", lastError: null });
  });

  it("an empty board that says so is not a warning", async () => {
    const empty = http.createServer((req, res) => {
      if ((req.url ?? "").startsWith("/robots.txt")) return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          `<html><body><table summary="forum_3" id="threadlisttableid"><tbody><tr><th colspan="6"><p class="emp">本版块或指定的范围内尚无主题</p></th></tr></tbody></table></body></html>`,
        );
    });
    await new Promise<void>((r) => empty.listen(0, "127.0.0.1", r));
    try {
      const at = `http://127.0.0.1:${(empty.address() as AddressInfo).port}`;
      const account = await createAccount(t.db, { url: `${at}/forum.php?mod=forumdisplay&fid=3`, name: "空版块", fetchMode: "http" }, CLI_ACTOR);
      const services = { ...createServices({ db: t.db, hostDelayMs: 0, classify: false, archive: false }), notify: undefined };
      const run = await crawlAccount(services, account.id, "cli");
      expect(run.warnings).toEqual([]);
      expect(run.errors).toEqual([]);
    } finally {
      await new Promise((r) => empty.close(r));
    }
  });
});
