/**
 * One alert per incident (issue 32 item 3). A topic's rules (Topic.alertOnFlag, alertMinPosts,
 * alertOnSpread, alertOnBurst) say when one of its open incidents is worth a message: it has a
 * flagged post, it has crossed N posts, it has spread to a second platform, or it is bursting.
 *
 * - The first rule met sends the incident's **alert** (once: `Incident.alertedAt`).
 * - After it, at most one **update** per incident per `Topic.alertUpdateMinutes`, and only when
 *   something a reader cares about changed since the last message (`Incident.alertState` keeps
 *   the figures it reported): a new platform ("已扩散至 3 个平台，共 35 条"), new flagged posts, a
 *   burst that began, or growth by at least {@link MIN_GROWTH} posts and a fifth of its size.
 * - Claims are conditional writes (alertedAt still null, lastUpdateAt still what was read), so two
 *   processes evaluating the same incident send one message.
 *
 * When: at the end of every crawl run, for the incidents the run updated (`updatedAt` within it),
 * so the alert goes out with the run that stored the post crossing a rule (queued as the run's
 * pending Notification rows, sent by its notifyRun job); and in the periodic `incidents` job, which
 * also sends an update held back by the period when no run comes after it.
 *
 * With Topic.notifyMode "flags" a topic keeps the per-run flag batches of lib/notify and gets no
 * incident alerts; with "incidents" (the default, to avoid storms) the run batches list only flags
 * outside open incidents; "both" sends both. Quiet hours per channel and the urgent override are
 * applied when a message is delivered (lib/notify/quiet.ts).
 */
import type { Db } from "../../lib/db";
import { anyJson, jsonArray, parseJsonColumn } from "../../lib/json-column";
import { queueTopicMessage, type IncidentAlertPayload, type IncidentAlertReason } from "../../lib/notify";
import { incidentRate, recomputeHeat } from "./heat";
import type { BurstOptions } from "./bursts";

/** Growth smaller than this many posts is never worth an update on its own. */
export const MIN_GROWTH = 5;

/** The figures a message reported: what the next update compares against (Incident.alertState). */
export interface AlertState {
  size: number;
  platformCount: number;
  flaggedCount: number;
  bursting: boolean;
}

/** Options of {@link evaluateIncidentAlerts}. */
export interface AlertOptions {
  /** The clock the rules and the period are judged by. */
  now: Date;
  /** Only incidents updated since then (a run's start); absent: every open incident with a post in the last two days. */
  updatedSince?: Date;
  /** The run the messages belong to (sent by its notifyRun job); null: the periodic check. */
  crawlRunId?: number | null;
  /** The dashboard's public URL for the link. @default CAMPUSWATCH_PUBLIC_URL */
  baseUrl?: string;
  burst?: Partial<BurstOptions>;
}

/** What an evaluation did. */
export interface AlertResult {
  alerts: number;
  updates: number;
  /** Notification rows queued (one per channel of each message). */
  messages: number;
}

const TOPIC_RULES = {
  id: true,
  name: true,
  notifyMode: true,
  urgent: true,
  notifyLocale: true,
  alertOnFlag: true,
  alertOnSpread: true,
  alertOnBurst: true,
  alertMinPosts: true,
  alertUpdateMinutes: true,
  webhookUrl: true,
  notifyEmail: true,
  dingtalkWebhook: true,
  wecomWebhook: true,
  feishuWebhook: true,
} as const;

const INCIDENT = {
  id: true,
  status: true,
  title: true,
  keywords: true,
  topicId: true,
  firstSeenAt: true,
  lastSeenAt: true,
  size: true,
  authorCount: true,
  platforms: true,
  platformCount: true,
  replyCount: true,
  flaggedCount: true,
  negativeCount: true,
  heat: true,
  bursting: true,
  alertedAt: true,
  lastUpdateAt: true,
  alertState: true,
  updatedAt: true,
} as const;

const strings = (json: string): string[] => parseJsonColumn(json, jsonArray, []).filter((x): x is string => typeof x === "string");

/** A stored alert state, or null when absent or unreadable. */
function stateOf(json: string | null): AlertState | null {
  const v = parseJsonColumn(json, anyJson, null) as Partial<AlertState> | null;
  if (!v || typeof v !== "object" || typeof v.size !== "number") return null;
  return { size: v.size, platformCount: Number(v.platformCount) || 0, flaggedCount: Number(v.flaggedCount) || 0, bursting: v.bursting === true };
}

/**
 * Evaluate the rules for the incidents in scope and queue the alerts and updates that are due
 * (see the module comment). Never sends by itself: the rows wait for the run's notifyRun job or
 * the periodic job. Returns what it queued.
 */
