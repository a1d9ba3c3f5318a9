import { spawn } from "node:child_process";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { action, intOption } from "./util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Start the production dashboard (`next start`) as a child process; resolves when it exits.
 * The build must exist (`npm run build`).
 */
export function startDashboard(port: number, host = "0.0.0.0") {
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const child = spawn(process.execPath, [nextBin, "start", "-p", String(port), "-H", host], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  return child;
}

/** `campuswatch serve --port P`. */
export function registerServeCommand(program: Command) {
  program
    .command("serve")
    .description("serve the dashboard (production build; run `npm run build` first)")
    .option("--port <port>", "port", intOption("--port", 1), 3000)
    .option("--host <host>", "interface to listen on", "0.0.0.0")
    .action(
      action(async (o: { port: number; host: string }) => {
        const child = startDashboard(o.port, o.host);
        const stop = () => child.kill("SIGTERM");
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        await new Promise<void>((resolve) => child.on("exit", () => resolve()));
      }),
    );
}
