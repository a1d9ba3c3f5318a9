"use client";

import { useActionState } from "react";
import { startDiscoveryAction } from "@/app/(dashboard)/discovery/actions";
import type { FormState } from "@/app/(dashboard)/_lib/form";

interface Option {
  id: number;
  name: string;
  /** Shown after the name ("trained", "12 URLs"). */
  note?: string;
}

const STRATEGIES = [
  { value: "focused", label: "focused — page types, link blocks, weighted relevance, 255/L budget" },
  { value: "best-first", label: "best-first — a link inherits its page's relevance (baseline)" },
  { value: "bfs", label: "bfs — breadth-first in discovery order (baseline)" },
];

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
  const v = state.values;
  const err = (name: string) => ({ "aria-invalid": Boolean(state.errors?.[name]), "aria-describedby": `d-${name}-error` });
  return (
    <form action={formAction} aria-label="Start a discovery run">
      <div className="form-grid">
        <Field name="topicId" label="Topic" state={state} help="Its trained model judges pages; an untrained topic uses its keywords.">
          <select id="d-topicId" name="topicId" defaultValue={v?.topicId ?? ""} {...err("topicId")} required>
            <option value="">Choose…</option>
            {topics.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
                {t.note ? ` (${t.note})` : ""}
              </option>
            ))}
          </select>
        </Field>
        <Field name="seedSetId" label="Seed set" state={state}>
          <select id="d-seedSetId" name="seedSetId" defaultValue={v?.seedSetId ?? ""} {...err("seedSetId")} required>
            <option value="">Choose…</option>
            {seedSets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
                {s.note ? ` (${s.note})` : ""}
              </option>
            ))}
          </select>
        </Field>
        <Field name="strategy" label="Strategy" state={state}>
          <select id="d-strategy" name="strategy" defaultValue={v?.strategy ?? "focused"} {...err("strategy")}>
            {STRATEGIES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </Field>
        <Field name="maxPages" label="Max pages" state={state}>
          <input id="d-maxPages" name="maxPages" type="number" min={1} step={1} defaultValue={v?.maxPages ?? "1000"} {...err("maxPages")} required />
        </Field>
        <Field name="hostDelayMs" label="Host delay (ms)" state={state} help="Minimum gap between two requests to one host; robots.txt Crawl-delay wins when larger.">
          <input id="d-hostDelayMs" name="hostDelayMs" type="number" min={0} step={100} defaultValue={v?.hostDelayMs ?? "1000"} {...err("hostDelayMs")} required />
        </Field>
        <Field name="sameSite" label="Scope" state={state}>
          <label className="field-inline">
            <input id="d-sameSite" name="sameSite" type="checkbox" defaultChecked={v?.sameSite === "on"} /> only the seeds&apos; sites
          </label>
        </Field>
      </div>
      <div className="button-row">
        <button type="submit" disabled={pending}>
          {pending ? "Starting…" : "Start discovery"}
        </button>
      </div>
      {state.message && (
        <div className="form-error" role="alert">
          {state.message}
        </div>
      )}
    </form>
  );
}
