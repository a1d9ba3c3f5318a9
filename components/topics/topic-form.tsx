"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/(dashboard)/_lib/form";

type Values = Record<string, string>;
interface Props {
  action: (prev: FormState, formData: FormData) => Promise<FormState>;
  initial: Values;
  id?: number;
  submitLabel: string;
  compact?: boolean;
}

/** A topic's words, thresholds and notification targets. Lists: one per line or comma-separated. */
export function TopicForm({ action, initial, id, submitLabel, compact = false }: Props) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  const v = state.values ?? initial;
  const p = id ? `t${id}` : "new";
  const field = (name: string, label: string, opts: { textarea?: boolean; help?: string; type?: string; wide?: boolean; span2?: boolean; placeholder?: string; step?: string } = {}) => {
    const err = state.errors?.[name]?.join(" ");
    const props = {
      id: `${p}-${name}`,
      name,
      defaultValue: v[name] ?? "",
      "aria-invalid": Boolean(err),
      "aria-describedby": `${p}-${name}-error${opts.help ? ` ${p}-${name}-help` : ""}`,
      placeholder: opts.placeholder,
    };
    return (
      <div className={`field${opts.wide ? " wide" : ""}${opts.span2 ? " span2" : ""}`} key={`${name}-${state.values ? "s" : "i"}`}>
        <label htmlFor={props.id}>{label}</label>
        {opts.textarea ? <textarea rows={compact ? 2 : 4} {...props} /> : <input type={opts.type ?? "text"} step={opts.step} {...props} />}
        {opts.help && (
          <div id={`${p}-${name}-help`} className="help">
            {opts.help}
          </div>
        )}
        <div id={`${p}-${name}-error`} className="field-error" aria-live="polite">
          {err}
        </div>
      </div>
    );
  };
  /**
   * A write-only secret: the stored value is never sent to the browser (the page only knows
   * whether one is set, `<name>Set`); an empty field keeps it, the checkbox removes it.
   */
  const secret = (name: string, label: string, placeholder: string, help: string) => {
    const err = state.errors?.[name]?.join(" ");
    const isSet = v[`${name}Set`] === "1";
    const typedBefore = Boolean(state.values?.[name]) && Boolean(state.errors);
    const id = `${p}-${name}`;
    return (
      <div className="field span2" key={`${name}-${state.values ? "s" : "i"}`}>
        <label htmlFor={id}>{label}</label>
        <input type="hidden" name={`${name}Set`} value={isSet ? "1" : ""} />
        <input
          id={id}
          name={name}
          type="password"
          // new-password: browsers must not fill in the admin's saved sign-in password here.
          autoComplete="new-password"
          defaultValue=""
          placeholder={isSet ? "secret set — leave empty to keep it" : placeholder}
          aria-invalid={Boolean(err)}
          aria-describedby={`${id}-error ${id}-help`}
        />
        {isSet && (
          <div className="field-inline">
            <input id={`${id}-clear`} type="checkbox" name={`${name}Clear`} defaultChecked={v[`${name}Clear`] === "on"} />
            <label htmlFor={`${id}-clear`} style={{ margin: 0, fontWeight: 400 }}>
              Remove the stored secret
            </label>
          </div>
        )}
        <div id={`${id}-help`} className="help">
          {help}
          {typedBefore && " Type the secret again: secret fields are never refilled."}
        </div>
        <div id={`${id}-error`} className="field-error" aria-live="polite">
          {err}
        </div>
      </div>
    );
  };
  return (
    <form action={formAction} noValidate aria-label={id ? "Topic settings" : "New topic"}>
      {id && <input type="hidden" name="id" value={id} />}
      <div className="form-grid cols4">
        {field("name", "Name", { placeholder: "考试" })}
        {field("description", "Description", { placeholder: "What this topic watches", span2: true })}
        <div className="field">
          <label htmlFor={`${p}-enabled`}>Status</label>
          <div className="field-inline">
            <input id={`${p}-enabled`} type="checkbox" name="enabled" defaultChecked={(v.enabled ?? "on") === "on"} key={`en-${state.values ? "s" : "i"}`} />
            <label htmlFor={`${p}-enabled`} style={{ margin: 0, fontWeight: 400 }}>
              Enabled (classify new posts)
            </label>
          </div>
        </div>
        {field("keywords", "Keywords", { textarea: true, help: "Flag posts containing them while no model is trained; shown highlighted.", placeholder: "考试\n作弊" })}
        {field("sensitiveWords", "Sensitive words", { textarea: true, help: "Any hit flags the post, whatever the score.", placeholder: "作弊\n替考" })}
        {!compact && field("userDict", "User dictionary words", { textarea: true, help: "Added to the word segmenter so these stay one word.", placeholder: "四六级\n校园贷" })}
        {!compact && field("relevantLabels", "On-topic labels", { textarea: true, help: "Sample labels that count as on-topic (default on-topic).", placeholder: "on-topic" })}
        {!compact && field("nbThreshold", "Classifier threshold", { type: "number", step: "0.05", help: "Flag when P(on-topic) ≥ this (0–1)." })}
        {!compact && field("cosineThreshold", "Relevance threshold", { type: "number", step: "0.05", help: "Flag when TF-IDF cosine ≥ this (0–1)." })}
        {!compact && (
          <h3 className="wide" style={{ marginBottom: 0 }}>
            Notifications
          </h3>
        )}
        {!compact && field("webhookUrl", "Webhook URL", { type: "url", span2: true, help: "New flags are POSTed as JSON after each crawl run.", placeholder: "https://hooks.example.edu.cn/…" })}
        {!compact && secret("webhookSecret", "Webhook signing secret", "a long random string", "Signs each POST: X-CampusWatch-Signature: sha256=HMAC-SHA256(secret, timestamp + \".\" + body).")}
        {!compact &&
          field("dingtalkWebhook", "钉钉 DingTalk robot webhook", {
            type: "url",
            span2: true,
            help: "In the DingTalk group: 群设置 → 机器人 → 添加机器人 → 自定义; copy its Webhook.",
            placeholder: "https://oapi.dingtalk.com/robot/send?access_token=…",
          })}
        {!compact && secret("dingtalkSecret", "DingTalk 加签 secret", "SEC…", "The robot's security setting 加签 (starts with SEC).")}
        {!compact &&
          field("feishuWebhook", "飞书 Feishu bot webhook", {
            type: "url",
            span2: true,
            help: "In the Feishu group: 设置 → 群机器人 → 添加机器人 → 自定义机器人; copy its webhook address (Lark: open.larksuite.com).",
            placeholder: "https://open.feishu.cn/open-apis/bot/v2/hook/…",
          })}
        {!compact && secret("feishuSecret", "Feishu 签名校验 secret", "the bot's signing secret", "The bot's security setting 签名校验.")}
        {!compact &&
          field("wecomWebhook", "企业微信 WeCom robot webhook", {
            // Not type="url": the key may be pasted alone.
            span2: true,
            help: "In the WeCom group chat: ··· → 添加群机器人 → 新创建一个机器人; copy its Webhook address (or just the key).",
            placeholder: "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…",
          })}
        {!compact && field("notifyEmail", "Notification e-mail", { type: "email", span2: true, help: "Needs SMTP settings on the server.", placeholder: "it-office@example.edu.cn" })}
      </div>
      {state.message && (
        <div className="form-error" role="alert">
          {state.message}
        </div>
      )}
      <div className="button-row">
        <button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
