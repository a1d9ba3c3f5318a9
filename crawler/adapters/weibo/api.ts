/**
 * What the Weibo adapter's modules share: where the JSON API lives, how Weibo says a post is
 * gone, and how one unreadable field is reported without losing the item.
 */
import { parseWeiboDate } from "../../dates";
import { GoneError, LoginExpiredError, NonRetryableError } from "../../errors";
import type { AdapterContext } from "../../types";
import { dig, getJson, onOrigin, rec, str, type Json } from "../shared";

import { WEIBO_HOSTS } from "../../../lib/platforms/weibo";

/**
 * Where the JSON API lives. A real Weibo entry (weibo.com/u/…, weibo.cn/…) is served by
 * m.weibo.cn's API; any other host (a local copy, a proxy) is asked on its own origin.
 */
export function apiUrl(ctx: AdapterContext, pathAndQuery: string): string {
  const host = new URL(ctx.account.entryUrl).hostname;
  return WEIBO_HOSTS.test(host) ? new URL(pathAndQuery, "https://m.weibo.cn/").href : onOrigin(ctx, pathAndQuery);
}

/** A name as the page shows it: runs of whitespace (full-width included) collapsed. */
export function collapse(text: string | undefined): string {
  return (text ?? "").replace(/[\s\u00a0\u3000]+/g, " ").trim();
}

/**
 * Weibo's ways of saying a post is gone, as `ok: 0` messages of statuses/extend, statuses/show
 * and comments/hotflow, and as the text of a deleted status card ("抱歉，此微博已被作者删除。
 * 查看帮助：…", "该微博因违反《微博社区公约》的相关规定，已被删除"). Messages that only say the
 * viewer may not see it ("由于作者设置，你暂时没有这条微博的查看权限", "仅展示半年内微博") are
 * not deletions; the combined "微博不存在或暂无查看权限" is what a deleted post answers.
 */
const GONE_TEXT = /已被(?:作者)?删除|已删除|微博不存在|内容不存在/;

/**
 * The deletion notice in a Weibo JSON answer, or null. Looks at `msg` of an `ok: 0` answer and
 * at a status object (`data` or the answer itself) flagged `deleted: "1"` / `true`.
 */
export function weiboGoneNotice(data: unknown): string | null {
  const top = rec(data);
  if (!top) return null;
  const ok = str(top["ok"]);
  const msg = str(top["msg"]) ?? str(dig(top, "data.msg"));
  if (ok !== "1" && msg && GONE_TEXT.test(msg)) return msg;
  for (const status of [top, rec(top["data"])]) {
    if (!status) continue;
    const deleted = status["deleted"];
    if (deleted === true || str(deleted) === "1") return collapse(str(status["text"]) ?? "deleted: 1") || "deleted: 1";
  }
  return null;
}

/** What the adapter throws when Weibo says a post is gone: the worker marks it deleted, keeping it. */
export function weiboGone(notice: string, url: string): GoneError {
  return new GoneError(`Weibo says the post is gone: ${notice}`, url);
}

/**
 * A Weibo date, or the best date available when it cannot be read: the failure is recorded on
 * the run (URL and raw text) and the item is kept, dated by `fallback`.
 */
export function weiboDateOr(ctx: Pick<AdapterContext, "now" | "warn">, raw: unknown, fallback: { date: Date; what: string }, url: string): Date {
  const text = str(raw);
  if (text !== undefined) {
    try {
      return parseWeiboDate(text, ctx.now);
    } catch (err) {
      if (!(err instanceof NonRetryableError)) throw err;
    }
  }
  ctx.warn({ url, field: "date", raw: text ?? String(raw), reason: `used ${fallback.what}` });
  return fallback.date;
}

/** Weibo's own epoch offset: a status or comment id holds its creation second in its high bits. */
const ID_EPOCH_S = 515_483_463;
/** Weibo started in August 2009: an id that decodes to earlier is not a time-bearing id. */
const WEIBO_START_MS = Date.UTC(2009, 7, 1);

/**
 * The creation time hidden in a Weibo id (mid): `(id >> 22) + 515483463` seconds. Used only as
 * a fallback for an unreadable date; null when the id does not decode to a plausible time.
 */
export function timeFromWeiboId(id: string, now: Date): Date | null {
  if (!/^\d{15,19}$/.test(id)) return null;
  const seconds = Number(BigInt(id) >> 22n) + ID_EPOCH_S;
  const ms = seconds * 1000;
  return ms >= WEIBO_START_MS && ms <= now.getTime() + 86_400_000 ? new Date(ms) : null;
}

/** A JSON object's user, as shown (screen name) and as the stable id. */
export function userOf(obj: Json): { author: string; authorId?: string } {
  const user = rec(obj["user"]);
  const author = collapse(str(user?.["screen_name"]));
  const authorId = str(user?.["idstr"]) ?? str(user?.["id"]);
  return authorId ? { author, authorId } : { author };
}

/**
 * For an account with login cookies: ask `api/config` (what m.weibo.cn itself asks on load)
 * whether the session is logged in. `data.login: false` means the cookies expired: the timeline
 * would still answer, as to a visitor, so the run must stop here rather than read it.
 * An answer without a `login` field tells nothing: logged, and the crawl goes on.
 * @throws LoginExpiredError naming the config URL
 */
export async function checkWeiboLogin(ctx: AdapterContext): Promise<void> {
  if (!ctx.account.hasLoginCookies) return;
  const { res, data } = await getJson(ctx, apiUrl(ctx, "/api/config"), { kind: "other" });
  const login = dig(data, "data.login");
  if (login === false || login === 0) {
    throw new LoginExpiredError(
      "Weibo answers as to a visitor (api/config login: false): the login cookies expired; sign in again and set them anew",
      res.url,
      res.status,
    );
  }
  if (login !== true && login !== 1) ctx.log(`weibo: cannot tell the login state from ${res.url}; going on`);
}
