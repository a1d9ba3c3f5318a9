/**
 * Discovery seeds follow the accounts' address rule (issue 29 item 4): a seed's host keeps the
 * address class it had when it was registered — imported into a seed set, or given to a new run.
 * A link-local or metadata host is refused at import with its line; a host registered on a public
 * address that now resolves to loopback (DNS rebinding) is refused when a run fetches it, with the
 * reason on its frontier entry and nothing sent to it; a host registered on loopback is crawled.
 * Names are answered by an injected resolver at import and by CAMPUSWATCH_TEST_DNS when the run
 * fetches: no DNS query leaves the machine, and only 127.0.0.1 is contacted. SQLite and, with
 * CAMPUSWATCH_TEST_DB=postgresql, PostgreSQL.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDiscoveryRun, runDiscovery } from "../../../crawler/discover";
import { REBOUND_REASON, type Resolver } from "../../../lib/net/address";
import { createSeedSet, importSeedUrls } from "../../../server/seeds";
import { testDbs, type TestDb } from "../../support/db";
import { htmlPage, startScriptedServer, type ScriptedServer } from "../../support/scripted-server";
import { createTestTopic } from "./support";
import { CLI_ACTOR } from "../../../lib/audit";

const openDb = testDbs();
const closers: (() => Promise<unknown>)[] = [];
const savedDns = process.env.CAMPUSWATCH_TEST_DNS;
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  process.env.CAMPUSWATCH_TEST_DNS = savedDns;
});

/** A resolver from a fixed table, as DNS answered when the seeds were imported. */
function resolverOf(table: Record<string, string[]>): Resolver {
  return async (host) => {
    const answer = table[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

async function classesOf(t: TestDb, seedSetId: number) {
  const rows = await t.db.seedUrl.findMany({ where: { seedSetId }, orderBy: { id: "asc" }, select: { url: true, addressClass: true } });
  return Object.fromEntries(rows.map((r) => [r.url, r.addressClass]));
}

describe("seed address classes", () => {
  it("are recorded at import like an account's; a host resolving to a metadata address is refused with its line", async () => {
    const t = await openDb();
    const set = await createSeedSet(t.db, "门户", CLI_ACTOR);
    const resolve = resolverOf({
      "www.example.edu.cn": ["93.184.216.34"],
      "intranet.campus.test": ["10.20.1.5"],
      "mixed.campus.test": ["93.184.216.34", "10.20.1.6"],
      "meta.campus.test": ["169.254.169.254"],
    });
    const r = await importSeedUrls(
      t.db,
      set.id,
      [
        "https://www.example.edu.cn/",
        "http://intranet.campus.test/portal",
        "http://mixed.campus.test/",
        "http://127.0.0.9:8080/",
        "http://meta.campus.test/latest/",
        "http://unknown.campus.test/",
      ].join("\n"),
      CLI_ACTOR,
      { resolve },
    );
    expect(r.added).toBe(5);
    expect(r.invalid).toEqual([
      {
        line: 5,
        text: "http://meta.campus.test/latest/",
        reason: "meta.campus.test resolves to 169.254.169.254, a link-local or cloud metadata address: it is never crawled",
        problem: { code: "urlMetadataResolves", values: { host: "meta.campus.test", address: "169.254.169.254" } },
      },
    ]);
    expect(await classesOf(t, set.id)).toEqual({
      "https://www.example.edu.cn/": "public",
      "http://intranet.campus.test/portal": "internal",
      // Every address must be public for "public", as for accounts.
      "http://mixed.campus.test/": "internal",
      "http://127.0.0.9:8080/": "internal",
      // Did not resolve: found when a run uses it.
      "http://unknown.campus.test/": null,
    });
    // A run given a metadata host directly is refused the same way, on its seeds field.
    const topic = await createTestTopic(t.db);
    await expect(createDiscoveryRun(t.db, { topic: topic.id, seeds: { urls: ["http://meta.campus.test/"] }, resolve })).rejects.toMatchObject({
      name: "ValidationError",
      fieldErrors: { seeds: ["meta.campus.test resolves to 169.254.169.254, a link-local or cloud metadata address: it is never crawled"] },
    });
  });

  it("a seed registered on a public address that now resolves to loopback is refused (nothing sent); one registered on loopback is crawled", async () => {
    const t = await openDb();
    const site: ScriptedServer = await startScriptedServer({ host: "127.0.0.1" });
    closers.push(() => site.close());
    site.route("/", htmlPage("体育新闻", "<p>女排比赛夺冠，国足联赛决赛。</p>"));
    const set = await createSeedSet(t.db, "重新绑定", CLI_ACTOR);
    const portal = `http://portal.campus.test:${site.port}/`;
    const intranet = `http://intranet.campus.test:${site.port}/`;
    // At import: the portal is public, the intranet board is on loopback.
    await importSeedUrls(t.db, set.id, `${portal}\n${intranet}`, CLI_ACTOR, {
      resolve: resolverOf({ "portal.campus.test": ["93.184.216.34"], "intranet.campus.test": ["127.0.0.1"] }),
    });
    expect(await classesOf(t, set.id)).toEqual({ [portal]: "public", [intranet]: "internal" });

    // Now both names resolve to 127.0.0.1 (the portal's name was rebound).
    process.env.CAMPUSWATCH_TEST_DNS = JSON.stringify({ "portal.campus.test": ["127.0.0.1"], "intranet.campus.test": ["127.0.0.1"] });
    const topic = await createTestTopic(t.db);
    const run = await createDiscoveryRun(t.db, { topic: topic.id, seeds: { seedSet: set.id }, strategy: "bfs", maxPages: 5, options: { hostDelayMs: 0 } });
    expect(JSON.parse(run.options)).toMatchObject({ seedClasses: { [portal]: "public", [intranet]: "internal" } });
    const summary = await runDiscovery(t.db, run.id, { pollStatus: false });
    expect(summary.status).toBe("done");

    const frontier = await t.db.frontierUrl.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    const refused = frontier.find((f) => f.url === portal);
    expect(refused?.reason).toBe(`refused ${portal}: portal.campus.test resolves to 127.0.0.1, a loopback address (${REBOUND_REASON})`);
    expect(frontier.find((f) => f.url === intranet)?.fetchedAt).not.toBeNull();
    // Only the intranet board was asked for anything.
    expect(site.requests.length).toBeGreaterThan(0);
    expect(new Set(site.requests.map((r) => r.host))).toEqual(new Set([`intranet.campus.test:${site.port}`]));
  });
});
