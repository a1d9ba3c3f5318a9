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
