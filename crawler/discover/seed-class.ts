/**
 * The address class of discovery seeds, kept as an account's is (lib/validation.ts
 * checkRegisteredHost, crawler/runtime.ts): found when a seed is registered (imported into a seed
 * set, or given to a new run), and used by the run's address policy — a seed host registered on
 * an internal address (an intranet portal, loopback) is trusted there; one registered on a public
 * address is refused when it later resolves inside (DNS rebinding, a taken-over domain), with
 * that reason on its frontier entry. A seed whose class is not known (imported before classes
 * were recorded, or its name did not resolve then) is classified when a run first uses it.
 */
import type { Db } from "../../lib/db";
import { addressClassOf, addressesOf, systemResolver, type AddressClass, type Resolver } from "../../lib/net/address";
import { checkRegisteredHost, ValidationError } from "../../lib/validation";
import type { DiscoveryOptions } from "./options";

/**
 * Check seed URLs for registration and find each host's class (one lookup per host): a host that
 * resolves to a link-local or metadata address is refused (its URLs in `refused`, with the
 * ValidationError saying why); one that does not resolve now gets null.
 */
export async function classifySeeds(
  urls: readonly string[],
  resolve?: Resolver,
): Promise<{ classes: Map<string, AddressClass | null>; refused: Map<string, ValidationError> }> {
  const byHost = new Map<string, Promise<AddressClass | null | ValidationError>>();
  const classes = new Map<string, AddressClass | null>();
  const refused = new Map<string, ValidationError>();
  for (const url of urls) {
    const host = new URL(url).host;
    if (!byHost.has(host))
      byHost.set(
        host,
        checkRegisteredHost(url, resolve).catch((e: unknown) => {
          if (e instanceof ValidationError) return e;
          throw e;
        }),
      );
    const found = await byHost.get(host)!;
    if (found instanceof ValidationError) refused.set(url, found);
    else classes.set(url, found);
  }
  return { classes, refused };
}

/**
 * The seeds' classes for a session: those recorded with the run, and those not yet known found
 * now and stored with the run (so a later session keeps them). A name that still does not resolve
 * is left unknown and trusted as before for this session: the fetch then fails on the same DNS error.
 */
export async function sessionSeedClasses(
  db: Db,
  runId: number,
  options: DiscoveryOptions,
  resolve: Resolver = systemResolver,
): Promise<Record<string, AddressClass>> {
  const classes: Record<string, AddressClass> = { ...options.seedClasses };
  let found = false;
  for (const seed of options.seeds) {
    if (classes[seed]) continue;
    try {
      classes[seed] = addressClassOf(await addressesOf(new URL(seed).hostname, resolve));
      found = true;
    } catch {
      // Unknown for now.
    }
  }
  if (found) await db.discoveryRun.update({ where: { id: runId }, data: { options: JSON.stringify({ ...options, seedClasses: classes }) } });
  return classes;
}

/** The seeds the run's policy trusts (registered inside, or not known) and those registered on public addresses. */
export function seedPolicyHosts(seeds: readonly string[], classes: Record<string, AddressClass>): { trusted: string[]; registeredPublic: string[] } {
  return {
    trusted: seeds.filter((s) => classes[s] !== "public"),
    registeredPublic: seeds.filter((s) => classes[s] === "public"),
  };
}
