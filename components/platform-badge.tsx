const NAMES: Record<string, string> = { weibo: "微博 Weibo", tieba: "贴吧 Tieba", discuz: "论坛 Discuz!", blog: "博客 Blog" };
const SHORT: Record<string, string> = { weibo: "微博", tieba: "贴吧", discuz: "论坛", blog: "博客" };

/** A platform's display name ("贴吧 Tieba"). */
export function platformName(platform: string): string {
  return NAMES[platform] ?? platform;
}

/** A platform name as a coloured badge; `short` shows only the Chinese name (dense tables). */
export function PlatformBadge({ platform, short = false }: { platform: string; short?: boolean }) {
  return (
    <span className={`badge platform platform-${platform}`} title={NAMES[platform] ?? platform}>
      {short ? (SHORT[platform] ?? platform) : (NAMES[platform] ?? platform)}
    </span>
  );
}
