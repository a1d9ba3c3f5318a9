/**
 * Helpers for crawl integration tests: a local platform site, a fresh database with its accounts
 * registered, and a crawl function wired exactly as the CLI wires it (real fetcher, real store),
 * with politeness delay 0 and the site's clock as the crawl's clock.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createFetcher, HostScheduler } from "../../../crawler/fetch";
import { crawlAccount, type RunSummary, type WorkerServices } from "../../../crawler/worker";
import { createAccount } from "../../../server/accounts";
import { htmlToText } from "../../../crawler/text";
import { createTestDb, type TestDb } from "../../support/db";
import { startLocalPlatforms, type LocalPlatforms, type LocalPlatformsOptions } from "../../support/platforms";
import { CLI_ACTOR } from "../../../lib/audit";

export interface CrawlFixture {
  site: LocalPlatforms;
  t: TestDb;
  /** Account id in the database for each site account key. */
  ids: Map<string, number>;
  services: WorkerServices;
  crawl(key: string): Promise<RunSummary>;
  /** What the database holds for an account: platformId → row. */
  stored(
    key: string,
  ): Promise<
    Map<string, { platformId: string; parentPlatformId: string | null; publishedAt: Date; text: string; title: string; version: number; kind: string }>
  >;
  /** What the site shows for an account: platformId → expected row. */
  expected(key: string): Map<string, { parentPlatformId: string | null; publishedAt: Date; text: string; kind: string }>;
  close(): Promise<void>;
}

export async function crawlFixture(options: LocalPlatformsOptions, overrides: Partial<WorkerServices> = {}): Promise<CrawlFixture> {
  const site = await startLocalPlatforms(options);
  const t = await createTestDb();
  const ids = new Map<string, number>();
  for (const a of site.accounts) {
    const row = await createAccount(t.db, { url: site.entryUrl(a.key), name: a.name, fetchMode: "http" }, CLI_ACTOR);
    ids.set(a.key, row.id);
  }
  const archiveDir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-archive-"));
  const scheduler = new HostScheduler();
  const services: WorkerServices = {
    db: t.db,
    createFetcher: (account, onRequest) =>
      createFetcher({ mode: account.fetchMode, scheduler, hostDelayMs: 0, retries: 1, backoffBaseMs: 10, onRequest, log: () => undefined }),
    now: () => site.clock.now(),
    archiveDir,
    ...overrides,
  };
  return {
    site,
    t,
    ids,
    services,
    crawl: (key) => crawlAccount(services, ids.get(key)!, "cli"),
    async stored(key) {
      const rows = await t.db.post.findMany({ where: { accountId: ids.get(key)! }, include: { parent: { select: { platformId: true } } } });
      return new Map(
        rows.map((r) => [
          r.platformId,
          {
            platformId: r.platformId,
            parentPlatformId: r.parent?.platformId ?? null,
            publishedAt: r.publishedAt,
            text: r.text,
            title: r.title,
            version: r.version,
            kind: r.kind,
          },
        ]),
      );
    },
    expected(key) {
      const account = site.account(key);
      const out = new Map<string, { parentPlatformId: string | null; publishedAt: Date; text: string; kind: string }>();
      for (const p of site.model.visiblePosts(account)) {
        const pid = site.platformIdOf(p);
        out.set(pid, { parentPlatformId: null, publishedAt: p.publishedAt, text: htmlToText(p.html), kind: "post" });
        for (const r of site.model.visibleReplies(p)) {
          out.set(site.platformIdOf(r), { parentPlatformId: pid, publishedAt: r.publishedAt, text: htmlToText(r.html), kind: "reply" });
        }
      }
      return out;
    },
    async close() {
      await site.close();
      await t.cleanup();
      fs.rmSync(archiveDir, { recursive: true, force: true });
    },
  };
}

/** Minute-truncated ISO time, for "right to the minute" comparisons. */
export function minute(d: Date): string {
  return new Date(Math.floor(d.getTime() / 60_000) * 60_000).toISOString();
}

/** The stored row of one post or reply of an account, by its platformId (throws when there is none). */
export async function storedRow(fx: CrawlFixture, key: string, platformId: string) {
  return fx.t.db.post.findUniqueOrThrow({ where: { accountId_platformId: { accountId: fx.ids.get(key)!, platformId } } });
}
