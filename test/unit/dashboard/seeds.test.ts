import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createSeedSet, importSeedUrls, parseSeedList } from "@/server/seeds";
import { ValidationError } from "@/lib/validation";
import { createTestDb, type TestDb } from "../../support/db";
import { CLI_ACTOR } from "../../../lib/audit";

describe("parseSeedList", () => {
  test.each([
    ["empty", "", [], [], 0],
    ["comments and blank lines skipped", "# 北江大学\n\n  https://bbs.bjdx.edu.cn/  \n", ["https://bbs.bjdx.edu.cn/"], [], 0],
    [
      "CRLF, BOM, fragments dropped, duplicates counted",
      "\uFEFFhttps://a.cn/x#top\r\nhttps://a.cn/x\r\nhttp://b.cn",
      ["https://a.cn/x", "http://b.cn/"],
      [],
      1,
    ],
    ["invalid lines reported with their number", "https://ok.cn/\nnot a url\nftp://files.cn/\njavascript:alert(1)", ["https://ok.cn/"], [2, 3, 4], 0],
  ])("%s", (_name, text, urls, badLines, duplicates) => {
    const r = parseSeedList(text);
    expect(r.urls).toEqual(urls);
    expect(r.invalid.map((i) => i.line)).toEqual(badLines);
    expect(r.duplicates).toBe(duplicates);
  });

  test("each invalid line says why", () => {
    const [bad] = parseSeedList("ftp://files.cn/").invalid;
    expect(bad).toEqual({
      line: 1,
      text: "ftp://files.cn/",
      reason: expect.stringContaining("only http and https"),
      problem: { code: "urlProtocol", values: { protocol: "ftp:" } },
    });
  });
});

describe("seed sets", () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  test("importing keeps valid lines, reports invalid ones and skips URLs already in the set", async () => {
    const set = await createSeedSet(t.db, "高校论坛", CLI_ACTOR);
    expect(await importSeedUrls(t.db, set.id, "https://a.cn/\nbad line\nhttps://b.cn/", CLI_ACTOR)).toEqual({
      added: 2,
      alreadyThere: 0,
      invalid: [{ line: 2, text: "bad line", reason: expect.any(String), problem: { code: "urlInvalid", values: { value: JSON.stringify("bad line") } } }],
    });
    expect(await importSeedUrls(t.db, set.id, "https://b.cn/\nhttps://c.cn/\nhttps://c.cn/", CLI_ACTOR)).toMatchObject({ added: 1, alreadyThere: 2 });
    expect(await t.db.seedUrl.count({ where: { seedSetId: set.id } })).toBe(3);
  });

  test("a duplicate name is a field error (P2002)", async () => {
    await createSeedSet(t.db, "高校论坛", CLI_ACTOR);
    await expect(createSeedSet(t.db, "高校论坛", CLI_ACTOR)).rejects.toBeInstanceOf(ValidationError);
  });
});
