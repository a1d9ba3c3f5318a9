"use client";

import { useTranslations } from "next-intl";

/** The incident alert fields of the topic form (server/topic-alerts.ts validates and stores them). */
export function TopicAlertFields({ p, v, errors, suffix }: { p: string; v: Record<string, string>; errors?: Record<string, string[]>; suffix: string }) {
  const t = useTranslations("topics.form.alerts");
  const err = (name: string) => errors?.[name]?.join(" ");
  const described = (name: string, help: boolean) => `${p}-${name}-error${help ? ` ${p}-${name}-help` : ""}`;
  const foot = (name: string, help?: string) => (
    <>
      {help && (
        <div id={`${p}-${name}-help`} className="help">
          {help}
        </div>
      )}
      <div id={`${p}-${name}-error`} className="field-error" aria-live="polite">
        {err(name)}
      </div>
    </>
  );
  const select = (name: string, options: readonly string[], dflt: string, help: string) => (
    <div className="field span2" key={`${name}-${suffix}`}>
      <label htmlFor={`${p}-${name}`}>{t(`${name}.label` as "notifyMode.label")}</label>
      <select id={`${p}-${name}`} name={name} defaultValue={v[name] || dflt} aria-invalid={Boolean(err(name))} aria-describedby={described(name, true)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {t(`${name}.${o}` as "notifyMode.incidents")}
          </option>
        ))}
      </select>
      {foot(name, help)}
    </div>
  );
  // A hidden "off" precedes the box: an unchecked box sends nothing, which would mean the default (on).
  const rule = (name: "alertOnFlag" | "alertOnSpread" | "alertOnBurst") => (
    <div className="field-inline" key={`${name}-${suffix}`}>
      <input type="hidden" name={name} value="off" />
      <input id={`${p}-${name}`} type="checkbox" name={name} defaultChecked={(v[name] ?? "on") === "on"} />
      <label htmlFor={`${p}-${name}`} style={{ margin: 0, fontWeight: 400 }}>
        {t(name)}
      </label>
    </div>
  );
  const input = (name: string, label: string, opts: { type?: string; help?: string; placeholder?: string } = {}) => (
    <div className="field" key={`${name}-${suffix}`}>
      <label htmlFor={`${p}-${name}`}>{label}</label>
      <input
        id={`${p}-${name}`}
        name={name}
        type={opts.type ?? "text"}
        defaultValue={v[name] ?? ""}
        placeholder={opts.placeholder}
        aria-invalid={Boolean(err(name))}
        aria-describedby={described(name, Boolean(opts.help))}
      />
      {foot(name, opts.help)}
    </div>
  );
  return (
    <>
      <h3 className="wide" style={{ marginBottom: 0 }}>
        {t("heading")}
      </h3>
      {select("notifyMode", ["incidents", "flags", "both"], "incidents", t("notifyMode.help"))}
      {select("notifyLocale", ["zh-CN", "en"], "zh-CN", t("notifyLocale.help"))}
      <fieldset className="field span2" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend>{t("rules")}</legend>
        {rule("alertOnFlag")}
        {rule("alertOnSpread")}
        {rule("alertOnBurst")}
      </fieldset>
      {input("alertMinPosts", t("alertMinPosts"), { type: "number", help: t("alertMinPostsHelp") })}
      {input("alertUpdateMinutes", t("alertUpdateMinutes"), { type: "number", help: t("alertUpdateMinutesHelp") })}
      <div className="field span2" key={`urgent-${suffix}`}>
        <label htmlFor={`${p}-urgent`}>{t("urgentLabel")}</label>
        <div className="field-inline">
          <input id={`${p}-urgent`} type="checkbox" name="urgent" defaultChecked={v.urgent === "on"} aria-describedby={`${p}-urgent-help`} />
          <label htmlFor={`${p}-urgent`} style={{ margin: 0, fontWeight: 400 }}>
            {t("urgent")}
          </label>
        </div>
        <div id={`${p}-urgent-help`} className="help">
          {t("urgentHelp")}
        </div>
      </div>
      {(["dingtalkQuiet", "wecomQuiet", "feishuQuiet", "webhookQuiet", "emailQuiet"] as const).map((q) =>
        input(q, t(q), { placeholder: "22:00-07:30", help: q === "dingtalkQuiet" ? t("quietHelp") : undefined }),
      )}
    </>
  );
}
