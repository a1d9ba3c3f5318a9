import { useTranslations } from "next-intl";

const PLATFORMS = ["weibo", "tieba", "discuz", "blog"] as const;
type Platform = (typeof PLATFORMS)[number];

/** True when `platform` is one the dashboard names (anything else is shown as stored). */
export function isPlatform(platform: string): platform is Platform {
  return (PLATFORMS as readonly string[]).includes(platform);
}

/** A platform name as a coloured badge ("贴吧 Tieba" in English, "贴吧" in Chinese); `short` shows only the Chinese name (dense tables). */
export function PlatformBadge({ platform, short = false }: { platform: string; short?: boolean }) {
  const t = useTranslations("posts");
  const name = isPlatform(platform) ? t(`platform.${platform}`) : platform;
  const shortName = isPlatform(platform) ? t(`platformShort.${platform}`) : platform;
  return (
    <span className={`badge platform platform-${platform}`} title={name}>
      {short ? shortName : name}
    </span>
  );
}
