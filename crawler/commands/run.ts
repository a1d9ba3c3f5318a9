import type { Command } from "commander";
import { startScheduler } from "./crawl";
import { HOST_OPTION_HELP, printSetupLinkIfNeeded, startDashboard } from "./serve";
import { action, intOption, loadDb } from "./util";

/** `campuswatch run`: dashboard + scheduler (+ the demo site) in one foreground process. */
export function registerRunCommand(program: Command) {
  program
    .command("run")
    .description("run the dashboard and the scheduler together (what `npm start` runs)")
    .option("--port <port>", "dashboard port", intOption("--port", 1), Number(process.env.PORT ?? 3000))
    .option("--host <host>", HOST_OPTION_HELP)
    .option("--demo", "also serve the demo platform site and register its accounts")
    .option("--demo-port <port>", "demo site port", intOption("--demo-port", 1), Number(process.env.CAMPUSWATCH_DEMO_PORT ?? 3999))
    .option("--host-delay-ms <n>", "minimum delay between requests to one host", intOption("--host-delay-ms", 0))
    .action(
      action(async (o: { port: number; host?: string; demo?: boolean; demoPort: number; hostDelayMs?: number }) => {
        const demoModule = o.demo ? await import("../demo") : null;
        const demo = demoModule ? await demoModule.startDemoSite(o.demoPort) : null;
        if (demoModule && demo) {
          await demoModule.seedDemo(await loadDb(), demo.site, (m) => console.log(m));
          console.log(`demo site: ${demo.site.origin}`);
        }
        // On PostgreSQL the scheduler only enqueues: one worker runs here so `run` still crawls by itself.
        const { done } = await startScheduler({ hostDelayMs: o.hostDelayMs ?? (demo ? 200 : undefined), workers: 1 });
        await printSetupLinkIfNeeded(o.port);
        // The server prints where it listens (and how to reach it from elsewhere when on loopback).
        const dashboard = startDashboard(o.port, o.host);
        dashboard.on("exit", (code) => {
          if (code) console.error(`dashboard exited with code ${code}`);
          process.kill(process.pid, "SIGTERM");
        });
        await done;
        dashboard.kill("SIGTERM");
        await demo?.close();
      }),
    );
}
