import Link from "next/link";
import { useTranslations } from "next-intl";
import { authorPath } from "@/lib/authors";
import type { Sentiment } from "@/lib/sentiments";
import { Time } from "../time";

/**
 * "Deleted, noticed at …": the crawler found the post or reply gone from the platform. It is
 * kept; the time is when the crawler noticed, not when the platform removed it.
 */
export function DeletedMark({ deletedAt, withTime = true }: { deletedAt: Date | null; withTime?: boolean }) {
  const t = useTranslations("posts.marks");
  if (!deletedAt) return null;
  return (
    <span className="badge danger deleted-mark" data-testid="deleted-mark" title={t("deletedTitle")}>
      {withTime ? t.rich("deletedAt", { time: () => <Time date={deletedAt} withYear /> }) : t("deleted")}
    </span>
  );
}

/**
 * A deleted post that was flagged: a moderator removing what a topic flagged is itself a signal,
 * so the reviewers' lists make it stand out.
 */
export function DeletedFlaggedMark() {
  const t = useTranslations("posts.marks");
  return (
    <span className="badge danger deleted-flagged-mark" data-testid="deleted-flagged" title={t("deletedFlaggedTitle")}>
      {t("deletedFlagged")}
    </span>
  );
}

/** The stored text is partial (a Weibo long text whose full text could not be read yet). */
export function IncompleteMark({ incomplete }: { incomplete: boolean }) {
  const t = useTranslations("posts.marks");
  if (!incomplete) return null;
  return (
    <span className="badge warn" data-testid="incomplete-mark" title={t("incompleteTitle")}>
      {t("incomplete")}
    </span>
  );
}

/**
 * The author as the page shows them, with the platform's stable id when it differs; a link to
 * their author page (everything they wrote) when the platform gave an id.
 */
export function AuthorName({ platform, author, authorId, fallback }: { platform: string; author: string; authorId: string; fallback?: string }) {
  const t = useTranslations("posts.marks");
  const name = author || fallback || "";
  const href = authorPath(platform, authorId);
  return (
    <>
      {href ? (
        <Link href={href} className="author-link" data-testid="author-link" title={t("authorPageTitle")}>
          {name || authorId}
        </Link>
      ) : (
        name
      )}
      {authorId && authorId !== author && (
        <span className="muted author-id" data-testid="author-id" title={t("authorIdTitle")}>
          {" "}
          {t("authorId", { id: authorId })}
        </span>
      )}
    </>
  );
}

/**
 * The post's sentiment as the classifier judged it (负面 / 中性 / 正面), with its P(negative) in
 * the tooltip; nothing until the post is classified.
 */
export function SentimentMark({ sentiment, score }: { sentiment: Sentiment | null; score: number | null }) {
  const t = useTranslations("posts.marks");
  if (!sentiment) return null;
  return (
    <span
      className={`badge sentiment sentiment-${sentiment}`}
      data-testid="sentiment-mark"
      data-sentiment={sentiment}
      title={score === null ? undefined : t("sentimentTitle", { score: score.toFixed(2) })}
    >
      {t(`sentiment_${sentiment}`)}
    </span>
  );
}