export async function evaluateIncidentAlerts(db: Db, opts: AlertOptions): Promise<AlertResult> {
  const { now } = opts;
  const result: AlertResult = { alerts: 0, updates: 0, messages: 0 };
  const topics = await db.topic.findMany({ where: { enabled: true, notifyMode: { in: ["incidents", "both"] } }, select: TOPIC_RULES });
  const withChannels = topics.filter((t) => t.webhookUrl || t.notifyEmail || t.dingtalkWebhook || t.wecomWebhook || t.feishuWebhook);
  if (withChannels.length === 0) return result;
  const byId = new Map(withChannels.map((t) => [t.id, t]));
  const incidents = await db.incident.findMany({
    where: {
      status: "open",
      topicId: { in: [...byId.keys()] },
      ...(opts.updatedSince ? { updatedAt: { gte: opts.updatedSince } } : { lastSeenAt: { gte: new Date(now.getTime() - 2 * 86_400_000) } }),
    },
    select: INCIDENT,
    orderBy: { id: "asc" },
  });
  const baseUrl = (opts.baseUrl ?? process.env.CAMPUSWATCH_PUBLIC_URL ?? "").replace(/\/$/, "") || null;
  for (const inc of incidents) {
    const topic = byId.get(inc.topicId!)!;
    const state: AlertState = { size: inc.size, platformCount: inc.platformCount, flaggedCount: inc.flaggedCount, bursting: inc.bursting };
    const burstReason = async (): Promise<IncidentAlertReason> => {
      const r = await incidentRate(db, inc, now, opts.burst);
      return { rule: "burst", recent: r.recent, ratio: Math.round(r.ratio * 10) / 10 };
    };
    let kind: "alert" | "update";
    const reasons: IncidentAlertReason[] = [];
    if (!inc.alertedAt) {
      if (topic.alertOnFlag && inc.flaggedCount > 0) reasons.push({ rule: "flagged", flagged: inc.flaggedCount });
      if (topic.alertMinPosts != null && inc.size >= topic.alertMinPosts) reasons.push({ rule: "posts", size: inc.size, min: topic.alertMinPosts });
      if (topic.alertOnSpread && inc.platformCount >= 2) reasons.push({ rule: "spread", platformCount: inc.platformCount, size: inc.size });
      if (topic.alertOnBurst && inc.bursting) reasons.push(await burstReason());
      if (reasons.length === 0) continue;
      const claimed = await db.incident.updateMany({
        where: { id: inc.id, alertedAt: null, updatedAt: inc.updatedAt },
        data: { alertedAt: now, alertState: JSON.stringify(state), updatedAt: inc.updatedAt },
      });
      if (claimed.count === 0) continue;
      kind = "alert";
      result.alerts++;
    } else {
      const last = inc.lastUpdateAt ?? inc.alertedAt;
      if (now.getTime() - last.getTime() < Math.max(1, topic.alertUpdateMinutes) * 60_000) continue;
      const before = stateOf(inc.alertState) ?? { size: 0, platformCount: 0, flaggedCount: 0, bursting: false };
      if (inc.platformCount > before.platformCount && inc.platformCount >= 2)
        reasons.push({ rule: "spread", platformCount: inc.platformCount, size: inc.size });
      if (inc.flaggedCount > before.flaggedCount && topic.alertOnFlag) reasons.push({ rule: "flagged", flagged: inc.flaggedCount });
      if (inc.bursting && !before.bursting && topic.alertOnBurst) reasons.push(await burstReason());
      const added = inc.size - before.size;
      if (added >= Math.max(MIN_GROWTH, Math.ceil(before.size / 5)) || (reasons.length > 0 && added > 0))
        reasons.push({ rule: "growth", added, size: inc.size });
      if (reasons.length === 0) continue;
      const claimed = await db.incident.updateMany({
        where: { id: inc.id, lastUpdateAt: inc.lastUpdateAt, updatedAt: inc.updatedAt },
        data: { lastUpdateAt: now, alertState: JSON.stringify(state), updatedAt: inc.updatedAt },
      });
      if (claimed.count === 0) continue;
      kind = "update";
      result.updates++;
    }
    const payload: IncidentAlertPayload = {
      event: "campuswatch.incident",
      kind,
      locale: topic.notifyLocale === "en" ? "en" : "zh-CN",
      topic: { id: topic.id, name: topic.name, urgent: topic.urgent },
      incident: {
        id: inc.id,
        title: inc.title,
        keywords: strings(inc.keywords).slice(0, 10),
        heat: inc.heat,
        bursting: inc.bursting,
        size: inc.size,
        platforms: strings(inc.platforms),
        authorCount: inc.authorCount,
        flaggedCount: inc.flaggedCount,
        negativeCount: inc.negativeCount,
        firstSeenAt: inc.firstSeenAt.toISOString(),
        lastSeenAt: inc.lastSeenAt.toISOString(),
      },
      reasons,
      incidentUrl: baseUrl ? `${baseUrl}/incidents/${inc.id}` : null,
      crawlRunId: opts.crawlRunId ?? null,
      at: now.toISOString(),
    };
    result.messages += (await queueTopicMessage(db, topic.id, payload, { crawlRunId: opts.crawlRunId ?? null, incidentId: inc.id })).length;
  }
  return result;
}

/**
 * The end of a crawl run, for incidents: heat and bursts of the incidents the run updated, then
 * their alerts (queued as the run's notifications). `now` is the crawl's clock.
 */
export async function incidentsAfterRun(db: Db, crawlRunId: number, now: Date): Promise<AlertResult> {
  const run = await db.crawlRun.findUnique({ where: { id: crawlRunId }, select: { startedAt: true } });
  if (!run) return { alerts: 0, updates: 0, messages: 0 };
  // Incidents are never updated at all on a deployment without clustering: one cheap query says so.
  const touched = await db.incident.count({ where: { updatedAt: { gte: run.startedAt } } });
  if (touched === 0) return { alerts: 0, updates: 0, messages: 0 };
  await recomputeHeat(db, { updatedSince: run.startedAt }, now);
  return evaluateIncidentAlerts(db, { now, updatedSince: run.startedAt, crawlRunId });
}

/**
 * The periodic check (the `incidents` job): heat of every live incident (so it decays when
 * nothing happens), then alerts and updates due, queued without a run.
 */
export async function incidentsTick(db: Db, now: Date): Promise<AlertResult & { heated: number }> {
  const heated = await recomputeHeat(db, { live: true }, now);
  return { heated, ...(await evaluateIncidentAlerts(db, { now })) };
}
