import type { Command } from "commander";
import { db } from "../../lib/db";
import { createUser } from "../../lib/users";
import { action } from "./util";

/** `campuswatch user add|list`. */
export function registerUserCommands(program: Command) {
  const user = program.command("user").description("dashboard users");
  user
    .command("add")
    .description("create a user who can sign in to the dashboard")
    .requiredOption("--username <name>", "sign-in name")
    .requiredOption("--password <password>", "password (at least 8 characters; stored as a bcrypt hash)")
    .requiredOption("--role <role>", "admin | reviewer")
    .action(
      action(async (opts: { username: string; password: string; role: string }) => {
        const u = await createUser(db, { username: opts.username, password: opts.password, role: opts.role as "admin" });
        console.log(`created ${u.role} ${u.username} (id ${u.id})`);
      }),
    );
  user
    .command("list")
    .description("list users")
    .action(
      action(async () => {
        const users = await db.user.findMany({ orderBy: { id: "asc" } });
        for (const u of users) {
          console.log(`${u.id}\t${u.username}\t${u.role}\tlast sign-in ${u.lastSignInAt?.toISOString() ?? "never"}`);
        }
      }),
    );
}
