/**
 * A topic's notification channels in the settings form: the fields of the generic webhook, e-mail,
 * 钉钉 DingTalk, 企业微信 WeCom and 飞书 Feishu, their validation, how they are written, and how
 * they are shown.
 *
 * Secrets are write-only: the stored value never goes back to a page (only whether one is set).
 * An empty secret field keeps the stored secret, the "remove" checkbox (`…SecretClear`) deletes
 * it, and removing a channel's URL removes its secret. Stored secrets are sealed, bound to their
 * topic's row (lib/secret-box.ts): {@link sealChannelSecrets}; only the sender opens them.
 *
 * The robot and webhook URLs are secrets too (DingTalk's access_token, WeCom's key, the Feishu
 * hook id are in them) and are handled the same way: sealed, and write-only in the form. A page
 * gets only the masked form kept beside each (`…Display`: origin + "…"); an empty URL field keeps
 * the stored URL (`…Set` says one is stored), typing one replaces it, and `…Clear` removes it with
 * its secret.
 */
import { z } from "zod";
import { maskUrl } from "../lib/mask";
import { CHANNEL_LABELS, type Channel } from "../lib/notify/types";
import { WECOM_SEND_URL } from "../lib/notify/channels/wecom";
import { seal } from "../lib/secret-box";
import {
  TOPIC_DINGTALK_SECRET,
  TOPIC_DINGTALK_WEBHOOK,
  TOPIC_FEISHU_SECRET,
  TOPIC_FEISHU_WEBHOOK,
  TOPIC_WEBHOOK_SECRET,
  TOPIC_WEBHOOK_URL,
  TOPIC_WECOM_WEBHOOK,
  type SealedColumn,
} from "../lib/sealed-columns";
import { topicProblems } from "./topic-problems";

const optionalText = z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().trim().optional());
const checkbox = z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()).default(false);

/** An http(s) URL, or null. */
function httpUrl(s: string): URL | null {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

/** What is wrong with a webhook URL: its code (./topic-problems.ts) and its English words. */
type WebhookProblem = { code: "fullUrl" | "dingtalkUrl" | "wecomUrl" | "feishuUrl" | "noSignParams"; message: string };

/**
 * A webhook URL field: empty → undefined; otherwise an http(s) URL passing `check` (which returns
 * what is wrong, or null). Any host is accepted — a relay, or a local test server —
 * but a URL on the platform's own host must have the shape the platform gives out.
 */
const webhookField = (check?: (u: URL) => WebhookProblem | null, prepare: (s: string) => string = (s) => s) =>
  optionalText.pipe(
    z
      .string()
      .transform(prepare)
      .pipe(
        z
          .string()
          .max(2000, topicProblems.error("atMostChars", "at most 2000 characters", { max: 2000 }))
          .superRefine((s, ctx) => {
            const u = httpUrl(s);
            const problem: WebhookProblem | null = !u ? { code: "fullUrl", message: "enter a full http(s) URL" } : (check?.(u) ?? null);
            if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: topicProblems.params(problem.code) });
          }),
      )
      .optional(),
  );

/** A secret field: empty → undefined (keep the stored one); no spaces inside. */
const secretField = (pattern: RegExp, code: "webhookSecretFormat" | "dingtalkSecretFormat" | "feishuSecretFormat", message: string) =>
  optionalText.pipe(
    z
      .string()
      .max(200, topicProblems.error("atMostChars", "at most 200 characters", { max: 200 }))
      .regex(pattern, topicProblems.error(code, message))
      .optional(),
  );

const DINGTALK_HELP: WebhookProblem = {
  code: "dingtalkUrl",
  message: "a DingTalk robot webhook looks like https://oapi.dingtalk.com/robot/send?access_token=…",
};
const WECOM_HELP: WebhookProblem = {
  code: "wecomUrl",
  message: "a WeCom robot webhook looks like https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=… (or paste the key alone)",
};
const FEISHU_HELP: WebhookProblem = {
  code: "feishuUrl",
  message: "a Feishu bot webhook looks like https://open.feishu.cn/open-apis/bot/v2/hook/… (Lark: open.larksuite.com)",
};

function dingtalkProblem(u: URL): WebhookProblem | null {
  if (u.searchParams.has("sign") || u.searchParams.has("timestamp"))
    return { code: "noSignParams", message: "paste the webhook without timestamp and sign: CampusWatch signs each message itself" };
  if (!u.searchParams.get("access_token")) return DINGTALK_HELP;
  if (u.hostname === "oapi.dingtalk.com" && (u.protocol !== "https:" || u.pathname !== "/robot/send")) return DINGTALK_HELP;
  return null;
}

function wecomProblem(u: URL): WebhookProblem | null {
  if (!u.searchParams.get("key")) return WECOM_HELP;
  if (u.hostname === "qyapi.weixin.qq.com" && (u.protocol !== "https:" || u.pathname !== "/cgi-bin/webhook/send")) return WECOM_HELP;
  return null;
}

