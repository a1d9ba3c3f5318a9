/**
 * Every database column that holds a credential, sealed at rest (lib/secret-box.ts). One list, so
 * that `campuswatch secrets rotate` and the sealing of plaintext left from older versions
 * (lib/secret-rotate.ts) cannot miss a column: a new credential column is added here.
 *
 * Not here, though they hold something secret: User.passwordHash and SetupToken.tokenHash (hashes,
 * never decrypted), and the robot webhook URLs of a topic (their tokens: see the README's
 * "Secrets at rest", which says what is and is not sealed).
 */

/** A sealed column: its table and column (bound into every value, with the row id) and the purpose its key is derived for. */
export interface SealedColumn {
  readonly table: "Account" | "Topic";
  readonly column: string;
  readonly purpose: string;
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

/** All of them, by table (each table is re-sealed in one transaction). */
export const SEALED_COLUMNS: readonly SealedColumn[] = [ACCOUNT_COOKIES, ACCOUNT_PROXY, TOPIC_WEBHOOK_SECRET, TOPIC_DINGTALK_SECRET, TOPIC_FEISHU_SECRET];
