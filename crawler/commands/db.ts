import type { Command } from "commander";
import { databaseUrl } from "../../lib/config";
import { migrateDatabase } from "../../lib/migrate";
import { action } from "./util";

/** `campuswatch db migrate`. */
export function registerDbCommands(program: Command) {
  const db = program.command("db").description("database maintenance");
  db.command("migrate")
    .description("apply pending migrations to the database at DATABASE_URL (default ./data/campuswatch.db)")
    .action(
      action(async () => {
        const url = databaseUrl();
        const { output } = await migrateDatabase(url);
        const applied = /No pending migrations/.test(output) ? "already up to date" : "migrated";
        console.log(`database ${url}: ${applied}`);
      }),
    );
}
