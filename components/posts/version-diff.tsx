import { diffChars } from "diff";
import { useTranslations } from "next-intl";

/**
 * What changed between two versions of a post, character by character (Chinese has no word
 * boundaries to diff on). Rendered as text: React escapes it, nothing from the post is HTML here.
 */
export function VersionDiff({ before, after }: { before: string; after: string }) {
  const t = useTranslations("posts.detail");
  const parts = diffChars(before, after, { timeout: 500 }) ?? [{ value: after, added: true, removed: false, count: after.length }];
  if (parts.every((p) => !p.added && !p.removed)) return <p className="muted">{t("textUnchanged")}</p>;
  return (
    <pre className="diff">
      {parts.map((p, i) => (p.added ? <ins key={i}>{p.value}</ins> : p.removed ? <del key={i}>{p.value}</del> : <span key={i}>{p.value}</span>))}
    </pre>
  );
}
