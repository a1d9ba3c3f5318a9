/**
 * The project's import graph, read the way TypeScript reads it, for test/unit/structure.test.ts.
 *
 * Every import counts: `import type`, `export … from`, `import()` and `require`, because a
 * type-only cycle still ties two modules together (neither can be read, moved or tested alone).
 * eslint-plugin-import's `import/no-cycle` skips type-only imports by design, so it is not the
 * check here. Parsing and path resolution are TypeScript's own (`ts.preProcessFile`,
 * `ts.resolveModuleName` with tsconfig.json's options, so `@/…` paths resolve as they build);
 * only the cycle search (Tarjan's strongly connected components) is ours.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Each file (absolute path) and the project files it imports. */
export type ImportGraph = Map<string, string[]>;

/**
 * The import graph of `files` (absolute paths): an edge for every import that resolves to another
 * file of the set, with the compiler options of the tsconfig.json at `tsconfigPath`.
 */
export function importGraph(files: readonly string[], tsconfigPath: string): ImportGraph {
  const { options } = readTsconfig(tsconfigPath);
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(path.dirname(tsconfigPath), (f) => f, options);
  const known = new Set(files.map((f) => path.resolve(f)));
  const graph: ImportGraph = new Map();
  for (const file of known) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const to = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, host, cache).resolvedModule;
      const target = resolved && path.resolve(resolved.resolvedFileName);
      if (target && known.has(target) && target !== file) to.add(target);
    }
    graph.set(file, [...to]);
  }
  return graph;
}

/** The TypeScript sources tsconfig.json at `tsconfigPath` compiles (build output and declarations left out). */
export function projectSources(tsconfigPath: string): string[] {
  return readTsconfig(tsconfigPath)
    .fileNames.filter((f) => !f.endsWith(".d.ts") && !/[\\/]\.next[^\\/]*[\\/]/.test(f))
    .map((f) => path.resolve(f));
}

function readTsconfig(tsconfigPath: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfigPath}`);
  return parsed;
}

/**
 * The import cycles of `graph`: each group of files that reach one another (a strongly connected
 * component of more than one file), with the edges inside it, sorted for a stable report.
 */
export function importCycles(graph: ImportGraph): { files: string[]; edges: [string, string][] }[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  // Iterative Tarjan: the graph is deep enough (600+ files) that recursion is best avoided.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { v: string; next: number }[] = [{ v: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const out = graph.get(frame.v) ?? [];
      if (frame.next < out.length) {
        const w = out[frame.next++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, next: 0 });
        } else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(frame.v)!));
      if (low.get(frame.v) === index.get(frame.v)) {
        const group: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          group.push(w);
        } while (w !== frame.v);
        if (group.length > 1) groups.push(group.sort());
      }
    }
  }
  return groups.map((files) => {
    const inside = new Set(files);
    const edges = files.flatMap((f) => (graph.get(f) ?? []).filter((t) => inside.has(t)).map((t): [string, string] => [f, t]));
    return { files, edges };
  });
}
