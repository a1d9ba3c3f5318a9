/**
 * Is a Tieba page logged in? Every desktop page carries the viewer in its scripts:
 * `PageData.user = { … "is_login": 1, "portrait": "tb.1.…" }` on thread pages, and
 * `"user":{"is_login":false,"user_id":0,…}` in the bar list's page data; a logged-in page also
 * shows the user's name in the top bar (`li#j_u_username`). Other `is_login` values on the page
 * (a visit card's `'is_login':0`) are about someone else and are not read.
 */
import { LoginExpiredError } from "../../errors";
import type { AdapterContext, FetchResult } from "../../types";

/** `is_login` inside the viewer's object: `PageData.user = {…}` or a `"user": {…}` entry. */
const VIEWER = [
  /PageData\.user\s*=\s*\{[^{}]*?["']?is_login["']?\s*:\s*["']?(true|false|1|0)\b/,
  /["']user["']\s*:\s*\{[^{}]*?["']is_login["']\s*:\s*["']?(true|false|1|0)\b/,
];

/** The login state a Tieba page shows; "unknown" when it carries none. Exported for unit tests. */
export function tiebaLoginState(html: string): "in" | "out" | "unknown" {
  for (const re of VIEWER) {
    const m = re.exec(html);
    if (m?.[1]) return m[1] === "true" || m[1] === "1" ? "in" : "out";
  }
  return /id=["']j_u_username["']/.test(html) ? "in" : "unknown";
}

/**
 * For an account with login cookies: a page that says the viewer is not logged in is an expired
 * login, not a page to read as a visitor.
 * @throws LoginExpiredError naming the page
 */
export function checkTiebaLogin(ctx: AdapterContext, res: FetchResult): void {
  if (!ctx.account.hasLoginCookies) return;
  if (tiebaLoginState(res.body) === "out") {
    throw new LoginExpiredError(
      "Tieba answers as to a visitor (the page says is_login: 0): the login cookies expired (the BDUSS session); sign in again and set them anew",
      res.url,
      res.status,
    );
  }
}
