/**
 * The dashboard's side of the jobs layer (crawler/jobs/): asking for training, re-scoring,
 * discovery and notifications, and reading their progress from the Job rows. Asking answers at
 * once; the scheduler's process (or a PostgreSQL worker) does the work.
 */
import type { Db } from "../lib/db";
import { markNotificationPending } from "../lib/notify";
import { latestJob, requestJob, type JobView, type RequestResult } from "@/crawler/jobs";

/** A topic's training or re-scoring job as the topic page shows it. */
export interface TopicJob {
  id: number;
  topicId: number;
  kind: "train" | "rescore" | "learn";
  /** "queued" until a worker claims it. */
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  /** English (the CLI's words); the dashboard says `step` with `values` when it knows the step. */
  message: string;
  /** A key of the `topics.job.steps` messages (or of `topics.job.errors` when failed). */
  step?: string;
  values?: Record<string, string | number>;
  done?: number;
  total?: number;
  attempts: number;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  error?: string;
}

/** The topic's newest training, re-scoring or learning job (in any state), or null when none was asked for. */
export async function latestTopicJob(db: Db, topicId: number): Promise<TopicJob | null> {
  const job = await latestJob(db, `topic:${topicId}`, ["train", "rescore", "learn"]);
  return job ? toTopicJob(job, topicId) : null;
}

/**
 * Ask for training or re-scoring of a topic. When one of the topic's jobs is already queued or
 * running, that one is returned (`created: false`) and nothing is added.
 */
export async function requestTopicJob(
  db: Db,
  topicId: number,
  kind: "train" | "rescore",
  requestedBy: number | null,
): Promise<{ job: TopicJob; created: boolean }> {
  const r: RequestResult = await requestJob(db, { kind, topicId }, { requestedBy });
  return { job: toTopicJob(r.job, topicId), created: r.created };
}

/**
 * Send a failed notification again: mark it "pending" and ask for a notify job. False when the
 * notification does not exist or was sent meanwhile (nothing asked).
 */
export async function requestNotificationSend(db: Db, notificationId: number, requestedBy: number | null): Promise<boolean> {
  if (!(await markNotificationPending(db, notificationId))) return false;
  await requestJob(db, { kind: "notify", notificationIds: [notificationId] }, { requestedBy });
  return true;
}

function toTopicJob(j: JobView, topicId: number): TopicJob {
  const kind = j.kind === "rescore" || j.kind === "learn" ? j.kind : "train";
  const base = {
    id: j.id,
    topicId,
    kind,
    state: j.status,
    attempts: j.attempts,
    createdAt: j.createdAt.toISOString(),
    startedAt: j.startedAt?.toISOString(),
    finishedAt: j.finishedAt?.toISOString(),
  } as const;
  if (j.status === "queued") return { ...base, message: "waiting for the scheduler to start it", step: "queued" };
  if (j.status === "running") {
    const p = j.progress;
    return p
      ? { ...base, message: p.message, step: p.step, values: p.values, done: p.done, total: p.total }
      : {
          ...base,
          message: kind === "train" ? "starting training" : kind === "learn" ? "starting to learn from reviews" : "starting to re-score",
          step: "starting",
        };
  }
  const r = j.result;
  const error = j.status === "failed" || j.status === "cancelled" ? (j.error ?? r?.message ?? "") : undefined;
  return { ...base, message: r?.message ?? error ?? "", step: r?.step, values: r?.values, error };
}