function feishuProblem(u: URL): WebhookProblem | null {
  if (
    (u.hostname === "open.feishu.cn" || u.hostname === "open.larksuite.com") &&
    (u.protocol !== "https:" || !/^\/open-apis\/bot\/v2\/hook\/[\w-]+$/.test(u.pathname))
  )
    return FEISHU_HELP;
  return null;
}

/** A WeCom key pasted alone (a UUID-like token) becomes the full robot URL. */
function wecomUrl(s: string): string {
  return /^[A-Za-z0-9-]{8,100}$/.test(s) ? `${WECOM_SEND_URL}?key=${s}` : s;
}

/** A hidden "is stored" marker the form sends back ("1"), or the CLI's current settings. */
const marker = z.preprocess((v) => v === "1" || v === "on" || v === true, z.boolean()).default(false);

/** The channel fields of the topic form (spread into server/topics.ts topicFormSchema). */
export const channelFormFields = {
  webhookUrl: webhookField(),
  webhookUrlSet: marker,
  webhookUrlClear: checkbox,
  webhookSecret: secretField(/^\S{16,}$/, "webhookSecretFormat", "at least 16 characters without spaces (e.g. the output of openssl rand -hex 32)"),
  webhookSecretClear: checkbox,
  notifyEmail: optionalText.pipe(z.email(topicProblems.error("email", "enter an e-mail address")).optional()),
  dingtalkWebhook: webhookField(dingtalkProblem),
  dingtalkWebhookSet: marker,
  dingtalkWebhookClear: checkbox,
  dingtalkSecret: secretField(
    /^SEC[A-Za-z0-9]+$/,
    "dingtalkSecretFormat",
    "a DingTalk 加签 secret starts with SEC: copy it from the robot's security settings (安全设置 → 加签)",
  ),
  dingtalkSecretClear: checkbox,
  wecomWebhook: webhookField(wecomProblem, wecomUrl),
  wecomWebhookSet: marker,
  wecomWebhookClear: checkbox,
  feishuWebhook: webhookField(feishuProblem),
  feishuWebhookSet: marker,
  feishuWebhookClear: checkbox,
  feishuSecret: secretField(
    /^\S{8,}$/,
    "feishuSecretFormat",
    "at least 8 characters without spaces: copy it from the bot's security settings (安全设置 → 签名校验)",
  ),
  feishuSecretClear: checkbox,
};

type ChannelForm = z.output<z.ZodObject<typeof channelFormFields>>;

/** The URL fields of the form, each with its stored marker (`…Set`) and remove box (`…Clear`). */
type UrlField = "webhookUrl" | "dingtalkWebhook" | "wecomWebhook" | "feishuWebhook";

/**
 * A URL column's new value: the typed URL (it replaces the stored one), null when removed or on
 * create without one, otherwise undefined: the stored URL is kept (Prisma leaves the column alone).
 */
function urlValue(f: ChannelForm, field: UrlField, update: boolean): string | null | undefined {
  const typed = f[field];
  if (typed) return typed;
  if (f[`${field}Clear`] || !update) return null;
  return undefined;
}

/** Whether the channel has a URL after this save: one typed, or one stored and kept. */
function hasUrl(f: ChannelForm, field: UrlField): boolean {
  return Boolean(f[field]) || (f[`${field}Set`] && !f[`${field}Clear`]);
}

/** Form-level check: a new secret without its channel would be silently dropped, so say so. */
export function checkChannelSecrets(f: ChannelForm, ctx: z.RefinementCtx): void {
  const pairs = [
    ["webhookSecret", f.webhookSecret, "webhookUrl", "the webhook URL", "webhook"],
    ["dingtalkSecret", f.dingtalkSecret, "dingtalkWebhook", "the DingTalk webhook", "dingtalk"],
    ["feishuSecret", f.feishuSecret, "feishuWebhook", "the Feishu webhook", "feishu"],
  ] as const;
  for (const [field, secret, url, what, channel] of pairs) {
    if (secret && !hasUrl(f, url))
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `a secret needs ${what}: enter it too`,
        params: topicProblems.params("secretNeedsUrl", { channel }),
      });
  }
}

/**
 * A secret column's new value: null without the channel or when removed, the typed secret when
 * one was typed, otherwise unchanged on update (undefined: Prisma leaves the column alone).
 */
function secretValue(typed: string | undefined, clear: boolean, channelUrl: string | null | undefined, update: boolean): string | null | undefined {
  if (channelUrl === null) return null;
  if (typed) return typed;
  if (clear) return null;
  return update ? undefined : null;
}

