/**
 * No user-visible English (or any other) text written straight into the converted files: it
 * belongs in messages/*.json. A TypeScript AST scan of each `.tsx` file in {@link CONVERTED}
 * reports
 * - JSX text with a letter in it (`<h1>Users</h1>`),
 * - string literals (also in template literals and conditionals) given to a text attribute
 *   (`aria-label`, `placeholder`, `title`, `alt`, and the text props of our own components),
 * - string literals placed as JSX children (`{pending ? "Saving…" : "Save"}`),
 * - a literal `title`/`description` in an exported `metadata` object,
 * and of each `.ts` file (the server actions) a literal `message:` of an object.
 * Text that is not written in the source — crawled content, user names, `{t("…")}` — passes.
 *
 * Only the folders in CONVERTED are checked: today every page and component of the dashboard.
 * A new page or component is added to the list when it is written.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

/** Files and folders whose text is all in the message files. Only ever add to this list. */
const CONVERTED = [
  "app/layout.tsx",
  "app/(dashboard)/layout.tsx",
  "app/(auth)",
  "app/(dashboard)/users",
  "components/nav.tsx",
  "components/page-header.tsx",
  "components/skeletons.tsx",
  "components/confirm-delete.tsx",
  "components/toggle-form.tsx",
  "components/time.tsx",
  "components/locale-switch.tsx",
  "components/sign-in-form.tsx",
  "components/setup-form.tsx",
  "components/users",
  // posts (home, flags, post pages):
  "app/(dashboard)/page.tsx",
  "app/(dashboard)/posts",
  "components/posts",
  "components/stats.tsx",
  "components/platform-badge.tsx",
  "components/filter-select.tsx",
  "components/auto-refresh.tsx",
  "components/readable-url.ts",
  // accounts, runs, workers:
  "app/(dashboard)/accounts",
  "components/accounts",
  "app/(dashboard)/runs",
  "components/runs",
  "app/(dashboard)/workers",
  "components/workers",
  "app/api/cron-preview",
  "app/api/accounts/recognise",
  // topics, charts:
  "app/(dashboard)/topics",
  "components/topics",
  "app/(dashboard)/charts",
  "components/charts",
  // incidents:
  "app/(dashboard)/incidents",
  "components/incidents",
  // seeds, discovery:
  "app/(dashboard)/seeds",
  "components/seeds",
  "app/(dashboard)/discovery",
  "components/discovery",
];

/** Attributes and props whose value a reader sees or hears. */
const TEXT_ATTRIBUTES = new Set([
  "aria-label",
  "aria-description",
  "aria-placeholder",
  "aria-roledescription",
  "aria-valuetext",
  "placeholder",
  "title",
  "alt",
  "label",
  "subtitle",
  "trigger",
  "submit",
  "pendingLabel",
  "triggerAriaLabel",
]);

const LETTER = /\p{L}/u;

interface Literal {
  line: number;
  text: string;
}

/** The literal texts of one source file that should have been messages. */
function literalsIn(fileName: string, source: string): Literal[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Literal[] = [];
  const report = (node: ts.Node, text: string) => {
    if (LETTER.test(text)) found.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: text.trim().replace(/\s+/g, " ") });
  };
  /** String literals an expression can evaluate to (through conditionals, `&&`/`||`/`??`, parentheses, templates). */
  const reportStrings = (e: ts.Expression | undefined) => {
    if (!e) return;
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) report(e, e.text);
    else if (ts.isTemplateExpression(e)) {
      report(e.head, e.head.text);
      for (const span of e.templateSpans) report(span.literal, span.literal.text);
    } else if (ts.isParenthesizedExpression(e)) reportStrings(e.expression);
    else if (ts.isConditionalExpression(e)) {
      reportStrings(e.whenTrue);
      reportStrings(e.whenFalse);
    } else if (
      ts.isBinaryExpression(e) &&
      [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(e.operatorToken.kind)
    ) {
      reportStrings(e.left);
      reportStrings(e.right);
    }
  };
  const visit = (node: ts.Node) => {
    // Character references (`&nbsp;`) are not words.
    if (ts.isJsxText(node)) report(node, node.text.replace(/&(?:[a-z]+|#\d+|#x[0-9a-f]+);/gi, " "));
    else if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText(sf)) && node.initializer) {
      if (ts.isStringLiteral(node.initializer)) report(node.initializer, node.initializer.text);
      else if (ts.isJsxExpression(node.initializer)) reportStrings(node.initializer.expression);
    } else if (ts.isJsxExpression(node) && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) reportStrings(node.expression);
    else if (ts.isVariableDeclaration(node) && node.name.getText(sf) === "metadata" && node.initializer && ts.isObjectLiteralExpression(node.initializer)) {
      for (const p of node.initializer.properties)
        if (ts.isPropertyAssignment(p) && ["title", "description"].includes(p.name.getText(sf))) reportStrings(p.initializer);
    } else if (!fileName.endsWith(".tsx") && ts.isPropertyAssignment(node) && node.name.getText(sf) === "message") reportStrings(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every .ts/.tsx file of the converted list (a folder: everything in it). */
function convertedFiles(): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (fs.statSync(p).isDirectory()) for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
    else if (/\.tsx?$/.test(p) && !p.endsWith(".d.ts")) out.push(p);
  };
  for (const entry of CONVERTED) walk(path.resolve(entry));
  return out.sort();
}

describe("no literal text in the converted files", () => {
  const files = convertedFiles();

  test("the list names existing files", () => {
    for (const entry of CONVERTED) expect(fs.existsSync(entry), entry).toBe(true);
    expect(files.length).toBeGreaterThanOrEqual(CONVERTED.length);
  });

  test.each(files.map((f) => path.relative(process.cwd(), f)))("%s", (file) => {
    const literals = literalsIn(file, fs.readFileSync(file, "utf8"));
    expect(literals.map((l) => `${file}:${l.line}: ${JSON.stringify(l.text)}`)).toEqual([]);
  });

  test("the scan finds each kind of literal, and lets through what is not one", () => {
    const tsx = `
      export const metadata = { title: "Users" };
      export function A({ n, name }: { n: number; name: string }) {
        return (
          <div aria-label="Main" title={\`Open \${n}\`} className="x">
            Sign in&nbsp;
            <b>{name}</b>&nbsp;&#8212; — {n > 999 ? "999+" : n}
            {n ? "Saving…" : t("save")}
            <Skeleton label={"Loading users"} />
            <input placeholder='用户名' />
            {t("ok")} · {"—"}
          </div>
        );
      }`;
    expect(literalsIn("a.tsx", tsx).map((l) => l.text)).toEqual(["Users", "Main", "Open", "Sign in", "Saving…", "Loading users", "用户名"]);
    const action = `export async function a() { return { ok: true, message: "Role changed." }; }\nconst m = { message: t("x") };`;
    expect(literalsIn("actions.ts", action).map((l) => l.text)).toEqual(["Role changed."]);
  });
});
