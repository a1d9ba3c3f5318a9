/**
 * The jobs a scheduler or a worker asks for on its own, besides the daily training (./daily.ts):
 * classifying what killed runs left unclassified, when it starts, and applying the raw archive's
 * retention, at start and then hourly. Each is an ordinary job with a row, so it shows in `jobs
 * list`, runs once however many processes ask (its key), and a failure is written on its row.
 */
import type { Db } from "../../lib/db";
import { requestJob, type RequestResult } from "./requests";

/**
 * Ask for the classification of posts queued before `now` that no run classified (a killed or
 * failed run's). Posts crawls queue later are classified by those crawls.
 */
export function requestCatchUp(db: Db, now = new Date()): Promise<RequestResult> {
  return requestJob(db, { kind: "catchUp", queuedBefore: now.toISOString() });
}

/**
 * Ask for the raw archive's retention to be applied. The archive is a folder of the machine
 * crawling, so only a scheduler whose crawls run in its own process (SQLite) asks for it, and its
 * own queue runs it.
 */
export function requestArchivePrune(db: Db): Promise<RequestResult> {
  return requestJob(db, { kind: "pruneArchive" });
}

/**
 * Ask for the periodic incident check (heat decay, alerts and updates due, held messages whose
 * quiet hours ended: crawler/incidents/alerts.ts). Asked for by the scheduler every few minutes.
 */
export function requestIncidentCheck(db: Db): Promise<RequestResult> {
  return requestJob(db, { kind: "incidents" });
}
