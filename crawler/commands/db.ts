import type { Command } from "commander";
import { action, loadDb } from "./util";

/** `campuswatch db migrate`, `campuswatch db copy`. */
export function registerDbCommands(program: Command) {
  const db = program.command("db").description("database maintenance");
  db.command("migrate")
    .description("apply pending migrations to the database at DATABASE_URL (default ./data/campuswatch.db)")
    .action(
      action(async () => {
        const [{ databaseUrl, redactUrl }, { migrateDatabase }] = await Promise.all([import("../../lib/config"), import("../../lib/migrate")]);
        const url = databaseUrl();
        const { output } = await migrateDatabase(url);
        const applied = /No pending migrations/.test(output) ? "already up to date" : "migrated";
        console.log(`database ${redactUrl(url)}: ${applied}`);
        // Posts stored before site keys existed get theirs right after the migrations (lib/post-sources.ts).
        const keys = /^site keys: .*$/m.exec(output);
        if (keys) console.log(keys[0]);
        // Secrets older versions stored in plaintext (or sealed v1, bound to no row) are sealed now.
        const [db, { maskNotificationTargets, sealAtRest }, { sessionSecret }] = await Promise.all([
          loadDb(),
          import("../../lib/secret-rotate"),
          import("../../lib/config"),
        ]);
        for (const c of await sealAtRest(db, sessionSecret)) {
          const unreadable = c.unreadable ? `, ${c.unreadable} that cannot be opened left as they are (set them again)` : "";
          console.log(`secrets at rest: ${c.table}.${c.column}: ${c.resealed} sealed${unreadable}`);
        }
        // Robot URLs older versions logged whole with each notification keep only their origin.
        const masked = await maskNotificationTargets(db);
        if (masked > 0) console.log(`secrets at rest: Notification.target: ${masked} robot URLs masked`);
      }),
    );
  db.command("copy")
    .description("copy a SQLite database into a new, empty PostgreSQL database (moving to PostgreSQL to scale out)")
    .requiredOption("--from <url>", "the SQLite database, e.g. file:./data/campuswatch.db")
    .requiredOption("--to <url>", "the PostgreSQL database, e.g. postgresql://user:pass@host:5432/campuswatch (must be empty)")
    .action(
      action(async (o: { from: string; to: string }) => {
        const started = performance.now();
        const { copySqliteToPostgres } = await import("../../lib/db-copy");
        const copied = await copySqliteToPostgres(o.from, o.to, { log: (l) => console.log(`  ${l}`) });
        const rows = copied.reduce((n, t) => n + t.rows, 0);
        console.log(
          `copied ${rows.toLocaleString("en-US")} rows in ${copied.length} tables in ${((performance.now() - started) / 1000).toFixed(1)} s; set DATABASE_URL to the PostgreSQL URL to use it`,
        );
      }),
    );
}
