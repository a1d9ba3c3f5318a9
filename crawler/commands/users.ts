import type { Command } from "commander";
import { action, loadDb, UserInputError } from "./util";
import { CLI_ACTOR, recordAudit } from "../../lib/audit";

/** `campuswatch user add|list|disable|enable`. */
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
        const [db, { createUser }] = await Promise.all([loadDb(), import("../../lib/users")]);
        const u = await createUser(db, { username: opts.username, password: opts.password, role: opts.role as "admin" });
        await recordAudit(db, CLI_ACTOR, { kind: "user", action: "create", targetId: u.id, target: u.username, after: { role: u.role, password: "set" } });
        console.log(`created ${u.role} ${u.username} (id ${u.id})`);
      }),
    );
  user
    .command("password")
    .description("set a user's password (their sessions end; the demo admin's password is set this way)")
    .argument("<username>", "the user's sign-in name")
    .requiredOption("--password <password>", "the new password (8 characters to 72 bytes)")
    .action(
      action(async (username: string, opts: { password: string }) => {
        const [db, { newPasswordSchema }, { resetPassword }] = await Promise.all([loadDb(), import("../../lib/auth/password"), import("../../server/users")]);
        const checked = newPasswordSchema.safeParse(opts.password);
        if (!checked.success) throw new UserInputError(checked.error.issues.map((i) => i.message).join("; "));
        const u = await db.user.findUnique({ where: { username } });
        if (!u) throw new UserInputError(`no user named ${JSON.stringify(username)} (see \`campuswatch user list\`)`);
        await resetPassword(db, u.id, checked.data, CLI_ACTOR);
        console.log(`password of ${u.role} ${u.username} changed; their sessions have ended`);
      }),
    );
  user
    .command("list")
    .description("list users")
    .action(
      action(async () => {
        const db = await loadDb();
        const users = await db.user.findMany({ orderBy: { id: "asc" } });
        for (const u of users) {
          const state = u.disabledAt ? `\tdisabled since ${u.disabledAt.toISOString()}` : "";
          console.log(`${u.id}\t${u.username}\t${u.role}\tlast sign-in ${u.lastSignInAt?.toISOString() ?? "never"}${state}`);
        }
      }),
    );
  for (const disabled of [true, false]) {
    user
      .command(disabled ? "disable" : "enable")
      .description(disabled ? "stop a user signing in (their sessions end at once; their reviews keep their name)" : "let a disabled user sign in again")
      .argument("<username>", "the user's sign-in name")
      .action(
        action(async (username: string) => {
          const [db, { setUserDisabled }, { ValidationError }] = await Promise.all([loadDb(), import("../../server/users"), import("../../lib/validation")]);
          const u = await db.user.findUnique({ where: { username } });
          if (!u) throw new UserInputError(`no user named ${JSON.stringify(username)} (see \`campuswatch user list\`)`);
          // The command line is nobody's session (no user id), so the only rule left is the last admin.
          await setUserDisabled(db, CLI_ACTOR, u.id, disabled).catch((e: unknown) => {
            throw e instanceof ValidationError ? new UserInputError(e.fieldErrors._?.join(" ") ?? e.message) : e;
          });
          console.log(`${disabled ? "disabled" : "enabled"} ${u.role} ${u.username}`);
        }),
      );
  }
}
