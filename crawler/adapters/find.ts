/**
 * cheerio's `find` with the selector compiled once per process instead of at every call.
 *
 * Why: the adapters run a dozen `find`s per floor of a thread page, and cheerio parses and
 * compiles the selector each time (css-what, css-select): about 5% of a crawl's CPU (issue 17).
 *
 * Why not simply cache cheerio's compiled query: css-select binds it to the context it searched.
 * When the context element has an element parent, every selector is made relative to it — `div a`
 * becomes `:scope div a`, so the `div` must be inside the context too — and `:scope` compares with
 * the context elements given at compile time. So each selector is compiled twice here, the way
 * css-select compiles it for a top-level context and for a nested one, and the nested form is
 * compiled against a one-element context array whose element is set before each search. That is
 * how css-select's own `:has` reuses its compiled subselectors.
 *
 * Only plain selectors are taken: no pseudo-classes (cheerio's positionals such as `:first` are
 * not css-select's) and no leading combinator (cheerio searches siblings for those). Anything else,
 * and a context of several elements, goes to cheerio's `find` as before.
 * `test/integration/adapters/find.test.ts` compares both on the real captures and on every selector the
 * adapters use.
 */
import type { Cheerio } from "cheerio";
import { compile, type Options } from "css-select";
import type { AnyNode, Element } from "domhandler";
import { findAll, findOne, getParent, isTag } from "domutils";

type Query = ((elem: Element) => boolean) & { shouldTestNextSiblings?: boolean };

interface Compiled {
  /** For a context whose parent is not an element (the document, a top-level element). */
  top: Query;
  /** For a context inside an element: `:scope`-relative, against {@link Compiled.scope}. */
  nested: Query;
  /** The one-element context `nested` was compiled against; [0] is set before each search. */
  scope: AnyNode[];
}

const OPTIONS: Options<AnyNode, Element> = { xmlMode: false };
const cache = new Map<string, Compiled | null>();

/**
 * A stand-in top-level context (not an element): css-select compiles the selector as given. (An
 * empty context would not do: css-select would then make the selector relative to nothing.)
 */
const TOP: AnyNode[] = [{ type: "root", children: [], parent: null } as unknown as AnyNode];

/** A stand-in context element with an element parent: makes css-select compile the nested form. */
function placeholder(): AnyNode {
  const parent = { type: "tag", name: "div", attribs: {}, children: [], parent: null };
  return { type: "tag", name: "div", attribs: {}, children: [], parent } as unknown as AnyNode;
}

function compiled(selector: string): Compiled | null {
  let c = cache.get(selector);
  if (c !== undefined) return c;
  c = null;
  if (!selector.includes(":") && !/^\s*[>+~]/.test(selector)) {
    const scope = [placeholder()];
    c = {
      top: compile<AnyNode, Element>(selector, OPTIONS, TOP),
      nested: compile<AnyNode, Element>(selector, OPTIONS, scope),
      scope,
    };
    // A selector css-select would search siblings for is left to cheerio.
    if (c.top.shouldTestNextSiblings || c.nested.shouldTestNextSiblings) c = null;
  }
  cache.set(selector, c);
  return c;
}

/** The query for searching under `context`, or null to let cheerio search. */
function queryFor(selector: string, context: AnyNode): Query | null {
  const c = compiled(selector);
  if (!c) return null;
  const parent = isTag(context) ? getParent(context) : null;
  if (parent && isTag(parent)) {
    c.scope[0] = context;
    return c.nested;
  }
  return c.top;
}

/** The element children of `node`: where cheerio's `find` starts its search. */
function elementChildren(node: AnyNode): AnyNode[] {
  return "children" in node ? node.children.filter((n) => isTag(n)) : [];
}

/** `sel.find(selector)`: every element under the selection matching `selector`, in document order. */
export function find<T extends AnyNode>(sel: Cheerio<T>, selector: string): Cheerio<Element> {
  if (sel.length !== 1) return sel.find(selector);
  const context = sel[0]!;
  const query = queryFor(selector, context);
  if (!query) return sel.find(selector);
  return sel._make(findAll(query as (e: Element) => boolean, elementChildren(context)));
}

/** `sel.find(selector).first()`: stops at the first match. */
export function findFirst<T extends AnyNode>(sel: Cheerio<T>, selector: string): Cheerio<Element> {
  if (sel.length !== 1) return sel.find(selector).first();
  const context = sel[0]!;
  const query = queryFor(selector, context);
  if (!query) return sel.find(selector).first();
  const found = findOne((n: AnyNode): n is Element => isTag(n) && query(n), elementChildren(context), true);
  return sel._make(found ? [found] : []);
}
