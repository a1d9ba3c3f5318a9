/**
 * `npm run bench:cli-startup`: how long `campuswatch --help` and `campuswatch crawl once` (no
 * accounts, a fresh SQLite file) take as a user runs them: a new `node bin/campuswatch.mjs`
 * process each time, start-up and exit included. Prints the median of N runs of each.
 *
 *   npm run bench:cli-startup [-- --runs 10 --modes dist,source --baseline DIR]
 *
 * Modes: `dist` is what users run (the ahead-of-time build in dist/, scripts/build-cli.mjs);
 * `source` compiles the TypeScript at run time (tsx, CAMPUSWATCH_CLI_SOURCE=1), as every start did
 * before the build existed; `baseline` runs another checkout's CLI (`--baseline DIR`: an earlier
 * commit, with node_modules and generated/ linked or copied in) to compare with. The modes run in
 * alternating rounds, so a machine busy with other work slows all alike; CPU time is printed too,
 * the process's own whatever else runs. bench:crawl-vs-crawlee imports {@link measureCliStartup}.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "campuswatch.mjs");

/**
 * How the CLI is started: the build in dist/, the TypeScript sources through tsx, or the
 * `baseline` checkout's bin/campuswatch.mjs (an earlier commit, to compare with).
 */
export type CliMode = "dist" | "source" | "baseline";

/** Median start-up of one mode, in milliseconds. */
export interface CliStartup {
  mode: CliMode;
  runs: number;
  /** `campuswatch --help`, wall clock */
  helpMs: number;
  /** `campuswatch crawl once` with no accounts on a fresh (migrated) SQLite file, wall clock */
  crawlOnceMs: number;
  /** CPU time (user + system, all threads) of `--help`: what it costs without waiting for other work on a busy machine */
  helpCpuMs: number;
  /** CPU time of `crawl once` */
  crawlOnceCpuMs: number;
}

/**
 * Preloaded into each timed process (CommonJS: a preload costs next to nothing that way): prints its
 * CPU time as it exits (process.exit included), so the figure is the process's own, whatever else
 * the machine runs.
 */
const CPU_PROBE = `process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").writeSync(2, "\\ncw-cpu-us " + (u.user + u.system) + "\\n"); });\n`;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Run the CLI once: wall-clock and CPU milliseconds. Throws when it fails, so a broken CLI is not timed. */
function timeCli(cli: string, args: string[], env: NodeJS.ProcessEnv, probe: string): { wall: number; cpu: number } {
  const started = performance.now();
  const r = spawnSync(process.execPath, ["--require", probe, cli, ...args], { env, encoding: "utf8" });
  const wall = performance.now() - started;
  if (r.status !== 0) throw new Error(`campuswatch ${args.join(" ")} exited ${r.status}: ${r.stderr.trim()}`);
  const cpu = /cw-cpu-us (\d+)/.exec(r.stderr);
  return { wall, cpu: cpu ? Number(cpu[1]) / 1000 : NaN };
}

/**
 * Measure CLI start-up: `--help` and `crawl once` (no accounts, fresh SQLite file) `runs` times per
 * mode, the modes and the two commands alternating.
 * @param options.runs runs of each command per mode (default 10)
 * @param options.modes which starts to measure (default: only `dist`, what users run)
 * @param options.baseline for mode `baseline`: a checkout of an earlier commit, with node_modules
 *   and generated/ (e.g. `git archive 304e2f2 | tar -x -C DIR`, then link or copy both in)
 * @returns the median of each command per mode
 */
export function measureCliStartup(options: { runs?: number; modes?: readonly CliMode[]; baseline?: string } = {}): CliStartup[] {
  const runs = options.runs ?? 10;
  const modes = options.modes ?? ["dist"];
  if (modes.includes("baseline") && !options.baseline) throw new Error("mode baseline needs options.baseline, a checkout to compare with");
  const cliOf = (mode: CliMode) => (mode === "baseline" ? path.resolve(options.baseline!, "bin", "campuswatch.mjs") : bin);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cw-cli-startup-"));
  try {
    const base: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: `file:${path.join(dir, "cw.db")}`,
      CAMPUSWATCH_DATA_DIR: dir,
      CAMPUSWATCH_CLI_SOURCE: "",
    };
    const envOf = (mode: CliMode): NodeJS.ProcessEnv => (mode === "source" ? { ...base, CAMPUSWATCH_CLI_SOURCE: "1" } : base);
    const probe = path.join(dir, "cpu-probe.cjs");
    fs.writeFileSync(probe, CPU_PROBE);
    // Untimed: migrates the file and, if a source changed, brings dist/ up to date first.
    timeCli(bin, ["db", "migrate"], base, probe);
    const times = new Map(modes.map((m) => [m, { help: [] as { wall: number; cpu: number }[], crawl: [] as { wall: number; cpu: number }[] }]));
    for (let i = 0; i < runs; i++) {
      for (const mode of modes) {
        const t = times.get(mode)!;
        t.help.push(timeCli(cliOf(mode), ["--help"], envOf(mode), probe));
        t.crawl.push(timeCli(cliOf(mode), ["crawl", "once", "--quiet"], envOf(mode), probe));
      }
    }
    return modes.map((mode) => {
      const { help, crawl } = times.get(mode)!;
      return {
        mode,
        runs,
        helpMs: median(help.map((t) => t.wall)),
        crawlOnceMs: median(crawl.map((t) => t.wall)),
        helpCpuMs: median(help.map((t) => t.cpu)),
        crawlOnceCpuMs: median(crawl.map((t) => t.cpu)),
      };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const LABELS: Record<CliMode, string> = {
  dist: "compiled, dist/",
  source: "TypeScript through tsx",
  baseline: "baseline checkout",
};
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The figures as lines for a report: one per mode. */
export function formatCliStartup(results: readonly CliStartup[]): string[] {
  return results.map(
    (r) =>
      `CLI start-up (${LABELS[r.mode]}), median of ${r.runs}: ` +
      `--help ${s(r.helpMs)} (CPU ${s(r.helpCpuMs)}), crawl once with no accounts ${s(r.crawlOnceMs)} (CPU ${s(r.crawlOnceCpuMs)})`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "10" },
      modes: { type: "string" },
      baseline: { type: "string" },
    },
  });
  const modes = (values.modes ?? (values.baseline ? "baseline,source,dist" : "source,dist")).split(",").map((m) => {
    if (m !== "dist" && m !== "source" && m !== "baseline") throw new Error(`--modes: dist, source or baseline, not ${m}`);
    return m;
  });
  console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}`);
  for (const line of formatCliStartup(measureCliStartup({ runs: Number(values.runs), modes, baseline: values.baseline }))) console.log(line);
}
