import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { action, intOption, loadDb } from "./util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `--host`'s help: the default itself lives in one place, lib/config.ts dashboardHost (applied by the server). */
export const HOST_OPTION_HELP = "interface the dashboard listens on (default: CAMPUSWATCH_HOST, else 127.0.0.1: this machine only)";

/**
 * Start the production dashboard (bin/dashboard-server.mjs: Next.js's request handler behind a
 * server that knows each client's address) as a child process. The build must exist (`npm run build`).
 * Without `host` the server picks its default (CAMPUSWATCH_HOST, else loopback).
 */
export function startDashboard(port: number, host?: string) {
  const args = [path.join(root, "bin", "dashboard-server.mjs"), "--port", String(port), ...(host ? ["--host", host] : [])];
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  return child;
}

/**
 * On a database without users, print the one-time link that creates the first admin (there is no
 * default login). The link's address is CAMPUSWATCH_PUBLIC_URL, else this machine on `port`.
 */
export async function printSetupLinkIfNeeded(port: number): Promise<void> {
  const [db, { publicUrl }, { setupLinkMessage }] = await Promise.all([loadDb(), import("../../lib/config"), import("../../lib/auth/setup")]);
  const message = await setupLinkMessage(db, publicUrl() ?? `http://localhost:${port}`);
  if (message) console.log(message);
}

/** `campuswatch serve --port P`. */
export function registerServeCommand(program: Command) {
  program
    .command("serve")
    .description("serve the dashboard (production build; run `npm run build` first)")
    .option("--port <port>", "port", intOption("--port", 1), 3000)
    .option("--host <host>", HOST_OPTION_HELP)
    .action(
      action(async (o: { port: number; host?: string }) => {
        // A malformed CAMPUSWATCH_ALLOW_INTERNAL stops here, not at the first image or notification.
        (await import("../../lib/config")).allowInternalFromEnv();
        await printSetupLinkIfNeeded(o.port);
        const child = startDashboard(o.port, o.host);
        const stop = () => child.kill("SIGTERM");
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        await new Promise<void>((resolve) => child.on("exit", () => resolve()));
      }),
    );
}
