/**
 * The generic webhook: the payload JSON (types.ts NotificationPayload) POSTed as it is stored.
 *
 * When the topic has a webhook secret, two headers let the receiver check that the message comes
 * from CampusWatch and is fresh:
 *
 *   X-CampusWatch-Timestamp: 1764556320                 (seconds since the epoch)
 *   X-CampusWatch-Signature: sha256=<hex HMAC-SHA256(key = secret, message = timestamp + "." + raw body)>
 *
 * The timestamp is inside the signed string so that a captured request cannot be replayed later:
 * the receiver recomputes the HMAC over the timestamp header, a dot and the raw body bytes,
 * compares in constant time, and refuses timestamps more than 5 minutes from its clock.
 */
import crypto from "node:crypto";
import type { Outcome, SendContext } from "../types";
import { postJson, statusOutcome } from "./http";

/** The signature header's value for a timestamp (seconds, as a string) and raw body. */
export function webhookSignature(timestamp: string, body: string, secret: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")}`;
}

/** POST the payload; retried on network errors, 408, 429 and 5xx. */
export async function sendWebhook(ctx: SendContext): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (ctx.secret) {
    const timestamp = String(Math.floor(ctx.now() / 1000));
    headers["x-campuswatch-timestamp"] = timestamp;
    headers["x-campuswatch-signature"] = webhookSignature(timestamp, ctx.raw, ctx.secret);
  }
  const answer = await postJson(ctx.target, ctx.raw, { ...ctx, headers });
  if (!answer.ok) return { ok: false, retry: !answer.refused, error: answer.error };
  return statusOutcome(answer.status, answer.statusText);
}
