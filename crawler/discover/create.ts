/**
 * Creating a discovery run: validate the request and store the run, not started. Kept apart from
 * the loop because it is the only part the dashboard's form and the CLI's `discover start` share
 * before anything is crawled, and its errors are field-level validation errors, not run failures.
 */
import type { Db } from "../../lib/db";
import { parseTrustedEntry } from "../../lib/net/address";
import { ValidationError } from "../../lib/validation";
import { parseDiscoveryOptions, type DiscoveryOptions } from "./options";
import { errorMessage } from "./session";
import { STRATEGIES, type StrategyName } from "./strategies";
import { normalizeUrl } from "./url";

/** What a new run is made of. */
export interface NewDiscoveryRun {
  /** Topic id or name. */
  topic: number | string;
  /** A seed set (id or name), or the seed URLs themselves (e.g. from a file). */
  seeds: { seedSet: number | string } | { urls: readonly string[] };
  /** @default "focused" */
  strategy?: StrategyName;
  /** @default 1000 */
  maxPages?: number;
  options?: Partial<Omit<DiscoveryOptions, "seeds">>;
}

/**
 * Validate and store a new run (status "paused", note "not started": {@link runDiscovery}
 * claims it). The seed URLs are normalized and snapshotted in the run's options, so later edits
 * of the seed set do not change what a resumed run does.
 * @throws ValidationError naming the field (topic, seeds, strategy, maxPages, trustedHosts).
 */
export async function createDiscoveryRun(db: Db, input: NewDiscoveryRun) {
  const strategy = input.strategy ?? "focused";
  if (!STRATEGIES.includes(strategy))
    invalid("strategy", `strategy must be one of ${STRATEGIES.join(", ")}`, "discoveryStrategy", { list: STRATEGIES.join(", ") });
  const maxPages = input.maxPages ?? 1000;
  if (!Number.isInteger(maxPages) || maxPages < 1) invalid("maxPages", "max pages must be a whole number ≥ 1", "discoveryMaxPages");
  const topic =
    typeof input.topic === "number"
      ? await db.topic.findUnique({ where: { id: input.topic }, select: { id: true } })
      : await db.topic.findUnique({ where: { name: input.topic }, select: { id: true } });
  if (!topic) invalid("topic", `no topic ${JSON.stringify(input.topic)}`, "discoveryNoTopic");
  let seedSetId: number | null = null;
  let rawSeeds: readonly string[];
  if ("seedSet" in input.seeds) {
    const ref = input.seeds.seedSet;
    const set =
      typeof ref === "number"
        ? await db.seedSet.findUnique({ where: { id: ref }, include: { urls: { orderBy: { id: "asc" } } } })
        : await db.seedSet.findUnique({ where: { name: ref }, include: { urls: { orderBy: { id: "asc" } } } });
    if (!set) invalid("seeds", `no seed set ${JSON.stringify(ref)}`, "discoveryNoSeedSet");
    seedSetId = set.id;
    rawSeeds = set.urls.map((u) => u.url);
  } else {
    rawSeeds = input.seeds.urls;
  }
  const seeds: string[] = [];
  for (const s of rawSeeds) {
    const n = normalizeUrl(s);
    if (!n) invalid("seeds", `not an http(s) URL: ${JSON.stringify(s)}`, "discoverySeedUrl", { url: s });
    if (!seeds.includes(n)) seeds.push(n);
  }
  if (seeds.length === 0) invalid("seeds", "no seed URLs", "discoveryNoSeeds");
  for (const entry of input.options?.trustedHosts ?? []) {
    try {
      parseTrustedEntry(entry);
    } catch (e) {
      invalid("trustedHosts", errorMessage(e), "discoveryTrustedHost", { entry });
    }
  }
  const options = parseDiscoveryOptions(JSON.stringify({ ...input.options, seeds }));
  return db.discoveryRun.create({
    data: { topicId: topic.id, seedSetId, strategy, maxPages, options: JSON.stringify(options), status: "paused", note: "not started" },
  });
}

/** Refuse the run: `message` in English for the CLI, `code` (a `validation` message key) for the dashboard. */
function invalid(field: string, message: string, code: string, values: Record<string, string | number> = {}): never {
  throw new ValidationError(`${field}: ${message}`, { [field]: [message] }, { code, values });
}
