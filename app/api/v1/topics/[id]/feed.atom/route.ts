import { z } from "zod";
import { db } from "@/lib/db";
import { apiError, withToken } from "@/lib/api-v1";
import { publicUrl } from "@/lib/config";
import { parseInput } from "@/lib/validation";
import { xmlText } from "@/lib/xml";
import { topicFeed } from "@/server/api-v1";
import { inScope } from "@/lib/topic-scope";

const paramsSchema = z.object({ id: z.coerce.number().int().positive("the topic id is a positive number") });

/** Characters of a post's text shown in a feed entry's summary. */
const SUMMARY_CHARS = 300;

/** An http(s) URL as an attribute, or null: a crawled `javascript:` link never reaches a reader. */
function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? xmlText(u.toString()) : null;
  } catch {
    return null;
  }
}

/**
 * GET /api/v1/topics/:id/feed.atom?token=… — an Atom feed of a topic's newest flags and incidents,
 * for feed readers (which send no headers: the token may ride in the URL; read scope only, so a
 * leaked feed URL can never review). Every crawled value is escaped as XML (lib/xml.ts).
 */
export const GET = withToken({ scope: "read", permission: "read", tokenInQuery: true }, async (req, user, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = parseInput(paramsSchema, await ctx.params);
  // A topic outside the owner's scope answers like a topic that does not exist.
  const feed = inScope(user.topics, id) ? await topicFeed(db, id) : null;
  if (!feed) return apiError(404, "not-found", `no topic ${id}`);
  const base = (publicUrl() ?? new URL(req.url).origin).replace(/\/$/, "");
  const entries = [
    ...feed.flags.map((f) => ({
      at: f.createdAt,
      xml: [
        "<entry>",
        `<id>${xmlText(`${base}/flags/${f.id}`)}</id>`,
        `<title>${xmlText(`[${f.status}] ${f.post.title || f.post.text.slice(0, 80)}`)}</title>`,
        `<updated>${f.createdAt.toISOString()}</updated>`,
        `<published>${f.post.publishedAt.toISOString()}</published>`,
        `<author><name>${xmlText(f.post.author || "?")}</name></author>`,
        `<link rel="alternate" href="${xmlText(`${base}/posts/${f.post.id}`)}"/>`,
        safeHref(f.post.url) ? `<link rel="related" href="${safeHref(f.post.url)}"/>` : "",
        `<category term="flag"/>`,
        `<summary type="text">${xmlText(f.post.text.slice(0, SUMMARY_CHARS))}</summary>`,
        "</entry>",
      ].join(""),
    })),
    ...feed.incidents.map((i) => ({
      at: i.updatedAt,
      xml: [
        "<entry>",
        `<id>${xmlText(`${base}/incidents/${i.id}`)}</id>`,
        `<title>${xmlText(`[incident ${i.status}] ${i.title}`)}</title>`,
        `<updated>${i.updatedAt.toISOString()}</updated>`,
        `<published>${i.firstSeenAt.toISOString()}</published>`,
        `<link rel="alternate" href="${xmlText(`${base}/incidents/${i.id}`)}"/>`,
        `<category term="incident"/>`,
        `<summary type="text">${xmlText(`${i.size} posts`)}</summary>`,
        "</entry>",
      ].join(""),
    })),
  ].sort((a, b) => b.at.getTime() - a.at.getTime());
  const updated = entries[0]?.at ?? new Date(0);
  const body = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${xmlText(`${base}/topics/${feed.topic.id}`)}</id>`,
    `<title>${xmlText(`CampusWatch · ${feed.topic.name}`)}</title>`,
    `<updated>${updated.toISOString()}</updated>`,
    `<link rel="alternate" href="${xmlText(`${base}/topics/${feed.topic.id}`)}"/>`,
    ...entries.map((e) => e.xml),
    "</feed>",
  ].join("\n");
  return new Response(body, { headers: { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "no-store" } });
});
