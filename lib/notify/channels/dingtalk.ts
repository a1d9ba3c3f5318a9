/**
 * 钉钉 DingTalk custom robot (自定义机器人), DingTalk Open Platform docs "自定义机器人发送群消息"
 * and "自定义机器人安全设置 — 加签":
 *
 * - With 加签, `timestamp` is milliseconds since the epoch, `stringToSign = timestamp + "\n" + secret`,
 *   `sign = urlEncode(base64(HmacSHA256(key = secret, message = stringToSign)))`, and the request goes
 *   to `webhook&timestamp=…&sign=…`. DingTalk refuses a timestamp more than one hour from its clock.
 * - Body `{"msgtype":"markdown","markdown":{"title","text"}}`; the title is what the chat list and
 *   the phone's notification show.
 * - The answer is HTTP 200 either way: `{"errcode":0,"errmsg":"ok"}` is success; e.g. 310000 "sign
 *   not match" (wrong secret or clock), 300001 token missing or invalid. 130101 "send too fast"
 *   (20 messages a minute per robot) is the one worth retrying.
 */
import crypto from "node:crypto";
import { markdownMessage } from "../message";
import { isLoginExpired, loginMarkdown } from "../login";
import { incidentMarkdown, isIncidentAlert } from "../incident";
import { deletionMarkdown, isDeletion } from "../deletion";
import { caseMarkdown, isCaseAssigned } from "../case";
import type { Outcome, SendContext } from "../types";
import { errcodeOutcome, postJson } from "./http";

/** DingTalk's codes that mean "later": 130101 send too fast. */
export const DINGTALK_RETRY_CODES: ReadonlySet<number> = new Set([130101]);

/** The 加签 signature of a timestamp (ms, as a string), base64 — not yet URL-encoded. */
export function dingtalkSign(timestamp: string, secret: string): string {
  return crypto.createHmac("sha256", secret).update(`${timestamp}\n${secret}`, "utf8").digest("base64");
}

/** The URL to POST to: the webhook, plus `timestamp` and the URL-encoded `sign` when the robot has a secret. */
export function dingtalkUrl(webhook: string, secret: string | null, nowMs: number): string {
  if (!secret) return webhook;
  const timestamp = String(nowMs);
  return `${webhook}${webhook.includes("?") ? "&" : "?"}timestamp=${timestamp}&sign=${encodeURIComponent(dingtalkSign(timestamp, secret))}`;
}

/** Send one notification to a DingTalk robot. */
export async function sendDingtalk(ctx: SendContext): Promise<Outcome> {
  const p = ctx.payload;
  const { title, text } = isLoginExpired(p)
    ? loginMarkdown(p, { lineBreak: "\n\n" })
    : isIncidentAlert(p)
      ? incidentMarkdown(p, { lineBreak: "\n\n" })
      : isDeletion(p)
        ? deletionMarkdown(p, { lineBreak: "\n\n" })
        : isCaseAssigned(p)
          ? caseMarkdown(p, { lineBreak: "\n\n" })
          : markdownMessage(p, { lineBreak: "\n\n" });
  const body = JSON.stringify({ msgtype: "markdown", markdown: { title, text } });
  const answer = await postJson(dingtalkUrl(ctx.target, ctx.secret, ctx.now()), body, ctx);
  return errcodeOutcome(answer, "钉钉", DINGTALK_RETRY_CODES);
}
