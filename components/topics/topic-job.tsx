"use client";

import { useRouter } from "next/navigation";
import { useActionState, useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import type { FormState } from "@/app/(dashboard)/_lib/form";
import { topicJobAction } from "@/app/(dashboard)/topics/actions";
import type { TopicJob } from "@/server/jobs";

/** Train and re-score buttons with the running job's progress, polled while it runs. */
export function TopicJobPanel({ topicId, canManage, initialJob }: { topicId: number; canManage: boolean; initialJob: TopicJob | null }) {
  const router = useRouter();
  const t = useTranslations("topics.job");
  const [state, formAction, pending] = useActionState<FormState, FormData>(topicJobAction, {});
  const [job, setJob] = useState<TopicJob | null>(initialJob);
  // Queued counts as running: the scheduler's process picks the job up within a second or so.
  const running = job?.state === "running" || job?.state === "queued";

  useEffect(() => {
    if (!running && !state.ok) return;
    let stop = false;
    let wasRunning = running;
    const tick = async () => {
      const r = await fetch(`/api/topics/${topicId}/job`, { cache: "no-store" }).catch(() => null);
      if (!r?.ok || stop) return;
      const j = (await r.json()) as { job: TopicJob | null };
      setJob(j.job);
      const nowRunning = j.job?.state === "running" || j.job?.state === "queued";
      if (wasRunning && !nowRunning) {
        stop = true;
        router.refresh();
      }
      wasRunning = nowRunning;
    };
    void tick();
    const timer = setInterval(() => {
      if (!stop) void tick();
    }, 1000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [running, state.ok, topicId, router]);

  const pct = job?.total ? Math.round(((job.done ?? 0) / job.total) * 100) : null;
  // The job's step in the reader's language; a failure the trainer has no code for (a crash) keeps
  // its own words after a translated "failed:".
  const says = (j: TopicJob): string => {
    const key = j.step ? (j.state === "failed" ? `errors.${j.step}` : `steps.${j.step}`) : null;
    if (key && t.has(key as "steps.starting")) return t(key as "steps.starting", { ...j.values, kind: j.kind });
    return j.state === "failed" || j.state === "cancelled" ? t("failedWith", { error: j.error ?? j.message }) : j.message;
  };
  return (
    <div data-testid="topic-job">
      {canManage && (
        <form action={formAction} className="button-row">
          <input type="hidden" name="id" value={topicId} />
          <button type="submit" name="kind" value="train" disabled={pending || running}>
            {t("train")}
          </button>
          <button type="submit" name="kind" value="rescore" className="secondary" disabled={pending || running}>
            {t("rescore")}
          </button>
        </form>
      )}
      {state.message && !state.ok && (
        <div className="form-error" role="alert">
          {state.message}
        </div>
      )}
      {job && (
        <div className={`job job-${job.state}`} aria-live="polite">
          <div className="small">
            <b>{job.kind === "train" ? t("training") : job.kind === "learn" ? t("learning") : t("rescoring")}</b> · {t("state", { state: job.state })} ·{" "}
            {says(job)}
          </div>
          {running && (
            <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct ?? undefined}>
              <span style={{ width: `${pct ?? 100}%`, opacity: pct === null ? 0.4 : 1 }} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}