/** The topic columns of the channel fields, for create (`update` false) or update; URLs and secrets still to seal. */
export function channelData(f: ChannelForm, update: boolean) {
  const webhookUrl = urlValue(f, "webhookUrl", update);
  const dingtalkWebhook = urlValue(f, "dingtalkWebhook", update);
  const feishuWebhook = urlValue(f, "feishuWebhook", update);
  return {
    webhookUrl,
    webhookSecret: secretValue(f.webhookSecret, f.webhookSecretClear, webhookUrl, update),
    notifyEmail: f.notifyEmail ?? null,
    dingtalkWebhook,
    dingtalkSecret: secretValue(f.dingtalkSecret, f.dingtalkSecretClear, dingtalkWebhook, update),
    wecomWebhook: urlValue(f, "wecomWebhook", update),
    feishuWebhook,
    feishuSecret: secretValue(f.feishuSecret, f.feishuSecretClear, feishuWebhook, update),
  };
}

/** The sealed channel columns (URLs and secrets) and the column each is sealed as. */
const SEALED_CHANNEL_COLUMNS = {
  webhookUrl: TOPIC_WEBHOOK_URL,
  dingtalkWebhook: TOPIC_DINGTALK_WEBHOOK,
  wecomWebhook: TOPIC_WECOM_WEBHOOK,
  feishuWebhook: TOPIC_FEISHU_WEBHOOK,
  webhookSecret: TOPIC_WEBHOOK_SECRET,
  dingtalkSecret: TOPIC_DINGTALK_SECRET,
  feishuSecret: TOPIC_FEISHU_SECRET,
} as const satisfies Record<string, SealedColumn>;

type SealedChannelData = { [K in keyof typeof SEALED_CHANNEL_COLUMNS]?: string | null };
type DisplayData = {
  webhookUrlDisplay?: string | null;
  dingtalkWebhookDisplay?: string | null;
  wecomWebhookDisplay?: string | null;
  feishuWebhookDisplay?: string | null;
};

/**
 * The channel columns with each given URL and secret sealed for topic `topicId` (bound to that
 * row), and each given URL's masked form in its `…Display` column: what is written. A topic's id
 * is known only after its insert, so a new topic is created without them and they are written,
 * sealed, in the same transaction (server/topic-admin.ts); binding to the name instead would break
 * on a rename. Null (removed) and undefined (kept) pass through, to the display column too.
 */
export function sealChannelSecrets<T extends SealedChannelData>(data: T, topicId: number): T & DisplayData {
  const out: Record<string, unknown> = { ...data };
  for (const [key, column] of Object.entries(SEALED_CHANNEL_COLUMNS)) {
    const v = data[key as keyof SealedChannelData];
    if (v === undefined) continue;
    out[key] = v === null ? null : seal(v, column, topicId);
    if ("display" in column && column.display) out[column.display] = v === null ? null : maskUrl(v);
  }
  return out as T & DisplayData;
}

/** The sealed channel columns as they are written, split from the rest of a topic's columns. */
export function splitSealedChannels<T extends SealedChannelData>(data: T): { sealed: SealedChannelData; rest: Omit<T, keyof SealedChannelData> } {
  const sealed: { -readonly [K in keyof SealedChannelData]: SealedChannelData[K] } = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (k in SEALED_CHANNEL_COLUMNS) sealed[k as keyof SealedChannelData] = v;
    else rest[k] = v;
  }
  return { sealed, rest: rest as Omit<T, keyof SealedChannelData> };
}

/** The sealed columns (URLs and secrets), left out of everything the topic queries return. */
export const SECRET_COLUMNS = {
  webhookSecret: true,
  dingtalkSecret: true,
  feishuSecret: true,
  webhookUrl: true,
  dingtalkWebhook: true,
  wecomWebhook: true,
  feishuWebhook: true,
} as const;

/** A topic's channel settings as the pages read them: the masked targets, and which secrets are stored. */
export interface ChannelColumns {
  webhookUrlDisplay: string | null;
  notifyEmail: string | null;
  dingtalkWebhookDisplay: string | null;
  wecomWebhookDisplay: string | null;
  feishuWebhookDisplay: string | null;
  secretsSet: SecretsSet;
}

/** Which of a topic's secrets are stored. */
export interface SecretsSet {
  webhook: boolean;
  dingtalk: boolean;
  feishu: boolean;
}

/**
 * A topic's notification channels for display: each one's label and, for URLs, only the origin
 * (the path and query of a robot URL hold its token), and whether messages are signed.
 */
export function notificationChannels(t: ChannelColumns) {
  const out: { channel: Channel; label: string; where: string; signed: boolean | null }[] = [];
  const add = (channel: Channel, value: string | null, signed: boolean | null) => {
    if (value) out.push({ channel, label: CHANNEL_LABELS[channel], where: value, signed });
  };
  add("webhook", t.webhookUrlDisplay, t.secretsSet.webhook);
  add("email", t.notifyEmail, null);
  add("dingtalk", t.dingtalkWebhookDisplay, t.secretsSet.dingtalk);
  add("wecom", t.wecomWebhookDisplay, null);
  add("feishu", t.feishuWebhookDisplay, t.secretsSet.feishu);
  return out;
}
