#!/usr/bin/env node
/**
 * Compile the `campuswatch` CLI ahead of time into dist/ (esbuild), so that starting it does not
 * compile TypeScript at run time (tsx). `node scripts/build-cli.mjs` builds; `npm ci` runs it from
 * postinstall, and bin/campuswatch.mjs rebuilds when a source is newer than the build.
 *
 * Layout of dist/: content-hashed files (`cli-HASH.js`, `chunk-HASH.js`, their source maps) and
 * `cli.json`, which names the entry and lists every project file compiled into it with its mtime
 * and size. Content-hashed names mean that a rebuild never overwrites a file another running CLI
 * may still import lazily, and `cli.json` is replaced atomically, so concurrent CLI processes
 * (tests spawn several) may rebuild at the same time safely.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Where the build goes. */
export const DIST = path.join(root, "dist");
/** The build's manifest in its directory: entry file and inputs (see {@link cliBuildEntry}). */
const MANIFEST = "cli.json";
/** The CLI's source. */
const ENTRY = "crawler/cli.ts";
/** Files that change the output without being compiled into it. */
const CONFIG_INPUTS = ["tsconfig.json", "package.json", "scripts/build-cli.mjs"];
/** Outputs no build has referenced for this long are removed by the next build. */
const PRUNE_AFTER_MS = 24 * 3_600_000;

/**
 * The compiled entry (`file:` URL) when dist/ holds a build of exactly the current sources, else
 * null. Cheap: one small JSON read and one stat per source file, no esbuild.
 * @param outdir the build's directory
 * @returns the URL to import, or null when the build is missing or stale
 */
export function cliBuildEntry(outdir = DIST) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(outdir, MANIFEST), "utf8"));
  } catch {
    return null;
  }
  for (const [file, mtimeMs, size] of manifest.inputs) {
    let st;
    try {
      st = fs.statSync(path.join(root, file));
    } catch {
      return null;
    }
    if (st.mtimeMs !== mtimeMs || st.size !== size) return null;
  }
  const entry = path.join(outdir, manifest.entry);
  return fs.existsSync(entry) ? pathToFileURL(entry).href : null;
}

/**
 * Modules use `import.meta.url`/`dirname`/`filename` to find files beside them (migrations, the
 * dashboard's root, stop words, fixtures). Bundled into dist/, `import.meta` would name the chunk
 * instead, so each use is rewritten to the source file's place, relative to dist/ (the tree can
 * still be moved).
 */
