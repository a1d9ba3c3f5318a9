const NAMES: Record<string, string> = { weibo: "微博 Weibo", tieba: "贴吧 Tieba", discuz: "论坛 Discuz!", blog: "博客 Blog" };

/** A platform name as a badge. */
export function PlatformBadge({ platform }: { platform: string }) {
  return <span className="badge info">{NAMES[platform] ?? platform}</span>;
}
