/**
 * The address policy of ./address.ts enforced when a socket connects: an undici Agent for HTTP
 * (the crawler, the notification channels) and a net `lookup` for anything else (SMTP, the image
 * proxy's pinned request). A module of its own so that lib/config.ts, which parses allow-list
 * entries with ./address.ts at every start, does not load undici.
 */
import type { LookupAddress, LookupOneOptions } from "node:dns";
import type net from "node:net";
import { Agent, buildConnector } from "undici";
import { AddressRefusedError, isIpLiteral, type AddressPolicy } from "./address";

/** Options of {@link createGuardedAgent}: undici Agent options without `connect`, which the guard owns. */
export type GuardedAgentOptions = Omit<Agent.Options, "connect"> & { connectTimeoutMs?: number };

/**
 * An undici Agent that enforces `policy` when it opens a connection: the host is resolved with
 * the policy's resolver, every address checked (unless the host is trusted), and only those
 * addresses handed to the socket. IP literals skip DNS, so they are checked right here.
 */
export function createGuardedAgent(policy: AddressPolicy, options: GuardedAgentOptions = {}): Agent {
  const { connectTimeoutMs, ...agentOptions } = options;
  // One connector per mode, built once: the lookup function is fixed when a connector is built.
  const base = (checked: boolean) => buildConnector({ timeout: connectTimeoutMs ?? 10_000, lookup: pinnedLookup(policy, checked) });
  const trustedConnect = base(false);
  const checkedConnect = base(true);
  const connect: buildConnector.connector = (opts, callback) => {
    const fail = (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null);
    const origin = originOf(opts);
    // The lookup knows only the host name: name the origin in its refusal here.
    const done: buildConnector.Callback = (...args) => {
      const [err] = args;
      if (err instanceof AddressRefusedError) fail(err.forUrl(origin));
      else callback(...args);
    };
    try {
      if (policy.isTrusted(origin)) return trustedConnect(opts, done);
      if (!isIpLiteral(opts.hostname)) return checkedConnect(opts, done);
    } catch (err) {
      return fail(err);
    }
    // net.connect does not call `lookup` for an address: check it before connecting.
    policy.resolveHost(opts.hostname, { checked: true, url: origin }).then(() => {
      try {
        checkedConnect(opts, done);
      } catch (err) {
        fail(err);
      }
    }, fail);
  };
  return new Agent({ ...agentOptions, connect });
}

/**
 * A net `lookup` that answers with the policy's (checked, unless `checked` is false) addresses:
 * what a socket connects to. `url` names the connection in a refusal (`smtp://host:587`); by
 * default `http://host/`.
 */
export function pinnedLookup(policy: AddressPolicy, checked: boolean, url?: string): net.LookupFunction {
  return (hostname, options, callback) => {
    policy.resolveHost(hostname, { checked, url: url ?? `http://${hostname}/` }).then(
      (addresses) => {
        const wanted = (options as LookupOneOptions).family;
        const usable = wanted === 4 || wanted === 6 ? addresses.filter((a) => a.family === wanted) : addresses;
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no IPv${String(wanted)} address`), { code: "ENOTFOUND" }), "", 0);
        } else if (options.all) {
          callback(
            null,
            usable.map((a): LookupAddress => ({ address: a.address, family: a.family })),
          );
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), "", 0),
    );
  };
}

/** `http://host:port/` of a connection; undici passes `host` as URL.host, the form trust is keyed by. */
function originOf(opts: buildConnector.Options): string {
  if (opts.host) return `${opts.protocol}//${opts.host}/`;
  const name = opts.hostname.includes(":") ? `[${opts.hostname}]` : opts.hostname;
  return `${opts.protocol}//${name}${opts.port ? `:${opts.port}` : ""}/`;
}
