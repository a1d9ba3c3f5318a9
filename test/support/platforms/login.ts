/**
 * Member logins on the local platforms: a test signs a member in (getting the Cookie header value
 * a browser would hold), the server answers that session as a member, and `expire()` ends every
 * session of a platform so that the same cookies are answered as a visitor, as when a real login
 * expires. Pages are only decorated for platforms where someone signed in, so every other test
 * sees the pages it always saw.
 *
 * - Weibo: `/api/config` answers `data.login` true or false (always served; a visitor gets false).
 * - Discuz!: every page gets the top bar (member bar `div#um` with the logout link, or the login
 *   form `form#lsform`); a members-only board (`membersOnly(key)`) answers visitors the
 *   "抱歉，您尚未登录，没有权限访问该版块" notice instead of its list and threads.
 * - Tieba: pages carry the viewer (`"user":{"is_login":…}` / `PageData.user`) and the top bar.
 *
 * ```ts
 * const cookie = site.logins.signIn("discuz");    // "cw_2132_auth=…"
 * site.logins.membersOnly("discuz-1");
 * site.logins.expire("discuz");                    // the same cookie is now a visitor's
 * ```
 */
import type { Platform } from "../../../crawler/types";
import { discuzTopBar, renderDiscuzLoginRequired } from "./discuz";
import type { PlatformModel } from "./model";
import type { Rendered } from "./responses";
import { tiebaViewer } from "./tieba";
import { renderWeiboConfig } from "./weibo";

/** The session cookie each platform sets at login. */
export const SESSION_COOKIES: Readonly<Record<Exclude<Platform, "blog" | "wechat">, string>> = { weibo: "SUB", tieba: "BDUSS", discuz: "cw_2132_auth" };

type LoginPlatform = keyof typeof SESSION_COOKIES;

/** Logins of the local platforms (`site.logins`). */
export interface LocalLogins {
  /** Sign a member in: returns the Cookie header value (`name=value`) of a fresh session. */
  signIn(platform: LoginPlatform, member?: string): string;
  /** Expire every session of `platform`: their cookies are answered as a visitor's from now on. */
  expire(platform: LoginPlatform): void;
  /** A Discuz! board (account key) whose list and threads visitors may not read. */
  membersOnly(accountKey: string, on?: boolean): void;
  /** The member a request's Cookie header is signed in as on `platform`, or null. */
  memberOf(platform: LoginPlatform, cookieHeader: string | undefined): string | null;
}

/** What the login layer needs of a routed request. */
export interface LoginRouted {
  rendered: Rendered;
  platform: Platform | null;
  accountKey: string | null;
  kind: "list" | "item" | "other";
}

/** The logins' state plus the layer the server applies to each answer. */
export interface LoginLayer extends LocalLogins {
  apply<R extends LoginRouted>(routed: R, url: URL, cookieHeader: string | undefined): R;
}

/** Start with nobody signed in. */
export function createLogins(model: PlatformModel): LoginLayer {
  const sessions = new Map<LoginPlatform, Map<string, string>>();
  const members = new Set<string>();
  let issued = 0;

  const memberOf = (platform: LoginPlatform, cookieHeader: string | undefined): string | null => {
    const name = SESSION_COOKIES[platform];
    for (const part of (cookieHeader ?? "").split(";")) {
      const eq = part.indexOf("=");
      if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
      const member = sessions.get(platform)?.get(part.slice(eq + 1).trim());
      if (member) return member;
    }
    return null;
  };

  return {
    signIn(platform, member = "会员七号") {
      const token = `local-${platform}-${++issued}-${Math.floor(model.clock.now().getTime() / 1000)}`;
      if (!sessions.has(platform)) sessions.set(platform, new Map());
      sessions.get(platform)!.set(token, member);
      return `${SESSION_COOKIES[platform]}=${token}`;
    },
    expire(platform) {
      // Kept (empty) so the platform's pages stay decorated: its visitors are now told so.
      sessions.set(platform, new Map());
    },
    membersOnly(accountKey, on = true) {
      if (on) members.add(accountKey);
      else members.delete(accountKey);
    },
    memberOf,
    apply(routed, url, cookieHeader) {
      if (url.pathname === "/api/config") {
        const member = memberOf("weibo", cookieHeader);
        return { ...routed, rendered: renderWeiboConfig(member ? { uid: "7007007" } : null), platform: "weibo", kind: "other" };
      }
      const r = routed.rendered;
      if (!r.contentType.startsWith("text/html")) return routed;
      if (routed.platform === "discuz" && (sessions.has("discuz") || (routed.accountKey && members.has(routed.accountKey)))) {
        const member = memberOf("discuz", cookieHeader);
        if (!member && routed.accountKey && members.has(routed.accountKey) && routed.kind !== "other") {
          return { ...routed, rendered: renderDiscuzLoginRequired(model.account(routed.accountKey)) };
        }
        return { ...routed, rendered: { ...r, body: r.body.replace(/(<body[^>]*>)/, `$1\n${discuzTopBar(member)}`) } };
      }
      if (routed.platform === "tieba" && sessions.has("tieba") && routed.kind !== "other") {
        const viewer = tiebaViewer(memberOf("tieba", cookieHeader), routed.kind === "list" ? "list" : "item");
        const body = r.body.replace("</head>", `${viewer.head}</head>`).replace(/(<body[^>]*>)/, `$1\n${viewer.bar}`);
        return { ...routed, rendered: { ...r, body } };
      }
      return routed;
    },
  };
}
