import type { CSSProperties } from "react";
import { useTranslations } from "next-intl";
import { isPlatform, platformEntry } from "@/lib/platforms";

/** Which of a platform's names (messages `platforms.<id>.*`): the reader's, the short Chinese one, or both languages. */
export type PlatformNameForm = "name" | "short" | "full";

/**
 * A platform's name in the reader's language, from the registry's messages; an id the registry
 * does not know is shown as stored. For server and client components alike.
 */
export function usePlatformName(): (platform: string, form?: PlatformNameForm) => string {
  const t = useTranslations("platforms");
  return (platform, form = "name") => (isPlatform(platform) ? t(`${platform}.${form}`) : platform);
}

/**
 * A platform name as a coloured badge ("贴吧 Tieba" in English, "贴吧" in Chinese); `short` shows
 * only the Chinese name (dense tables). The colours are the registry entry's, passed to the
 * stylesheet's `.badge.platform` as custom properties.
 */
export function PlatformBadge({ platform, short = false }: { platform: string; short?: boolean }) {
  const name = usePlatformName();
  const colours = isPlatform(platform) ? platformEntry(platform).colours : null;
  const style = colours ? ({ "--platform-fg": colours.badgeText, "--platform-bg": colours.badgeBackground } as CSSProperties) : undefined;
  return (
    <span className={`badge platform platform-${platform}`} title={name(platform)} style={style}>
      {short ? name(platform, "short") : name(platform)}
    </span>
  );
}
