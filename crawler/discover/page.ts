/**
 * One pass over a fetched HTML page that yields everything discovery judges it by: title, text
 * (all of it, and the part outside links), punctuation count, links with their anchor text, and
 * the page split into link blocks (method.md §3: "groups of links in the same page region").
 */
import * as cheerio from "cheerio";
import { normalizeUrl } from "./url";

/** A link found on a page. */
export interface PageLink {
  /** Normalized absolute URL ({@link normalizeUrl}). */
  url: string;
  /** Anchor text (whitespace collapsed; an image link's alt text; else its title attribute). */
  anchor: string;
  /** Position among the page's links, from 0: the tie-break that keeps choices deterministic. */
  order: number;
  /** Id of the {@link LinkBlock} it belongs to. */
  block: number;
}

/** Links of one page region. */
export interface LinkBlock {
  id: number;
  /** The region's element as `tag.class#id` (for logs and the dashboard). */
  label: string;
  links: PageLink[];
}

/** A parsed page. */
export interface ParsedPage {
  url: string;
  title: string;
  /** All visible text of the body, block elements on their own lines. */
  text: string;
  /** The visible text outside `<a>` elements: what an article says, without its menus and lists. */
  contentText: string;
  /** Characters of visible text (whitespace excluded), in and outside links. */
  textChars: number;
  /** Characters of visible text inside links (whitespace excluded). */
  linkChars: number;
  /** Sentence punctuation marks (。，！？；：、 and their ASCII forms between CJK) outside links. */
  punctuation: number;
  links: PageLink[];
  blocks: LinkBlock[];
  /** `<meta name="robots" content="…nofollow…">`: the page asks crawlers not to follow its links. */
  nofollow: boolean;
}

/** Minimal view of the DOM nodes cheerio produces (domhandler), so domhandler need not be a dependency. */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

/** Elements whose text never shows. */
const INVISIBLE = new Set(["script", "style", "noscript", "template", "head", "select", "option", "iframe", "svg"]);
/** Elements that start a new line of text. */
const BLOCK_ELEMENTS = new Set([
  "p",
  "div",
  "br",
  "li",
  "tr",
  "td",
  "th",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "pre",
  "section",
  "article",
  "ul",
  "ol",
  "dl",
  "dt",
  "dd",
  "table",
  "nav",
  "header",
  "footer",
  "aside",
  "main",
  "form",
  "hr",
]);
/**
 * Elements that can hold a link block. Not li/td/span: a list item or a table cell is one entry of
 * a block, not a region of its own.
 */
const CONTAINERS = new Set(["ul", "ol", "dl", "menu", "nav", "table", "p", "div", "section", "article", "aside", "header", "footer", "form", "main", "body"]);
const PUNCTUATION = /[。，！？；：、]/g;

interface Container {
  id: number;
  label: string;
  /** tag.class: what repeated entries of a list have in common (ids differ per entry). */
  signature: string;
  parent: Container | null;
  /** Links anywhere below this container. */
  linkCount: number;
}

/** An entry of a list region holds at most this many links (a title, a category, "阅读全文"). */
const MAX_ENTRY_LINKS = 3;

interface RawLink {
  url: string;
  anchor: string;
  /** Containers from the nearest ancestor outwards. */
  chain: Container[];
}

/**
 * Parse `html` fetched from `url`. Links are resolved (honouring `<base href>`), normalized and
 * kept in document order, duplicates included (a URL linked twice sits in two blocks).
 */
