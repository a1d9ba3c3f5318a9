/** The HTTP part every webhook-like channel shares: one POST with a timeout, and what it means. */
import type { Dispatcher } from "undici";
import { AddressRefusedError, type AddressPolicy } from "../../net/address";
import type { Outcome } from "../types";

/**
 * What came back from one POST: the status and the body, or why nothing came back (`refused`:
 * the address policy refused the URL, which no retry changes).
 */
export type HttpAnswer = { ok: true; status: number; statusText: string; body: string } | { ok: false; error: string; refused?: true };

/**
 * POST a JSON body. Never throws; redirects are refused (a webhook that redirects is
 * misconfigured). The URL passes the address policy first (an early refusal naming it), and the
 * connection again through `dispatcher` (the policy's guarded agent: no DNS rebinding past the check).
 */
export async function postJson(
  url: string,
  body: string,
  opts: { timeoutMs: number; fetch: typeof fetch; policy: AddressPolicy; dispatcher?: Dispatcher; headers?: Record<string, string> },
): Promise<HttpAnswer> {
  try {
    await opts.policy.check(url);
    const init = {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", "user-agent": "CampusWatch/0.1 (notifications)", ...opts.headers },
      body,
      signal: AbortSignal.timeout(opts.timeoutMs),
      redirect: "error" as const,
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    };
    const res = await opts.fetch(url, init);
    // Read the body: the chat platforms answer errors in it (with HTTP 200), and reading it lets
    // the connection be reused. Capped: a webhook has no reason to answer more.
    const text = (await res.text().catch(() => "")).slice(0, 4000);
    return { ok: true, status: res.status, statusText: res.statusText, body: text };
  } catch (e) {
    const refused = e instanceof AddressRefusedError ? e : (e as { cause?: unknown }).cause;
    if (refused instanceof AddressRefusedError) return { ok: false, refused: true, error: refused.message };
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why = err.name === "TimeoutError" ? `timed out after ${opts.timeoutMs} ms` : (err.cause?.code ?? err.cause?.message ?? err.message);
    return { ok: false, error: `network error: ${why}` };
  }
}

/** 408, 429 and 5xx are worth another try; other HTTP errors are final. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The outcome of an HTTP answer whose body carries no platform code. */
export function statusOutcome(status: number, statusText: string): Outcome {
  if (status >= 200 && status < 300) return { ok: true };
  return { ok: false, retry: retryableStatus(status), error: `HTTP ${status} ${statusText}`.trim() };
}

/** The body as a JSON object, or null. */
export function jsonObject(body: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(body);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The outcome of a chat platform's answer. The platforms answer HTTP 200 for their own errors, so
 * the code in the body decides: 0 is success, a rate-limit code (`retryCodes`) is tried again
 * later, any other code is final (a wrong signature or key does not fix itself). Without a code,
 * the HTTP status decides, and a 2xx without one is not the platform (a proxy page, a wrong URL).
 */
export function platformOutcome(
  answer: HttpAnswer,
  opts: { name: string; codeField: string; code: number | null; message: string; retryCodes: (code: number, message: string) => boolean },
): Outcome {
  if (!answer.ok) return { ok: false, retry: !answer.refused, error: answer.error };
  if (opts.code !== null) {
    if (opts.code === 0) return { ok: true };
    const message = opts.message.replace(/\s+/g, " ").trim().slice(0, 300);
    return { ok: false, retry: opts.retryCodes(opts.code, message), error: `${opts.name} ${opts.codeField} ${opts.code}${message ? `: ${message}` : ""}` };
  }
  const byStatus = statusOutcome(answer.status, answer.statusText);
  if (!byStatus.ok) return { ...byStatus, error: `${opts.name}: ${byStatus.error}` };
  return { ok: false, retry: false, error: `${opts.name}: HTTP ${answer.status} without ${opts.codeField} (is this the robot's webhook URL?)` };
}

/** The outcome of an answer shaped `{errcode, errmsg}` (DingTalk and WeCom robots). */
export function errcodeOutcome(answer: HttpAnswer, name: string, retryCodes: ReadonlySet<number>): Outcome {
  const json = answer.ok ? jsonObject(answer.body) : null;
  return platformOutcome(answer, {
    name,
    codeField: "errcode",
    code: numberField(json, "errcode"),
    message: stringField(json, "errmsg"),
    retryCodes: (code) => retryCodes.has(code),
  });
}

/** A numeric field of a JSON answer, or null. */
export function numberField(o: Record<string, unknown> | null, ...names: string[]): number | null {
  for (const n of names) {
    const v = o?.[n];
    if (typeof v === "number" && Number.isFinite(v)) return v;
  }
  return null;
}

/** A string field of a JSON answer, or "". */
export function stringField(o: Record<string, unknown> | null, ...names: string[]): string {
  for (const n of names) {
    const v = o?.[n];
    if (typeof v === "string") return v;
  }
  return "";
}
