/**
 * 企业微信 WeCom group robot (群机器人), WeCom developer docs "群机器人配置说明":
 *
 * - POST `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=KEY`; the key in the URL is the only
 *   credential (no signature).
 * - Body `{"msgtype":"markdown","markdown":{"content"}}`, content at most 4096 bytes of UTF-8.
 * - The answer is HTTP 200 either way: `{"errcode":0,"errmsg":"ok"}` is success; e.g. 93000
 *   "invalid webhook url" (wrong key), 40058 content too long. 45009 "api freq out of limit" (20
 *   messages a minute per robot) is retried.
 */
import { markdownMessage } from "../message";
import { isLoginExpired, loginMarkdown } from "../login";
import { incidentMarkdown, isIncidentAlert } from "../incident";
import { deletionMarkdown, isDeletion } from "../deletion";
import { caseMarkdown, isCaseAssigned } from "../case";
import type { Outcome, SendContext } from "../types";
import { errcodeOutcome, postJson } from "./http";

/** WeCom's codes that mean "later": 45009 api freq out of limit. */
export const WECOM_RETRY_CODES: ReadonlySet<number> = new Set([45009]);

/** The largest markdown content WeCom takes, in bytes of UTF-8. */
export const WECOM_MAX_BYTES = 4096;

/** WeCom robots' real address; a key typed alone is completed with it. */
export const WECOM_SEND_URL = "https://qyapi.weixin.qq.com/cgi-bin/webhook/send";

/** Send one notification to a WeCom group robot. */
export async function sendWecom(ctx: SendContext): Promise<Outcome> {
  const p = ctx.payload;
  const { text } = isLoginExpired(p)
    ? loginMarkdown(p, { lineBreak: "\n" })
    : isIncidentAlert(p)
      ? incidentMarkdown(p, { lineBreak: "\n" })
      : isDeletion(p)
        ? deletionMarkdown(p, { lineBreak: "\n" })
        : isCaseAssigned(p)
          ? caseMarkdown(p, { lineBreak: "\n" })
          : markdownMessage(p, { lineBreak: "\n", maxBytes: WECOM_MAX_BYTES });
  const body = JSON.stringify({ msgtype: "markdown", markdown: { content: text } });
  const answer = await postJson(ctx.target, body, ctx);
  return errcodeOutcome(answer, "企业微信", WECOM_RETRY_CODES);
}
