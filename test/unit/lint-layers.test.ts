/**
 * The layer check itself (eslint.config.mjs, README "Architecture"): each rule reports a snippet
 * that breaks it, and a snippet that keeps to the layers passes. Without this a rule that stopped
 * matching (a path that no longer resolves, a selector that no longer fits) would pass silently.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const LAYER_RULES = new Set(["import/no-restricted-paths", "no-restricted-syntax"]);

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: path.join(root, "eslint.config.mjs"),
    // Only the layer rules run: they need no type information, so the snippets are parsed
    // without building the TypeScript program (seconds instead of minutes on a loaded machine).
    ruleFilter: ({ ruleId }) => LAYER_RULES.has(ruleId),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
});

/** The layer problems ESLint reports for `code` as if it were the file at `file` (relative to the root). */
async function problems(file: string, code: string): Promise<{ ruleId: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

describe("layers point one way (eslint.config.mjs)", () => {
  it("a. the lower lib imports neither the crawler nor server", async () => {
    const crawler = await problems("lib/layer-probe.ts", `import { siteKeyOf } from "@/crawler/site-key";\nexport const f = siteKeyOf;\n`);
    expect(crawler).toEqual([expect.objectContaining({ ruleId: "import/no-restricted-paths", message: expect.stringContaining("below the crawler") })]);
    const queries = await problems("lib/notify/layer-probe.ts", `import { listAccounts } from "../../server/accounts";\nexport const f = listAccounts;\n`);
    expect(queries).toEqual([expect.objectContaining({ ruleId: "import/no-restricted-paths" })]);
  });

  it("a2. lib and the crawler do not import i18n (i18n stands on lib)", async () => {
    const time = await problems("lib/layer-probe.ts", `import { LOCALES } from "@/i18n/config";\nexport const f = LOCALES;\n`);
    expect(time).toEqual([expect.objectContaining({ ruleId: "import/no-restricted-paths", message: expect.stringContaining("below i18n/") })]);
    const typeOnly = await problems("crawler/fetch/layer-probe.ts", `import type { Locale } from "../../i18n/config";\nexport type L = Locale;\n`);
    expect(typeOnly).toEqual([expect.objectContaining({ ruleId: "import/no-restricted-paths" })]);
    expect(await problems("server/layer-probe.ts", `import { LOCALES } from "@/i18n/config";\nexport const f = LOCALES;\n`)).toEqual([]);
  });

  it("b. crawler modules import nothing from server, app or components; its entry points may", async () => {
    const code = `import { createAccount } from "@/server/accounts";\nexport const f = createAccount;\n`;
    expect(await problems("crawler/fetch/layer-probe.ts", code)).toEqual([
      expect.objectContaining({ ruleId: "import/no-restricted-paths", message: expect.stringContaining("crawler/ modules do not import server/") }),
    ]);
    expect(await problems("crawler/layer-probe.ts", code)).toHaveLength(1);
    expect(await problems("crawler/commands/layer-probe.ts", code)).toEqual([]);
  });

  it("c. app and components import a crawler module only through its index", async () => {
    const deep = await problems(
      "components/discovery/layer-probe.tsx",
      `import { toHarvestChart } from "@/crawler/discover/metrics";\nexport const f = toHarvestChart;\n`,
    );
    expect(deep).toEqual([expect.objectContaining({ ruleId: "import/no-restricted-paths", message: expect.stringContaining("through a module's index") })]);
    const typeOnly = await problems(
      "app/(dashboard)/layer-probe.ts",
      `import type { ProxyConfig } from "../../crawler/fetch/proxy-url";\nexport type P = ProxyConfig;\n`,
    );
    expect(typeOnly).toEqual([expect.objectContaining({ ruleId: "import/no-restricted-paths" })]);
  });

  it("d. app and components make no Prisma calls", async () => {
    const file = "app/(dashboard)/layer-probe/page.tsx";
    const model = await problems(file, `import { db } from "@/lib/db";\nexport const f = () => db.topic.count({ where: {} });\n`);
    expect(model).toEqual([expect.objectContaining({ ruleId: "no-restricted-syntax", message: expect.stringContaining("server/") })]);
    const raw = await problems(file, 'import { db } from "@/lib/db";\nexport const f = () => db.$queryRaw`SELECT 1`;\n');
    expect(raw).toEqual([expect.objectContaining({ ruleId: "no-restricted-syntax" })]);
    const tx = await problems("components/layer-probe.tsx", `import { db } from "@/lib/db";\nexport const f = () => db.$transaction([]);\n`);
    expect(tx).toEqual([expect.objectContaining({ ruleId: "no-restricted-syntax" })]);
  });

  it("a page that keeps to the layers passes", async () => {
    const code = [
      `import { db } from "@/lib/db";`,
      `import { listAccounts } from "@/server/accounts";`,
      `import { toHarvestChart } from "@/crawler/discover";`,
      `import { maskProxyUrl } from "@/lib/net/proxy-url";`,
      `export async function f() {`,
      `  return { accounts: await listAccounts(db), chart: toHarvestChart([]), proxy: maskProxyUrl("http://p:3128") };`,
      `}`,
      ``,
    ].join("\n");
    expect(await problems("app/(dashboard)/layer-probe/page.tsx", code)).toEqual([]);
    // server may use the crawler's public indexes, and the crawler the lower lib.
    expect(await problems("server/layer-probe.ts", `import { toHarvestChart } from "@/crawler/discover";\nexport const f = toHarvestChart;\n`)).toEqual([]);
    expect(
      await problems("crawler/fetch/layer-probe.ts", `import { parseProxyUrl } from "../../lib/net/proxy-url";\nexport const f = parseProxyUrl;\n`),
    ).toEqual([]);
  });
});
