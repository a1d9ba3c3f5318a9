/**
 * Local stand-ins for the chat robots CampusWatch notifies — 钉钉 DingTalk custom robot, 企业微信
 * WeCom group robot, 飞书 Feishu custom bot — and for a receiver of the signed generic webhook.
 * Each verifies a request the way its platform documents it (recomputing the signature from the
 * query or body and the shared secret, checking the timestamp window) and answers with the
 * platform's own JSON, HTTP 200 for its own errors as the real ones do. `script` queues codes to
 * answer (after the signature check) before accepting, to play rate limits.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RobotServer<M> {
  /** The URL to configure on the topic. */
  webhook: string;
  /** Messages accepted (parsed bodies). */
  received: M[];
  /** Every request, accepted or not. */
  requests: number;
  /** Codes to answer before accepting, one per request (rate limits). */
  script: number[];
  close(): Promise<void>;
}

type Handler = (req: { url: URL; rawUrl: string; headers: http.IncomingHttpHeaders; body: string }) => { status?: number; json: unknown };

async function serve<M>(path: string, handler: (server: RobotServer<M>) => Handler): Promise<RobotServer<M>> {
  const robot: RobotServer<M> = { webhook: "", received: [], requests: 0, script: [], close: async () => undefined };
  const handle = handler(robot);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      robot.requests++;
      const rawUrl = req.url ?? "/";
      const out = handle({ url: new URL(rawUrl, "http://robot.local"), rawUrl, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(out.status ?? 200, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(out.json));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  robot.webhook = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  robot.close = () => new Promise<void>((r) => server.close(() => r()));
  return robot;
}

const parse = (body: string): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(body);
    return v && typeof v === "object" ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};
const hmacBase64 = (key: string, message: string) => crypto.createHmac("sha256", key).update(message, "utf8").digest("base64");

export interface DingtalkMessage {
  msgtype: "markdown";
  markdown: { title: string; text: string };
}

/**
 * DingTalk: `POST /robot/send?access_token=T[&timestamp=MS&sign=URLENCODED]`. With 加签 the sign is
 * base64(HmacSHA256(secret, timestamp + "\n" + secret)), URL-encoded, and the timestamp (ms) within
 * an hour of now; otherwise `{"errcode":310000,"errmsg":"sign not match, …"}`.
 */
export function startDingtalk(opts: { token: string; secret?: string }): Promise<RobotServer<DingtalkMessage>> {
  const signFail = { json: { errcode: 310000, errmsg: "sign not match, more: [https://ding-doc.dingtalk.com/doc#/serverapi2/qf2nxq]" } };
  return serve<DingtalkMessage>(`/robot/send?access_token=${opts.token}`, (robot) => ({ url, rawUrl, body }) => {
    if (url.pathname !== "/robot/send") return { status: 404, json: { errcode: 404, errmsg: "not found" } };
    if (url.searchParams.get("access_token") !== opts.token) return { json: { errcode: 300001, errmsg: "token is not exist" } };
    if (opts.secret) {
      const timestamp = url.searchParams.get("timestamp") ?? "";
      // The raw query value: base64's + / = must arrive URL-encoded, or a server decodes + as a space.
      const rawSign = /[?&]sign=([^&]*)/.exec(rawUrl)?.[1] ?? "";
      if (!/^\d{13}$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp)) > 3_600_000) return signFail;
      if (!/^[A-Za-z0-9%]+$/.test(rawSign)) return signFail;
      if (decodeURIComponent(rawSign) !== hmacBase64(opts.secret, `${timestamp}\n${opts.secret}`)) return signFail;
    }
    const code = robot.script.shift();
    if (code) return { json: { errcode: code, errmsg: code === 130101 ? "send too fast, exceed 20 times per minute" : "error" } };
    const m = parse(body) as DingtalkMessage | null;
    if (m?.msgtype !== "markdown" || typeof m.markdown?.title !== "string" || typeof m.markdown?.text !== "string")
      return { json: { errcode: 40035, errmsg: "缺少参数 markdown" } };
    robot.received.push(m);
    return { json: { errcode: 0, errmsg: "ok" } };
  });
}

export interface WecomMessage {
  msgtype: "markdown";
  markdown: { content: string };
}

