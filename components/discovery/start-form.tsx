"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { startDiscoveryAction } from "@/app/(dashboard)/discovery/actions";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { FormStatus, SubmitButton } from "../form";

interface Option {
  id: number;
  name: string;
  /** Shown after the name ("trained", "12 URLs"). */
  note?: string;
}

const STRATEGIES = [
  { value: "focused", label: "focused" },
  { value: "best-first", label: "bestFirst" },
  { value: "bfs", label: "bfs" },
] as const;

function Field({ name, label, state, help, children }: { name: string; label: string; state: FormState; help?: string; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={`d-${name}`}>{label}</label>
      {children}
      {help && <div className="help">{help}</div>}
      <div id={`d-${name}-error`} className="field-error" aria-live="polite">
        {state.errors?.[name]?.join(" ")}
      </div>
    </div>
  );
}

/** Start a discovery run: topic, seed set, strategy, max pages, politeness. */
export function StartDiscoveryForm({ topics, seedSets }: { topics: Option[]; seedSets: Option[] }) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(startDiscoveryAction, {});
  const t = useTranslations("discovery.form");
  const v = state.values;
  const err = (name: string) => ({ "aria-invalid": Boolean(state.errors?.[name]), "aria-describedby": `d-${name}-error` });
  return (
    <form action={formAction} aria-label={t("aria")}>
      <div className="form-grid">
        <Field name="topicId" label={t("topic")} state={state} help={t("topicHelp")}>
          <select id="d-topicId" name="topicId" defaultValue={v?.topicId ?? ""} {...err("topicId")} required>
            <option value="">{t("choose")}</option>
            {topics.map((o) => (
              <option key={o.id} value={o.id}>
                {o.note ? t("option", { name: o.name, note: o.note }) : o.name}
              </option>
            ))}
          </select>
        </Field>
        <Field name="seedSetId" label={t("seedSet")} state={state}>
          <select id="d-seedSetId" name="seedSetId" defaultValue={v?.seedSetId ?? ""} {...err("seedSetId")} required>
            <option value="">{t("choose")}</option>
            {seedSets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.note ? t("option", { name: s.name, note: s.note }) : s.name}
              </option>
            ))}
          </select>
        </Field>
        <Field name="strategy" label={t("strategy")} state={state}>
          <select id="d-strategy" name="strategy" defaultValue={v?.strategy ?? "focused"} {...err("strategy")}>
            {STRATEGIES.map((s) => (
              <option key={s.value} value={s.value}>
                {t(s.label)}
              </option>
            ))}
          </select>
        </Field>
        <Field name="maxPages" label={t("maxPages")} state={state}>
          <input id="d-maxPages" name="maxPages" type="number" min={1} step={1} defaultValue={v?.maxPages ?? "1000"} {...err("maxPages")} required />
        </Field>
        <Field name="hostDelayMs" label={t("hostDelay")} state={state} help={t("hostDelayHelp")}>
          <input
            id="d-hostDelayMs"
            name="hostDelayMs"
            type="number"
            min={0}
            step={100}
            defaultValue={v?.hostDelayMs ?? "1000"}
            {...err("hostDelayMs")}
            required
          />
        </Field>
        <Field name="sameSite" label={t("scope")} state={state}>
          <label className="field-inline">
            <input id="d-sameSite" name="sameSite" type="checkbox" defaultChecked={v?.sameSite === "on"} /> {t("sameSite")}
          </label>
        </Field>
      </div>
      <div className="button-row">
        <SubmitButton pending={pending} pendingLabel={t("starting")}>
          {t("submit")}
        </SubmitButton>
      </div>
      <FormStatus message={state.message} />
    </form>
  );
}
