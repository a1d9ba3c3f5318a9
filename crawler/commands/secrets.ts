import type { Command } from "commander";
import { action, loadDb } from "./util";

/** `campuswatch secrets rotate`: re-seal every stored secret under a new instance secret (lib/secret-rotate.ts). */
export function registerSecretCommands(program: Command) {
  const secrets = program.command("secrets").description("the instance secret that seals stored credentials and signs sessions");
  secrets
    .command("rotate")
    .description(
      "re-seal every stored credential (cookies, proxies, signing secrets) under a new secret and switch to it; " +
        "stop CampusWatch first: every dashboard session ends",
    )
    .option("--new-secret-file <file>", "the new secret (32+ characters); required when CAMPUSWATCH_SECRET is set, else a random one is made")
    .action(
      action(async (o: { newSecretFile?: string }) => {
        const [db, { rotateInstanceSecret }] = await Promise.all([loadDb(), import("../../lib/secret-rotate")]);
        const { counts, switched } = await rotateInstanceSecret(db, { newSecretFile: o.newSecretFile });
        // Counts only: no secret, sealed or not, is ever printed.
        for (const c of counts) console.log(`${c.table}.${c.column}: ${c.resealed} re-sealed, ${c.unchanged} already under the new secret`);
        console.log(
          switched === "file"
            ? "the data directory's session-secret now holds the new secret"
            : "now set CAMPUSWATCH_SECRET to the new secret (the file's content) wherever CampusWatch runs",
        );
        console.log("every dashboard session has ended (sign in again); restart every CampusWatch process so that it reads the new secret");
      }),
    );
}
