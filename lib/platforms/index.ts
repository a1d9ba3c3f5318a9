/**
 * The platform registry: one module per platform (./weibo.ts, ./tieba.ts, ./discuz.ts,
 * ./wechat.ts, ./blog.ts) holds everything about it that is not crawling — id, colours, URL recognisers and
 * entry-URL checks, default interval, cookie domains, features — and its names are the messages
 * `platforms.<id>.*`. Forms, filters, badges, charts, notifications, cookie import, discovery and
 * site keys read it; each adapter (crawler/adapters/<id>) attaches its crawl behaviour to it.
 *
 * Adding a platform: a module here, its id in {@link PLATFORMS}, its messages, and its adapter.
 * Nothing else lists the ids (test/unit/platforms/registry.test.ts fails when a file does).
 *
 * Pure: importable from client components and from every layer.
 */
import { blog } from "./blog";
import { discuz } from "./discuz";
import { tieba } from "./tieba";
import type { PlatformEntry } from "./types";
import { wechat } from "./wechat";
import { weibo } from "./weibo";

export type { CandidateEntry, PlatformColours, PlatformEntry, PlatformFeatures, WatchScope } from "./types";

/**
 * Every platform, in the order the dashboard lists them and URLs are recognised in: most specific
 * first; the fallback (blog, which takes any http(s) URL) last.
 */
export const PLATFORMS = ["weibo", "tieba", "discuz", "wechat", "blog"] as const;

/** A platform's id. */
export type Platform = (typeof PLATFORMS)[number];

/** Each id's entry: an id without an entry, or an entry missing a field, does not compile. */
const REGISTRY: { readonly [Id in Platform]: PlatformEntry<Id> } = { weibo, tieba, discuz, wechat, blog };

/** True when `id` is a registered platform (stored rows and query strings are plain text). */
export function isPlatform(id: string): id is Platform {
  return (PLATFORMS as readonly string[]).includes(id);
}

/** The registry entry of a platform. */
export function platformEntry<Id extends Platform>(id: Id): PlatformEntry<Id> {
  return REGISTRY[id];
}

/** Every entry, in {@link PLATFORMS} order. */
export const PLATFORM_ENTRIES: readonly PlatformEntry<Platform>[] = PLATFORMS.map((id) => REGISTRY[id]);

/** The platform that takes any http(s) URL (tried last; an unknown stored platform reads as it). */
export const FALLBACK_PLATFORM: Platform = PLATFORM_ENTRIES.find((e) => e.fallback)!.id;

/** The platforms whose own search a keyword watch can follow. */
export const WATCH_PLATFORMS: readonly Platform[] = PLATFORM_ENTRIES.filter((e) => e.features.keywordWatch !== null).map((e) => e.id);

/**
 * The platform whose URL shape `url` has (host or path), trying the registry in order, or null
 * for a URL no platform takes. Keyword watches (a platform's search on any host) are recognised
 * first by the crawler (crawler/adapters recognisePlatform).
 */
export function platformOfUrl(url: URL): Platform | null {
  return RECOGNITION_ORDER.find((e) => e.recognise(url))?.id ?? null;
}

/** The fallback takes any http(s) URL, so it is tried after every other platform. */
const RECOGNITION_ORDER = [...PLATFORM_ENTRIES.filter((e) => !e.fallback), ...PLATFORM_ENTRIES.filter((e) => e.fallback)];