export function parsePage(html: string, url: string): ParsedPage {
  const $ = cheerio.load(html.includes("<code") ? unwrapBigPipe(html) : html);
  const title = collapse($("title").first().text()) || collapse($("h1").first().text());
  const baseHref = $("base[href]").first().attr("href");
  const base = (baseHref && normalizeUrl(baseHref, url)) || url;
  const robots = $('meta[name="robots" i]').attr("content") ?? "";
  const nofollow = /\bnofollow\b|\bnone\b/i.test(robots);

  const all: string[] = [];
  const content: string[] = [];
  let textChars = 0;
  let linkChars = 0;
  let punctuation = 0;
  const raws: RawLink[] = [];
  const containers: Container[] = [];
  const stack: Container[] = [];
  // "parentId signature" → how many child containers of that parent share the signature.
  const siblings = new Map<string, number>();

  const bodyNode = ($("body")[0] ?? $.root()[0]) as unknown as DomNode;

  // The anchor we are inside, if any: its text accumulates here.
  let anchor: { parts: string[] } | null = null;

  const visit = (node: DomNode): void => {
    if (node.type === "text") {
      const t = node.data ?? "";
      if (t.trim() === "") {
        all.push(" ");
        if (!anchor) content.push(" ");
        return;
      }
      const chars = t.replace(/\s+/g, "").length;
      textChars += chars;
      all.push(t);
      if (anchor) {
        anchor.parts.push(t);
        linkChars += chars;
      } else {
        content.push(t);
        punctuation += (t.match(PUNCTUATION) ?? []).length;
      }
      return;
    }
    if (node.type !== "tag" && node.type !== "root") return;
    const name = (node.name ?? "").toLowerCase();
    if (INVISIBLE.has(name)) return;
    if (name === "img" && anchor) {
      const alt = node.attribs?.alt?.trim();
      if (alt) anchor.parts.push(alt);
      return;
    }
    const isBlock = BLOCK_ELEMENTS.has(name);
    if (isBlock) {
      all.push("\n");
      content.push("\n");
    }
    let pushed = false;
    if (CONTAINERS.has(name)) {
      const cls = node.attribs?.class?.trim().split(/\s+/)[0];
      const c: Container = {
        id: containers.length,
        label: labelOf(name, node.attribs),
        signature: cls ? `${name}.${cls}` : name,
        parent: stack.at(-1) ?? null,
        linkCount: 0,
      };
      containers.push(c);
      if (c.parent) {
        const key = `${c.parent.id} ${c.signature}`;
        siblings.set(key, (siblings.get(key) ?? 0) + 1);
      }
      stack.push(c);
      pushed = true;
    }
    const href = name === "a" && !anchor ? node.attribs?.href : undefined;
    if (href !== undefined) {
      const own = { parts: [] as string[] };
      anchor = own;
      for (const child of node.children ?? []) visit(child);
      anchor = null;
      const target = normalizeUrl(href, base);
      if (target) {
        const text = collapse(own.parts.join("")) || collapse(node.attribs?.title ?? "");
        const chain = [...stack].reverse();
        for (const c of chain) c.linkCount++;
        raws.push({ url: target, anchor: text, chain });
      }
    } else {
      for (const child of node.children ?? []) visit(child);
    }
    if (pushed) stack.pop();
    if (isBlock) {
      all.push("\n");
      content.push("\n");
    }
  };
  visit(bodyNode);

  // A link's block: the list region it is an entry of (an ancestor with at most three links,
  // repeated as a sibling: <article class="post">…</article> × 10 on a blog index is one block),
  // else its nearest container holding at least two links (a <ul> of titles, a menu).
  const entryList = (chain: readonly Container[]): Container | undefined => {
    for (const c of chain) {
      if (c.linkCount > MAX_ENTRY_LINKS) return undefined;
      if (c.parent && (siblings.get(`${c.parent.id} ${c.signature}`) ?? 0) >= 2) return c.parent;
    }
    return undefined;
  };
  const blockOf = new Map<number, LinkBlock>();
  const blocks: LinkBlock[] = [];
  const links: PageLink[] = raws.map((r, order) => {
    const home = entryList(r.chain) ?? r.chain.find((c) => c.linkCount >= 2) ?? r.chain[0];
    const key = home?.id ?? -1;
    let block = blockOf.get(key);
    if (!block) {
      block = { id: blocks.length, label: home?.label ?? "body", links: [] };
      blockOf.set(key, block);
      blocks.push(block);
    }
    const link: PageLink = { url: r.url, anchor: r.anchor, order, block: block.id };
    block.links.push(link);
    return link;
  });

  return {
    url,
    title,
    text: tidy(all.join("")),
    contentText: tidy(content.join("")),
    textChars,
    linkChars,
    punctuation,
    links,
    blocks,
    nofollow,
  };
}

/**
 * BigPipe pages (Baidu Tieba's bar lists) ship whole regions as HTML inside comments in
 * `<code>` elements, filled in by script; a crawler that reads no script must open them itself,
 * or a bar page shows no threads at all.
 */
function unwrapBigPipe(html: string): string {
  return html.replace(/<code\b[^>]*>\s*<!--([\s\S]*?)-->\s*<\/code>/g, "$1");
}

function labelOf(name: string, attribs: Record<string, string> | undefined): string {
  const cls = attribs?.class?.trim().split(/\s+/)[0];
  const id = attribs?.id?.trim();
  return `${name}${cls ? `.${cls}` : ""}${id ? `#${id}` : ""}`;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** Trim every line, drop empty ones. */
function tidy(s: string): string {
  return s
    .split("\n")
    .map((l) => collapse(l))
    .filter((l) => l !== "")
    .join("\n");
}
