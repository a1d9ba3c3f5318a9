/**
 * Creating a discovery run: validate the request and store the run, not started. Kept apart from
 * the loop because it is the only part the dashboard's form and the CLI's `discover start` share
 * before anything is crawled, and its errors are field-level validation errors, not run failures.
 */
import type { Db } from "../../lib/db";
import { parseTrustedEntry, type AddressClass, type Resolver } from "../../lib/net/address";
import { ValidationError } from "../../lib/validation";
import { parseDiscoveryOptions, type DiscoveryOptions } from "./options";
import { classifySeeds } from "./seed-class";
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
  options?: Partial<Omit<DiscoveryOptions, "seeds" | "seedClasses">>;
  /** Host name resolver for the seeds' address classes. @default the system resolver */
  resolve?: Resolver;
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
  // Address classes recorded when the seed set's URLs were imported (raw URL → class).
  const recorded = new Map<string, AddressClass>();
  if ("seedSet" in input.seeds) {
    const ref = input.seeds.seedSet;
    const set =
      typeof ref === "number"
        ? await db.seedSet.findUnique({ where: { id: ref }, include: { urls: { orderBy: { id: "asc" } } } })
        : await db.seedSet.findUnique({ where: { name: ref }, include: { urls: { orderBy: { id: "asc" } } } });
    if (!set) invalid("seeds", `no seed set ${JSON.stringify(ref)}`, "discoveryNoSeedSet");
    seedSetId = set.id;
    rawSeeds = set.urls.map((u) => u.url);
    for (const u of set.urls) if (u.addressClass === "public" || u.addressClass === "internal") recorded.set(u.url, u.addressClass);
  } else {
    rawSeeds = input.seeds.urls;
  }
  const seeds: string[] = [];
  const seedClasses: Record<string, AddressClass> = {};
  for (const s of rawSeeds) {
    const n = normalizeUrl(s);
    if (!n) invalid("seeds", `not an http(s) URL: ${JSON.stringify(s)}`, "discoverySeedUrl", { url: s });
    if (!seeds.includes(n)) seeds.push(n);
    const known = recorded.get(s);
    if (known) seedClasses[n] = known;
  }
  if (seeds.length === 0) invalid("seeds", "no seed URLs", "discoveryNoSeeds");
  // Seeds given here, and a set's seeds without a recorded class, are registered now, as an
  // account's entry URL is: a link-local or metadata host is refused, the others get their class.
  const { classes, refused } = await classifySeeds(
    seeds.filter((s) => !seedClasses[s]),
    input.resolve,
  );
  const [refusedSeed] = refused.values();
  if (refusedSeed)
    invalid("seeds", refusedSeed.fieldErrors.url?.[0] ?? refusedSeed.message, refusedSeed.detail.code ?? "discoverySeedUrl", refusedSeed.detail.values);
  for (const [url, c] of classes) if (c) seedClasses[url] = c;
  if (seedSetId !== null)
    for (const u of rawSeeds) {
      const c = classes.get(normalizeUrl(u) ?? "");
      if (c && !recorded.has(u)) await db.seedUrl.updateMany({ where: { seedSetId, url: u, addressClass: null }, data: { addressClass: c } });
    }
  for (const entry of input.options?.trustedHosts ?? []) {
    try {
      parseTrustedEntry(entry);
    } catch (e) {
      invalid("trustedHosts", errorMessage(e), "discoveryTrustedHost", { entry });
    }
  }
  const options = parseDiscoveryOptions(JSON.stringify({ ...input.options, seeds, seedClasses }));
  return db.discoveryRun.create({
    data: { topicId: topic.id, seedSetId, strategy, maxPages, options: JSON.stringify(options), status: "paused", note: "not started" },
  });
}

/** Refuse the run: `message` in English for the CLI, `code` (a `validation` message key) for the dashboard. */
function invalid(field: string, message: string, code: string, values: Record<string, string | number> = {}): never {
  throw new ValidationError(`${field}: ${message}`, { [field]: [message] }, { code, values });
}
