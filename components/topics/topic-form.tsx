"use client";

import { useActionState, useState } from "react";
import { CLASSIFIER_KINDS, DEFAULT_CLASSIFIER, isClassifierKind } from "@/lib/classifiers";
import { useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "../form";
import { TopicAlertFields } from "./topic-alert-fields";

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
  const t = useTranslations("topics.form");
  const v = state.values ?? initial;
  const p = id ? `t${id}` : "new";
  const field = (
    name: string,
    label: string,
    opts: { textarea?: boolean; help?: string; type?: string; wide?: boolean; span2?: boolean; placeholder?: string; step?: string } = {},
  ) => {
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
   * A write-only field: a secret, or a robot or webhook URL (its token is in it). The stored value
   * is never sent to the browser: the page knows whether one is stored (`<name>Set`) and, for a
   * URL, its masked form (`<name>Shown`, origin + "…"); an empty field keeps it, a typed value
   * replaces it, and the checkbox removes it (a URL's removal removes the channel and its secret).
   * A value typed before a refused save is not sent back: the help asks for it again.
   */
  const writeOnly = (kind: "secret" | "url", name: string, label: string, opts: { type?: string; placeholder: string; help: string }) => {
    const err = state.errors?.[name]?.join(" ");
    // The stored state comes from the page, not from a refused submission's values.
    const isSet = initial[`${name}Set`] === "1";
    const typedBefore = Boolean(state.errors) && (kind === "url" ? state.values?.[`${name}Typed`] === "1" : Boolean(state.values?.[name]));
    const id = `${p}-${name}`;
    return (
      <div className="field span2" key={`${name}-${state.values ? "s" : "i"}`}>
        <label htmlFor={id}>{label}</label>
        <input type="hidden" name={`${name}Set`} value={isSet ? "1" : ""} />
        <input
          id={id}
          name={name}
          type={kind === "secret" ? "password" : (opts.type ?? "text")}
          // new-password: browsers must not fill in the admin's saved sign-in password here.
          autoComplete={kind === "secret" ? "new-password" : "off"}
          defaultValue=""
          placeholder={isSet ? (kind === "secret" ? t("secretSet") : t("urlSet", { shown: initial[`${name}Shown`] ?? "" })) : opts.placeholder}
          aria-invalid={Boolean(err)}
          aria-describedby={`${id}-error ${id}-help`}
        />
        {isSet && (
          <div className="field-inline">
            <input id={`${id}-clear`} type="checkbox" name={`${name}Clear`} defaultChecked={state.values?.[`${name}Clear`] === "on"} />
            <label htmlFor={`${id}-clear`} style={{ margin: 0, fontWeight: 400 }}>
              {kind === "secret" ? t("removeSecret") : t("removeUrl")}
            </label>
          </div>
        )}
        <div id={`${id}-help`} className="help">
          {opts.help}
          {typedBefore && (kind === "secret" ? t("typeAgain") : t("typeUrlAgain"))}
        </div>
        <div id={`${id}-error`} className="field-error" aria-live="polite">
          {err}
        </div>
      </div>
    );
  };
  const secret = (name: string, label: string, placeholder: string, help: string) => writeOnly("secret", name, label, { placeholder, help });
  const urlField = (name: string, label: string, opts: { type?: string; help: string; placeholder: string }) => writeOnly("url", name, label, opts);
  return (
    <form action={formAction} noValidate aria-label={id ? t("settingsLabel") : t("newLabel")}>
      {id && <input type="hidden" name="id" value={id} />}
      <div className="form-grid cols4">
        {field("name", t("name"), { placeholder: t("namePlaceholder") })}
        {field("description", t("description"), { placeholder: t("descriptionPlaceholder"), span2: true })}
        <div className="field">
          <label htmlFor={`${p}-enabled`}>{t("status")}</label>
          <div className="field-inline">
            <input id={`${p}-enabled`} type="checkbox" name="enabled" defaultChecked={(v.enabled ?? "on") === "on"} key={`en-${state.values ? "s" : "i"}`} />
            <label htmlFor={`${p}-enabled`} style={{ margin: 0, fontWeight: 400 }}>
              {t("enabled")}
            </label>
          </div>
        </div>
        {field("keywords", t("keywords"), { textarea: true, help: t("keywordsHelp"), placeholder: t("keywordsPlaceholder") })}
        {field("sensitiveWords", t("sensitiveWords"), { textarea: true, help: t("sensitiveWordsHelp"), placeholder: t("sensitiveWordsPlaceholder") })}
        {!compact && field("userDict", t("userDict"), { textarea: true, help: t("userDictHelp"), placeholder: t("userDictPlaceholder") })}
        {!compact &&
          field("relevantLabels", t("relevantLabels"), { textarea: true, help: t("relevantLabelsHelp"), placeholder: t("relevantLabelsPlaceholder") })}
        {!compact && field("nbThreshold", t("nbThreshold"), { type: "number", step: "0.05", help: t("nbThresholdHelp") })}
        {!compact && field("cosineThreshold", t("cosineThreshold"), { type: "number", step: "0.05", help: t("cosineThresholdHelp") })}
        {!compact && (
          <ClassifierField
            key={`classifier-${state.values ? "s" : "i"}`}
            id={`${p}-classifier`}
            initial={v.classifier || DEFAULT_CLASSIFIER}
            saved={initial.classifier || DEFAULT_CLASSIFIER}
            trained={initial.trained === "1"}
            error={state.errors?.classifier?.join(" ")}
          />
        )}
        {!compact && (
          <div className="field" key={`calibrate-${state.values ? "s" : "i"}`}>
            <label htmlFor={`${p}-calibrate`}>{t("calibrate")}</label>
            <div className="field-inline">
              {/* Sent when the box is unchecked (a checked box's "on" comes after it and wins): absent would mean on. */}
              <input type="hidden" name="calibrate" value="off" />
              <input
                id={`${p}-calibrate`}
                type="checkbox"
                name="calibrate"
                defaultChecked={(v.calibrate ?? "on") === "on"}
                aria-describedby={`${p}-calibrate-help`}
              />
              <label htmlFor={`${p}-calibrate`} style={{ margin: 0, fontWeight: 400 }}>
                {t("calibrateOn")}
              </label>
            </div>
            <div id={`${p}-calibrate-help`} className="help">
              {t("calibrateHelp")}
            </div>
          </div>
        )}
        {!compact &&
          field("targetPrecision", t("targetPrecision"), {
            type: "number",
            step: "0.01",
            help: t("targetPrecisionHelp"),
            placeholder: t("targetPrecisionPlaceholder"),
          })}
        {!compact && (
          <h3 className="wide" style={{ marginBottom: 0 }}>
            {t("notifications")}
          </h3>
        )}
        {!compact && urlField("webhookUrl", t("webhookUrl"), { type: "url", help: t("webhookUrlHelp"), placeholder: t("webhookUrlPlaceholder") })}
        {!compact && secret("webhookSecret", t("webhookSecret"), t("webhookSecretPlaceholder"), t("webhookSecretHelp"))}
        {!compact &&
          urlField("dingtalkWebhook", t("dingtalkWebhook"), {
            type: "url",
            help: t("dingtalkWebhookHelp"),
            placeholder: t("dingtalkWebhookPlaceholder"),
          })}
        {!compact && secret("dingtalkSecret", t("dingtalkSecret"), t("dingtalkSecretPlaceholder"), t("dingtalkSecretHelp"))}
        {!compact &&
          urlField("feishuWebhook", t("feishuWebhook"), {
            type: "url",
            help: t("feishuWebhookHelp"),
            placeholder: t("feishuWebhookPlaceholder"),
          })}
        {!compact && secret("feishuSecret", t("feishuSecret"), t("feishuSecretPlaceholder"), t("feishuSecretHelp"))}
        {!compact &&
          urlField("wecomWebhook", t("wecomWebhook"), {
            // Not type="url": the key may be pasted alone.
            help: t("wecomWebhookHelp"),
            placeholder: t("wecomWebhookPlaceholder"),
          })}
        {!compact &&
          field("notifyEmail", t("notifyEmail"), { type: "email", span2: true, help: t("notifyEmailHelp"), placeholder: t("notifyEmailPlaceholder") })}
        {!compact && <TopicAlertFields p={p} v={v} errors={state.errors} suffix={state.values ? "s" : "i"} />}
      </div>
      <FormStatus message={state.message} />
      <div className="button-row">
        <SubmitButton pending={pending} pendingLabel={t("saving")}>
          {submitLabel}
        </SubmitButton>
      </div>
    </form>
  );
}

/**
 * The classifier select, with the chosen kind's one-line hint. On a trained topic, choosing
 * another kind than the saved one says that it takes effect at the next training: the stored model
 * keeps its own kind and goes on scoring until then.
 */
function ClassifierField({ id, initial, saved, trained, error }: { id: string; initial: string; saved: string; trained: boolean; error?: string }) {
  const t = useTranslations("topics.form");
  const [kind, setKind] = useState(isClassifierKind(initial) ? initial : DEFAULT_CLASSIFIER);
  return (
    <div className="field span2">
      <label htmlFor={id}>{t("classifier")}</label>
      <select
        id={id}
        name="classifier"
        value={kind}
        onChange={(e) => setKind(isClassifierKind(e.target.value) ? e.target.value : DEFAULT_CLASSIFIER)}
        aria-invalid={Boolean(error)}
        aria-describedby={`${id}-help ${id}-error`}
      >
        {CLASSIFIER_KINDS.map((k) => (
          <option key={k} value={k}>
            {t(`classifiers.${k}.label`)}
          </option>
        ))}
      </select>
      <div id={`${id}-help`} className="help" aria-live="polite">
        {t(`classifiers.${kind}.hint`)}
        {trained && kind !== saved && ` ${t("classifierRetrain")}`}
      </div>
      <div id={`${id}-error`} className="field-error" aria-live="polite">
        {error}
      </div>
    </div>
  );
}
