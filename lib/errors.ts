/**
 * Error classes named by what the runner does with them (as in crawlee).
 * Adapters and the fetcher throw; the worker decides and records the reason on the crawl run.
 */

/** A transient failure (network error, 5xx, timeout) that was already retried and may work next time. */
export class RetryableError extends Error {
  override name = "RetryableError";
  constructor(
    message: string,
    readonly url?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** This item or page cannot be read (404, too large, redirect loop, unparseable): skip it. */
export class NonRetryableError extends Error {
  override name = "NonRetryableError";
  constructor(
    message: string,
    readonly url?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The host blocks us (captcha page, 418/429/432/503 after back-off, robots.txt): back off this host. */
export class BlockedError extends Error {
  override name = "BlockedError";
  constructor(
    message: string,
    readonly url?: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** The run cannot continue (bad configuration): stop this account's run. */
export class FatalError extends Error {
  override name = "FatalError";
}

/**
 * The page says the post is gone: HTTP 404/410, or a deletion notice ("该帖已被删除",
 * "抱歉，指定的主题不存在或已被删除", Tieba's "该贴已被删除"). Not a failure of the crawl: the
 * worker marks the stored post deleted (kept, never removed) and goes on.
 */
export class GoneError extends Error {
  override name = "GoneError";
  constructor(
    message: string,
    readonly url?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The account has login cookies, but the platform answered as to a visitor: the login expired
 * (Weibo `api/config` says `login: false`, a Discuz! board shows its login form or "需要登录",
 * a Tieba page says `is_login: 0`). The logged-out page is never read as an empty list: the run
 * stops, the account is marked "relogin" (需要重新登录) until its cookies are set again, and the
 * topics' channels are told once. `name` is the kind recorded on the run.
 */
export class LoginExpiredError extends Error {
  override name = "LoginExpired";
  constructor(
    message: string,
    readonly url?: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The listing's head page answered 304 Not Modified to a conditional request
 * (crawler/fetch/conditional.ts): nothing was added, edited or removed since the last complete
 * run. Not a failure: the walk ends at once, without parsing, and the account's marks stay.
 */
export class NotModifiedError extends Error {
  override name = "NotModified";
  constructor(readonly url: string) {
    super(`list not modified (HTTP 304): ${url}`);
  }
}
