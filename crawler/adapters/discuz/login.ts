/**
 * Is a Discuz! page logged in? Discuz! X prints the member bar (`div#um` with the username and a
 * `member.php?mod=logging&action=logout` link; 7.x `logging.php?action=logout`) to members, and
 * the login form (`form#lsform`, `mod=logging&action=login`) to visitors. A board or thread that
 * visitors may not read answers a notice page instead of the list ("抱歉，您尚未登录，没有权限
 * 访问该版块", "您需要先登录才能继续本操作", "需要登录").
 *
 * Used by the adapter (./discuz.ts): an account with login cookies that gets a logged-out page
 * throws `LoginExpiredError`; an anonymous account that gets the notice throws a plain error
 * saying the board needs a login, so the notice is never read as an empty board.
 */
import { LoginExpiredError, NonRetryableError } from "../../errors";
import type { AdapterContext, FetchResult } from "../../types";

/** What a page says about the session: a member, a visitor, or nothing recognisable. */
export type DiscuzLoginState = { state: "in" } | { state: "out"; notice: string | null } | { state: "unknown" };

/** The notices Discuz! shows a visitor instead of a members-only board or thread. */
const LOGIN_NOTICE = /抱歉，您尚未登录[^<"]{0,30}|您需要先登录才能继续本操作|您尚未登录[^<"]{0,20}|需要登录[^<"]{0,20}|请先登录[^<"]{0,20}/;

/** A board list or a thread's posts: pages with crawled text, where a notice's words may be a title. */
const CONTENT = /id=["'](?:threadlisttableid|postlist|threadlist)["']|id=["']forum_\d+["']/;

const LOGOUT = /(?:mod=logging&(?:amp;)?action=logout|logging\.php\?action=logout)/;
const LOGIN_FORM = /id=["']lsform["']|mod=logging&(?:amp;)?action=login|logging\.php\?action=login/;

/** The login state a Discuz! page shows. Exported for unit tests. */
export function discuzLoginState(html: string): DiscuzLoginState {
  if (!CONTENT.test(html)) {
    const notice = LOGIN_NOTICE.exec(html);
    if (notice) return { state: "out", notice: notice[0].trim() };
  }
  if (LOGOUT.test(html)) return { state: "in" };
  if (LOGIN_FORM.test(html)) return { state: "out", notice: null };
  return { state: "unknown" };
}

/**
 * Refuse a logged-out page: with login cookies any logged-out page is an expired login; without
 * them only the "login required" notice matters (the board is for members).
 * @throws LoginExpiredError | NonRetryableError naming the page
 */
export function checkDiscuzLogin(ctx: AdapterContext, res: FetchResult): void {
  const seen = discuzLoginState(res.body);
  if (seen.state !== "out") return;
  if (ctx.account.hasLoginCookies) {
    const why = seen.notice ? `the board says "${seen.notice}"` : "the page shows the login form instead of the member bar";
    throw new LoginExpiredError(`Discuz! answers as to a visitor (${why}): the login cookies expired; sign in again and set them anew`, res.url, res.status);
  }
  if (seen.notice) {
    throw new NonRetryableError(`the board is for members only ("${seen.notice}"): give this account the login cookies of a member`, res.url, res.status);
  }
}
