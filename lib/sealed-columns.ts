/**
 * Every database column that holds a credential, sealed at rest (lib/secret-box.ts). One list, so
 * that `campuswatch secrets rotate` and the sealing of plaintext left from older versions
 * (lib/secret-rotate.ts) cannot miss a column: a new credential column is added here.
 *
 * Not here, though they hold something secret: User.passwordHash and SetupToken.tokenHash (hashes,
 * never decrypted). Notification.target is not sealed either: it keeps only the masked form of a
 * robot URL (what the run and topic pages show), so it holds no token at all.
 */

/** A sealed column: its table and column (bound into every value, with the row id) and the purpose its key is derived for. */
export interface SealedColumn {
  readonly table: "Account" | "Topic";
  readonly column: string;
  readonly purpose: string;
  /**
   * A column of the same row that shows the value masked (lib/mask.ts maskUrl: origin + "…"), so
   * pages never open the sealed one; filled when a plaintext value is sealed at rest.
   */
  readonly display?: string;
}

/** An account's login cookies (JSON). */
export const ACCOUNT_COOKIES: SealedColumn = { table: "Account", column: "cookies", purpose: "account-cookies" };
/** An account's own proxy URL, credentials included. */
export const ACCOUNT_PROXY: SealedColumn = { table: "Account", column: "proxy", purpose: "account-proxy" };
/** The key of a topic's generic webhook signature (HMAC-SHA256). */
export const TOPIC_WEBHOOK_SECRET: SealedColumn = { table: "Topic", column: "webhookSecret", purpose: "topic-webhook-secret" };
/** A topic's DingTalk robot 加签 secret. */
export const TOPIC_DINGTALK_SECRET: SealedColumn = { table: "Topic", column: "dingtalkSecret", purpose: "topic-dingtalk-secret" };
/** A topic's Feishu bot 签名校验 secret. */
export const TOPIC_FEISHU_SECRET: SealedColumn = { table: "Topic", column: "feishuSecret", purpose: "topic-feishu-secret" };

/** A topic's generic webhook URL (a receiver's URL may carry its own token). */
export const TOPIC_WEBHOOK_URL: SealedColumn = { table: "Topic", column: "webhookUrl", purpose: "topic-webhook-url", display: "webhookUrlDisplay" };
/** A topic's DingTalk robot URL: its `access_token` lets anyone post to the group. */
export const TOPIC_DINGTALK_WEBHOOK: SealedColumn = {
  table: "Topic",
  column: "dingtalkWebhook",
  purpose: "topic-dingtalk-webhook",
  display: "dingtalkWebhookDisplay",
};
/** A topic's WeCom robot URL: its `key` lets anyone post to the group. */
export const TOPIC_WECOM_WEBHOOK: SealedColumn = { table: "Topic", column: "wecomWebhook", purpose: "topic-wecom-webhook", display: "wecomWebhookDisplay" };
/** A topic's Feishu bot URL: its hook id lets anyone post to the group. */
export const TOPIC_FEISHU_WEBHOOK: SealedColumn = { table: "Topic", column: "feishuWebhook", purpose: "topic-feishu-webhook", display: "feishuWebhookDisplay" };

/** All of them, by table (each table is re-sealed in one transaction). */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  ACCOUNT_COOKIES,
  ACCOUNT_PROXY,
  TOPIC_WEBHOOK_SECRET,
  TOPIC_DINGTALK_SECRET,
  TOPIC_FEISHU_SECRET,
  TOPIC_WEBHOOK_URL,
  TOPIC_DINGTALK_WEBHOOK,
  TOPIC_WECOM_WEBHOOK,
  TOPIC_FEISHU_WEBHOOK,
];
