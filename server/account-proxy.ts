/**
 * An account's own proxy, overriding `CAMPUSWATCH_PROXY` for its crawls. The URL (credentials
 * and all) is sealed at rest like the login cookies (lib/secret-box.ts, purpose "account-proxy");
 * only `proxyDisplay`, the URL with its password masked, is ever shown back.
 */
import type { Db } from "../lib/db";
import { seal } from "../lib/secret-box";
import { ValidationError } from "../lib/validation";
import { parseProxyUrl, ProxyUrlError, type ProxyConfig } from "../lib/net/proxy-url";
import { ACCOUNT_PROXY } from "../lib/sealed-columns";
import { updateAccountRow } from "@/crawler/account-rows";
import { recordAudit, type AuditActor } from "../lib/audit";

// The crawler reads the proxy it is given (decrypted) itself; kept here too for the CLI and tests.
export { loadAccountProxy } from "@/crawler/account-access";

/** A proxy URL refused: a ValidationError (field `proxy`) carrying the parser's code for the dashboard. */
export class ProxyRefusal extends ValidationError {
  constructor(readonly cause: ProxyUrlError) {
    super(`proxy: ${cause.message}`, { proxy: [cause.message] }, { code: `proxy.${cause.code}`, values: cause.values });
  }
}

async function accountOrThrow(db: Db, id: number) {
  const account = await db.account.findUnique({ where: { id }, select: { id: true, name: true, proxyDisplay: true } });
  if (!account) throw new ValidationError(`no account with id ${id}`, { id: ["no such account"] }, { code: "accountGone" });
  return account;
}

/**
 * Give an account its own proxy. A URL that is not `http|https|socks5|socks5h://…` is refused
 * ({@link ProxyRefusal}) and nothing changes. Resolves to the masked URL that is shown from now on.
 */
export async function setAccountProxy(db: Db, id: number, url: string, actor: AuditActor): Promise<{ display: string }> {
  const account = await accountOrThrow(db, id);
  let config: ProxyConfig;
  try {
    config = parseProxyUrl(url);
  } catch (e) {
    if (e instanceof ProxyUrlError) throw new ProxyRefusal(e);
    throw e;
  }
  await updateAccountRow(db, { where: { id }, data: { proxy: seal(config.url, ACCOUNT_PROXY, id), proxyDisplay: config.display } });
  // The masked display only: the sealed URL (with its password) never reaches the log.
  await recordAudit(db, actor, {
    kind: "proxy",
    action: "set",
    targetId: id,
    target: account.name,
    before: { proxy: account.proxyDisplay },
    after: { proxy: config.display },
  });
  return { display: config.display };
}

/** Remove an account's own proxy: its crawls use `CAMPUSWATCH_PROXY` again, or go direct. */
export async function clearAccountProxy(db: Db, id: number, actor: AuditActor): Promise<void> {
  const account = await accountOrThrow(db, id);
  await updateAccountRow(db, { where: { id }, data: { proxy: null, proxyDisplay: null } });
  await recordAudit(db, actor, {
    kind: "proxy",
    action: "clear",
    targetId: id,
    target: account.name,
    before: { proxy: account.proxyDisplay },
    after: { proxy: null },
  });
}