function sourceLocation(outdir) {
  return {
    name: "source-location",
    setup(build) {
      build.onLoad({ filter: /\.(ts|tsx|mts)$/ }, async (args) => {
        let text = await fs.promises.readFile(args.path, "utf8");
        if (text.includes("import.meta.")) {
          const rel = path.relative(outdir, args.path).split(path.sep).join("/");
          const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
          const file = `process.getBuiltinModule("node:url").fileURLToPath(${url})`;
          text = text
            .replace(/\bimport\.meta\.url\b/g, url)
            .replace(/\bimport\.meta\.filename\b/g, file)
            .replace(/\bimport\.meta\.dirname\b/g, `process.getBuiltinModule("node:path").dirname(${file})`);
        }
        return { contents: text, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
      });
    },
  };
}

/**
 * Prisma's package maps `@prisma/client/runtime/client` to its CommonJS build under Node, which Node
 * must scan for named exports when ESM imports it: a third of `crawl once`'s start-up before any
 * query. The same runtime's ESM build (`client.mjs`, exported too) loads without that scan. Only
 * the generated clients import it, all inside this bundle, so there is still one runtime.
 */
const prismaRuntimeEsm = {
  name: "prisma-runtime-esm",
  setup(build) {
    build.onResolve({ filter: /^@prisma\/client\/runtime\/client$/ }, () => ({ path: "@prisma/client/runtime/client.mjs", external: true }));
  },
};

/**
 * lib/db.ts imports Prisma's PostgreSQL adapter at its top, so that `createDb` stays synchronous for
 * both databases; with it comes pg and its parsers (~45 ms of every `crawl once` start-up on the
 * default SQLite, issue 17). In the CLI it is loaded when a PostgreSQL client is made: the import
 * becomes a class that loads the adapter (its CommonJS build, synchronously) on construction.
 */
const lazyPgAdapter = {
  name: "lazy-pg-adapter",
  setup(build) {
    build.onResolve({ filter: /^@prisma\/adapter-pg$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}`) ? undefined : { path: "@prisma/adapter-pg", namespace: "cw-lazy-pg" },
    );
    build.onLoad({ filter: /.*/, namespace: "cw-lazy-pg" }, () => ({
      contents: [
        `import { createRequire } from "node:module";`,
        `let Real;`,
        `export class PrismaPg {`,
        `  constructor(...args) {`,
        `    Real ??= createRequire(import.meta.url)("@prisma/adapter-pg").PrismaPg;`,
        `    return new Real(...args);`,
        `  }`,
        `}`,
      ].join("\n"),
      loader: "js",
      resolveDir: root,
    }));
  },
};

/**
 * Pure-JavaScript packages of the crawl path, bundled into dist/ rather than imported from
 * node_modules at run time, with everything they import: Node 20 loads a few chunks much faster
 * than the hundreds of small files these packages come in (their import time halved in a trial,
 * 212–278 → 103–144 ms, issue 17). Every other package stays where it is: native addons
 * (better-sqlite3, nodejieba), Prisma (its WebAssembly engine lives in its own folder), Playwright,
 * Next.js, the PostgreSQL clients and what only some commands load.
 */
const BUNDLED = new Set(["cheerio", "undici", "zod", "tough-cookie", "iconv-lite", "css-select", "domutils", "domhandler", "robots-parser", "ipaddr.js"]);

/** The package a bare import names ("@scope/name/sub" → "@scope/name"). */
const packageOf = (spec) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");

const bundleSome = {
  name: "bundle-some-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:")) return { path: args.path, external: true };
      // The project's own "@/…" paths (tsconfig.json) are sources, not packages.
      if (args.path.startsWith("@/")) return undefined;
      // A bundled package's own imports are bundled with it (esbuild resolves them from its folder);
      // only bundled packages are ever read from node_modules here.
      if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      return BUNDLED.has(packageOf(args.path)) ? undefined : { path: args.path, external: true };
    });
  },
};

/**
 * The bundled packages include CommonJS modules, which call `require`: an ES module has none, so
 * each output file makes one for itself (esbuild's `__require` helper uses it).
 */
const REQUIRE_SHIM = `import { createRequire as __cwCreateRequire } from "node:module"; const require = __cwCreateRequire(import.meta.url);`;

/**
 * Build the CLI into dist/ and write the manifest. Every command module the CLI imports lazily
 * becomes a chunk of its own (code splitting), loaded only when that command runs.
 * @param options.quiet print nothing
 * @param options.outdir where to build (tests build elsewhere to look at the chunks)
 * @returns the entry file's `file:` URL and esbuild's metafile (inputs, outputs and their imports)
 */
export async function buildCli({ quiet = false, outdir = DIST } = {}) {
  const started = Date.now();
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    absWorkingDir: root,
    // The parse threads' module is an entry of its own: a worker loads it by its file
    // (crawler/parse/thread.ts), and an entry is a file that holds it, not a shared chunk.
    entryPoints: { cli: ENTRY, "parse-thread": "crawler/parse/thread.ts" },
    outdir,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // node_modules stay where they are but for BUNDLED (native modules, Prisma's WASM engine, Next.js).
    sourcemap: true,
    metafile: true,
    write: false,
    banner: { js: REQUIRE_SHIM },
    logLevel: quiet ? "silent" : "warning",
    plugins: [sourceLocation(outdir), prismaRuntimeEsm, lazyPgAdapter, bundleSome],
  });
  fs.mkdirSync(outdir, { recursive: true });
  const written = new Set();
  for (const out of result.outputFiles) {
    const name = path.basename(out.path);
    written.add(name);
    // Content-hashed (a map is named after its file): an existing file already holds these bytes.
    if (!fs.existsSync(out.path)) writeAtomically(out.path, out.contents);
    else fs.utimesSync(out.path, new Date(), new Date());
  }
  // With code splitting every lazily imported module is an entry point too: pick the CLI's.
  const entry = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === ENTRY)[0];
  // (Virtual modules, named "namespace:path", are no files.)
  const files = [...Object.keys(result.metafile.inputs).filter((f) => !f.includes("node_modules/") && !f.startsWith("cw-")), ...CONFIG_INPUTS];
  const inputs = files.map((f) => {
    const st = fs.statSync(path.join(root, f));
    // A file changed while this build ran may not be what was compiled: record it as unknown so
    // the next start rebuilds. (20 ms: Linux stamps files with a clock that may lag by a tick.)
    return [f, st.mtimeMs >= started - 20 ? -1 : st.mtimeMs, st.size];
  });
  writeAtomically(path.join(outdir, MANIFEST), JSON.stringify({ entry: path.relative(outdir, path.join(root, entry)), inputs }) + "\n");
  prune(outdir, written);
  if (!quiet) console.log(`campuswatch CLI built into dist/ (${files.length} inputs) in ${Date.now() - started} ms`);
  return { entry: pathToFileURL(path.join(root, entry)).href, metafile: result.metafile };
}

/** Write through a temporary file and rename, so a reader never sees half a file. */
function writeAtomically(file, contents) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

/** Remove outputs of old builds that no build has used for a day (a running CLI may still need recent ones). */
function prune(outdir, keep) {
  const now = Date.now();
  for (const name of fs.readdirSync(outdir)) {
    if (keep.has(name) || name === MANIFEST) continue;
    const file = path.join(outdir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > PRUNE_AFTER_MS) fs.rmSync(file);
    } catch {
      // another build removed it first
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}