/** WeCom: `POST /cgi-bin/webhook/send?key=K`; a wrong key answers errcode 93000, content over 4096 bytes 40058. */
export function startWecom(opts: { key: string }): Promise<RobotServer<WecomMessage>> {
  return serve<WecomMessage>(`/cgi-bin/webhook/send?key=${opts.key}`, (robot) => ({ url, body }) => {
    if (url.pathname !== "/cgi-bin/webhook/send") return { status: 404, json: { errcode: 404, errmsg: "not found" } };
    if (url.searchParams.get("key") !== opts.key) {
      return {
        json: {
          errcode: 93000,
          errmsg: "invalid webhook url, hint: [1764556320_1a2b], from ip: 127.0.0.1, more info at https://open.work.weixin.qq.com/devtool/query?e=93000",
        },
      };
    }
    const code = robot.script.shift();
    if (code) return { json: { errcode: code, errmsg: code === 45009 ? "api freq out of limit" : "error" } };
    const m = parse(body) as WecomMessage | null;
    if (m?.msgtype !== "markdown" || typeof m.markdown?.content !== "string") return { json: { errcode: 40008, errmsg: "invalid message type" } };
    if (Buffer.byteLength(m.markdown.content, "utf8") > 4096) return { json: { errcode: 40058, errmsg: "markdown.content exceed max length 4096" } };
    robot.received.push(m);
    return { json: { errcode: 0, errmsg: "ok" } };
  });
}

export interface FeishuElement {
  tag: string;
  text?: string;
  href?: string;
  user_id?: string;
}
export interface FeishuMessage {
  timestamp?: string;
  sign?: string;
  msg_type: "post";
  content: { post: { zh_cn: { title: string; content: FeishuElement[][] } } };
}

/**
 * Feishu: `POST /open-apis/bot/v2/hook/ID`; with 签名校验 the body carries `timestamp` (seconds, a
 * string, within an hour) and `sign` = base64(HmacSHA256(key = timestamp + "\n" + secret, message =
 * "")); otherwise `{"code":19021,…}`. Script 9499 answers HTTP 400 "too many request".
 */
export function startFeishu(opts: { hookId: string; secret?: string }): Promise<RobotServer<FeishuMessage>> {
  const path = `/open-apis/bot/v2/hook/${opts.hookId}`;
  return serve<FeishuMessage>(path, (robot) => ({ url, body }) => {
    if (url.pathname !== path) return { json: { code: 19001, data: {}, msg: "param invalid: incoming webhook access token invalid" } };
    const m = parse(body) as FeishuMessage | null;
    if (!m) return { status: 400, json: { code: 9499, data: {}, msg: "Bad Request" } };
    if (opts.secret) {
      const ts = typeof m.timestamp === "string" ? m.timestamp : "";
      const fresh = /^\d{10}$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) <= 3600;
      if (!fresh || m.sign !== hmacBase64(`${ts}\n${opts.secret}`, "")) {
        return { json: { code: 19021, data: {}, msg: "sign match fail or timestamp is not within one hour from current time" } };
      }
    }
    const code = robot.script.shift();
    if (code === 9499) return { status: 400, json: { code: 9499, data: {}, msg: "too many request" } };
    if (code) return { json: { code, data: {}, msg: code === 11232 ? "frequency limited psm[lark.oapi.app_platform_runtime]appID[1]" : "error" } };
    if (m.msg_type !== "post" || typeof m.content?.post?.zh_cn?.title !== "string" || !Array.isArray(m.content.post.zh_cn.content)) {
      return { status: 400, json: { code: 9499, data: {}, msg: "Bad Request" } };
    }
    robot.received.push(m);
    return { json: { code: 0, data: {}, msg: "success" } };
  });
}

/**
 * A receiver of CampusWatch's signed generic webhook, following the README's recipe: HMAC-SHA256
 * of `timestamp + "." + raw body` under the shared secret, hex, compared in constant time, and a
 * timestamp within 5 minutes. Answers 401 otherwise, 204 on success.
 */
export function startSignedWebhook(opts: { secret: string }): Promise<RobotServer<unknown>> {
  return serve<unknown>("/hook", (robot) => ({ headers, body }) => {
    const ts = String(headers["x-campuswatch-timestamp"] ?? "");
    const given = Buffer.from(String(headers["x-campuswatch-signature"] ?? ""));
    const wanted = Buffer.from(`sha256=${crypto.createHmac("sha256", opts.secret).update(`${ts}.${body}`, "utf8").digest("hex")}`);
    const fresh = /^\d+$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) <= 300;
    if (!fresh || given.length !== wanted.length || !crypto.timingSafeEqual(given, wanted)) return { status: 401, json: { error: "bad signature" } };
    robot.received.push(JSON.parse(body));
    return { status: 204, json: null };
  });
}

/** A receiver of the generic webhook that accepts every JSON body (tests that count messages, not signatures). */
export function startWebhook(): Promise<RobotServer<{ event: string }>> {
  return serve<{ event: string }>("/hook", (robot) => ({ body }) => {
    robot.received.push(JSON.parse(body) as { event: string });
    return { json: "ok" };
  });
}
