/**
 * `campuswatch accounts set ID` changes what `accounts add` sets (name, interval, schedule, OCR,
 * fetch mode, backfill, re-check) through the real CLI on a scratch SQLite install: each change is
 * stored and audited once; a bad value is refused with its option named and changes nothing, even
 * when given beside good ones.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { createDb } from "../../lib/db";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-accounts-set-"));
const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: "file:./data/cw.db", CAMPUSWATCH_DATA_DIR: path.join(dir, "data"), BCRYPT_COST: "4" };
const cw = (...args: string[]) => runCli(args, { cwd: dir, env });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("campuswatch accounts set", () => {
  it("changes the settings of `accounts add`, refuses bad values with the option named, and audits each change", { timeout: 180_000 }, async () => {
    expect((await cw("db", "migrate")).code).toBe(0);
    const added = await cw("accounts", "add", "http://127.0.0.1:9/bbs/forum.php?mod=forumdisplay&fid=2", "--name", "校园论坛", "--backfill-days", "7");
    expect(added.code, added.err).toBe(0);
    const id = Number(/account (\d+)/.exec(added.out)![1]);
    const db = createDb(`file:${path.join(dir, "data", "cw.db")}`);
    try {
      const row = () => db.account.findUniqueOrThrow({ where: { id } });
      const before = await row();

      const set = await cw(
        "accounts",
        "set",
        String(id),
        "--name",
        "校园论坛（新）",
        "--cron",
        "*/15 * * * *",
        "--disabled",
        "--ocr",
        "--fetch-mode",
        "browser",
        "--backfill-days",
        "none",
        "--backfill-pages",
        "3",
        "--recheck-days",
        "2",
      );
      expect(set.code, set.err).toBe(0);
      expect(set.out).toContain(`account ${id}: 校园论坛（新）`);
      expect(await row()).toMatchObject({
        name: "校园论坛（新）",
        cron: "*/15 * * * *",
        enabled: false,
        ocr: true,
        fetchMode: "browser",
        backfillDays: null,
        backfillPages: 3,
        recheckDays: 2,
        entryUrl: before.entryUrl,
      });
      expect((await cw("accounts", "set", String(id), "--enabled", "--no-ocr")).code).toBe(0);
      expect(await row()).toMatchObject({ enabled: true, ocr: false, name: "校园论坛（新）" });

      // Refused, naming the option; nothing changes (not even the good values beside it).
      const snapshot = await row();
      for (const [args, message] of [
        [["--cron", "every minute"], /--cron/],
        [["--fetch-mode", "curl", "--name", "别的名字"], /--fetch-mode/],
        [["--backfill-days", "0"], /--backfill-days/],
        [["--recheck-days", "-1"], /--recheck-days/],
        [["--enabled", "--disabled"], /one of --enabled and --disabled/],
        [[], /nothing to set/],
      ] as const) {
        const r = await cw("accounts", "set", String(id), ...args);
        expect(r.code, args.join(" ")).not.toBe(0);
        expect(r.err, args.join(" ")).toMatch(message);
      }
      expect(await row()).toEqual(snapshot);

      const audit = await cw("audit", "list", "--json", "--kind", "account");
      const entries = audit.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { action: string; actor: string; before: Record<string, unknown>; after: Record<string, unknown> });
      expect(entries.map((e) => e.action)).toEqual(["update", "update", "create"]);
      expect(entries.every((e) => e.actor === "cli")).toBe(true);
      expect(entries[0]!.after).toMatchObject({ enabled: true, ocr: false });
      expect(entries[1]!.after).toMatchObject({ name: "校园论坛（新）", fetchMode: "browser", recheckDays: 2 });
    } finally {
      await db.$disconnect();
    }
  });
});
