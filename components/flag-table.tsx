import { excerpt, formatTime, jsonList } from "@/lib/format";
import { PlatformBadge } from "./platform-badge";

interface FlagRow {
  id: number;
  score: number;
  reasons: string;
  status: string;
  topic: { name: string };
  post: { id: number; title: string; text: string; url: string; publishedAt: Date; account: { name: string; platform: string } };
}

const REASON_LABEL: Record<string, string> = {
  classifier: "classifier",
  cosine: "relevance",
  sensitive: "sensitive word",
  keyword: "keyword",
};

/** Flags, newest first. Post text is rendered as plain text (React escapes it). */
export function FlagTable({ flags }: { flags: FlagRow[] }) {
  if (flags.length === 0) return <div className="panel empty">No flagged posts. New flags appear here after each crawl.</div>;
  return (
    <table className="data">
      <thead>
        <tr><th>Time</th><th>Platform</th><th>Account</th><th>Post</th><th>Topic</th><th className="num">Score</th><th>Why</th></tr>
      </thead>
      <tbody>
        {flags.map((f) => (
          <tr key={f.id}>
            <td>{formatTime(f.post.publishedAt)}</td>
            <td><PlatformBadge platform={f.post.account.platform} /></td>
            <td>{f.post.account.name}</td>
            <td>
              <div>{f.post.title || excerpt(f.post.text, 40)}</div>
              <div className="excerpt">{excerpt(f.post.text)}</div>
            </td>
            <td>{f.topic.name}</td>
            <td className="num">{f.score.toFixed(2)}</td>
            <td>
              {jsonList<{ kind: string; detail?: string }>(f.reasons).map((r, i) => (
                <span key={i} className={`badge ${r.kind === "sensitive" ? "danger" : "warn"}`} title={r.detail}>
                  {REASON_LABEL[r.kind] ?? r.kind}{r.detail ? `: ${r.detail}` : ""}
                </span>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
