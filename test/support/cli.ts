/**
 * The `campuswatch` CLI as a user runs it: a real child process (never blocking this one, so local
 * servers in the test keep answering), with its output collected.
 */
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** What one CLI run printed and how it exited. */
export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** Run `campuswatch ...args` in `cwd` with `env`; `input`, when given, is piped to its standard input. */
export function runCli(args: readonly string[], { cwd, env, input }: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bin/campuswatch.mjs"), ...args], {
      cwd,
      env,
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (input !== undefined) child.stdin!.end(input, "utf8");
    let out = "";
    let err = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString("utf8")));
    child.stderr!.on("data", (d: Buffer) => (err += d.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}
