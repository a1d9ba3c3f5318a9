/**
 * Secrets in settings shown to people who may not hold them. Webhook URLs carry their secret in
 * the URL itself (DingTalk's `access_token`, WeCom's `key`, Feishu's hook id), so a reviewer sees
 * only where messages go — the origin — never the whole URL.
 */

/** `https://oapi.dingtalk.com/robot/send?access_token=…` → `https://oapi.dingtalk.com/…`. */
export function maskUrl(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return "…";
  }
}

/** Every http(s) URL inside `text` (an error message, say) masked with {@link maskUrl}. */
export function maskUrlsIn(text: string): string {
  return text.replace(/https?:\/\/[^\s"'<>]+/gi, (u) => maskUrl(u));
}

/**
 * A URL-like value (a proxy URL, a database URL) with its credentials masked, even when it does
 * not parse — the error path is exactly where the input is malformed, so nothing here relies on
 * a URL parser. Everything between the scheme's `//` (or the start, when there is no scheme) and
 * the LAST `@` becomes `***`: a password may hold `@`, `/`, `:`, `?`, spaces and percent-escapes,
 * and no rule that stops earlier can tell where it ends. The host and what follows stay readable.
 *
 * `http://u:SEC@RET9@h:1 bad` → `http://***@h:1 bad`; `u:p@h` → `***@h`; no `@` → unchanged.
 */
export function maskUrlCredentials(raw: string): string {
  const last = raw.lastIndexOf("@");
  if (last < 0) return raw;
  const scheme = /^\s*[a-z][a-z0-9+.-]*:\/\//i.exec(raw);
  const start = scheme ? scheme[0].length : raw.length - raw.trimStart().length;
  if (last < start) return raw;
  return `${raw.slice(0, start)}***${raw.slice(last)}`;
}

/**
 * Free text (an error message, a log line) with the credentials of every `scheme://…@` in it
 * masked by the rule of {@link maskUrlCredentials}, applied to each whitespace-delimited word:
 * the last net before a message reaches a terminal or a log.
 */
export function maskCredentialsIn(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)\S*@/gi, "$1***@");
}
