/**
 * 飞书 Feishu / Lark custom bot (自定义机器人), Feishu Open Platform docs "自定义机器人使用指南",
 * section "签名校验":
 *
 * - `timestamp` is SECONDS since the epoch, as a string; `sign = base64(HmacSHA256(key = timestamp +
 *   "\n" + secret, message = ""))` — the key is the string to sign and the message is empty, the
 *   reverse of DingTalk. Both go into the JSON body; Feishu refuses a timestamp more than an hour off.
 * - Body: a `post` (rich text) message. Its text elements are plain text and links are separate
 *   `a` elements, so crawled text cannot become markup or an `<at>` mention (see ../message.ts).
 * - The answer: `{"code":0,"msg":"success"}` (older bots: `{"StatusCode":0,"StatusMessage":"success"}`);
 *   19021 "sign match fail or timestamp is not within one hour from current time", 19024 keyword
 *   missing, 19022 IP not allowed — all final. Rate limits (100 a minute, 5 a second per bot):
 *   11232 (flow control) and 9499 "too many request" (9499 otherwise means "Bad Request") are retried.
 */
import crypto from "node:crypto";
import { feishuPost } from "../message";
import { isLoginExpired, loginFeishuPost } from "../login";
import { incidentFeishuPost, isIncidentAlert } from "../incident";
import { deletionFeishuPost, isDeletion } from "../deletion";
import { caseFeishuPost, isCaseAssigned } from "../case";
import type { Outcome, SendContext } from "../types";
import { jsonObject, numberField, platformOutcome, postJson, stringField } from "./http";

/** Whether a Feishu code means "later". */
export function feishuRetryable(code: number, message: string): boolean {
  return code === 11232 || (code === 9499 && /too many/i.test(message));
}

/** The 签名校验 signature of a timestamp (seconds, as a string), base64. */
export function feishuSign(timestamp: string, secret: string): string {
  return crypto.createHmac("sha256", `${timestamp}\n${secret}`).update("").digest("base64");
}

/** Send one notification to a Feishu / Lark custom bot. */
export async function sendFeishu(ctx: SendContext): Promise<Outcome> {
  const p = ctx.payload;
  const message = isLoginExpired(p)
    ? loginFeishuPost(p)
    : isIncidentAlert(p)
      ? incidentFeishuPost(p)
      : isDeletion(p)
        ? deletionFeishuPost(p)
        : isCaseAssigned(p)
          ? caseFeishuPost(p)
          : feishuPost(p);
  let signed: { timestamp?: string; sign?: string } = {};
  if (ctx.secret) {
    const timestamp = String(Math.floor(ctx.now() / 1000));
    signed = { timestamp, sign: feishuSign(timestamp, ctx.secret) };
  }
  const answer = await postJson(ctx.target, JSON.stringify({ ...signed, ...message }), ctx);
  const json = answer.ok ? jsonObject(answer.body) : null;
  return platformOutcome(answer, {
    name: "飞书",
    codeField: "code",
    code: numberField(json, "code", "StatusCode"),
    message: stringField(json, "msg", "StatusMessage"),
    retryCodes: feishuRetryable,
  });
}
