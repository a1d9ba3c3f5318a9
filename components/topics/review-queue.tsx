"use client";

import Link from "next/link";
import { EvidenceDownload } from "@/components/evidence/download-button";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { useFormatter, useTranslations } from "next-intl";
import { answerQueueAction } from "@/app/(dashboard)/topics/[id]/queue/actions";
import { PlatformBadge } from "../platform-badge";

/** One card of the 待复核 queue, as the page prepared it (crawled text: rendered as text only). */
export interface QueueCard {
  postId: number;
  title: string;
  excerpt: string;
  accountName: string;
  platform: string;
  /** The publication time in the reader's language, its full form, and ISO (formatted on the server). */
  when: string;
  whenTitle: string;
  whenIso: string;
  score: number;
  /** The post has an open flag of the topic: answering reviews it. */
  flagged: boolean;
}

/** How a card is named to the reader: its title, else the start of its text (replies and Weibo posts have no title). */
function cardName(c: QueueCard, fallback: string): string {
  if (c.title.trim() !== "") return c.title;
  const chars = Array.from(c.excerpt);
  if (chars.length === 0) return fallback;
  return chars.length > 40 ? `${chars.slice(0, 40).join("")}…` : c.excerpt;
}

/** True for a key press meant for a field (typing), not for the queue. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * The cards of a topic's queue, answered with a click or a key: j / k or ↑ / ↓ move, r relevant,
 * i or x not relevant. An answered card leaves at once (the answer is saved in the background and
 * the card comes back with the reason if it was not) and focus moves to the next one.
 */
export function ReviewQueueList({ topicId, cards, canExport = false }: { topicId: number; cards: QueueCard[]; canExport?: boolean }) {
  const t = useTranslations("topics.queue");
  const format = useFormatter();
  const router = useRouter();
  const [items, setItems] = useState(cards);
  const [focus, setFocus] = useState(0);
  const [answered, setAnswered] = useState(0);
  const [saving, setSaving] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const refs = useRef(new Map<number, HTMLElement>());
  // DOM focus follows the current card only once the reader has used the queue: not on page load.
  const engaged = useRef(false);

  const answer = useCallback(
    (postId: number, relevant: boolean) => {
      const index = items.findIndex((c) => c.postId === postId);
      const card = items[index];
      if (!card) return;
      engaged.current = true;
      setError(null);
      setItems((prev) => prev.filter((c) => c.postId !== postId));
      setFocus(Math.max(0, Math.min(index, items.length - 2)));
      setSaving((n) => n + 1);
      void answerQueueAction({ topicId, postId, relevant })
        .catch(() => ({ ok: false, message: t("refused.failed"), gone: false }))
        .then((r) => {
          setSaving((n) => n - 1);
          if (r.ok) {
            setAnswered((n) => n + 1);
            return;
          }
          setError(r.message ?? t("refused.failed"));
          // Not saved but still answerable: the card comes back where it was.
          if (!r.gone) setItems((prev) => [...prev.slice(0, index), card, ...prev.slice(index)]);
        });
    },
    [items, topicId, t],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target) || items.length === 0) return;
      const current = items[Math.min(focus, items.length - 1)];
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (key === "j" || key === "ArrowDown") {
        engaged.current = true;
        setFocus((f) => Math.min(f + 1, items.length - 1));
      } else if (key === "k" || key === "ArrowUp") {
        engaged.current = true;
        setFocus((f) => Math.max(f - 1, 0));
      } else if (key === "r" && current) {
        answer(current.postId, true);
      } else if ((key === "i" || key === "x") && current) {
        answer(current.postId, false);
      } else {
        return;
      }
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [items, focus, answer]);

  useEffect(() => {
    if (!engaged.current) return;
    const card = items[Math.min(focus, items.length - 1)];
    const el = card ? refs.current.get(card.postId) : undefined;
    el?.focus();
    el?.scrollIntoView?.({ block: "nearest" });
  }, [focus, items]);

  return (
    <div data-testid="review-queue">
      <p className="small muted" id="queue-hint">
        {t("hint")}
      </p>
      <div role="status" className="small">
        {answered > 0 && t("answered", { count: answered })} {saving > 0 && t("saving")}
      </div>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {items.length === 0 ? (
        <div className="panel empty">
          <p>{t("done")}</p>
          <button type="button" onClick={() => router.refresh()} disabled={saving > 0}>
            {t("more")}
          </button>
        </div>
      ) : (
        <ol aria-label={t("listLabel")} aria-describedby="queue-hint" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {items.map((c, i) => {
            const name = cardName(c, t("noTitle"));
            const current = i === Math.min(focus, items.length - 1);
            return (
              <li key={c.postId}>
                <article
                  ref={(el) => {
                    if (el) refs.current.set(c.postId, el);
                    else refs.current.delete(c.postId);
                  }}
                  tabIndex={-1}
                  className="panel"
                  aria-labelledby={`queue-title-${c.postId}`}
                  aria-current={current ? "true" : undefined}
                  data-testid="queue-card"
                  data-post-id={c.postId}
                  onFocus={() => setFocus(i)}
                  style={{ marginBottom: 12, outline: current ? "2px solid #2f6fd6" : undefined, outlineOffset: 2 }}
                >
                  <h3 id={`queue-title-${c.postId}`} style={{ marginTop: 0 }}>
                    {name}
                  </h3>
                  {c.excerpt !== "" && c.excerpt !== name && <p style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{c.excerpt}</p>}
                  <p className="small muted">
                    <PlatformBadge platform={c.platform} short /> {c.accountName} ·{" "}
                    <time dateTime={c.whenIso} title={c.whenTitle}>
                      {c.when}
                    </time>{" "}
                    · {t("score", { score: format.number(c.score, { minimumFractionDigits: 2, maximumFractionDigits: 2 }) })}{" "}
                    {c.flagged && (
                      <span className="badge warn" title={t("flaggedHint")}>
                        {t("flagged")}
                      </span>
                    )}{" "}
                    · <Link href={`/posts/${c.postId}`}>{t("openPost")}</Link>
                    {c.flagged && canExport && (
                      <>
                        {" "}
                        · <EvidenceDownload kind="post" id={c.postId} compact />
                      </>
                    )}
                  </p>
                  <div className="button-row">
                    <button type="button" aria-label={t("relevantFor", { title: name })} aria-keyshortcuts="r" onClick={() => answer(c.postId, true)}>
                      {t("relevant")}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={t("irrelevantFor", { title: name })}
                      aria-keyshortcuts="i x"
                      onClick={() => answer(c.postId, false)}
                    >
                      {t("irrelevant")}
                    </button>
                  </div>
                </article>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
