import type { Command } from "commander";
import { action, loadDb, UserInputError } from "./util";
import { CLI_ACTOR, recordAudit } from "../../lib/audit";

/** `--topics`: "all" (every topic) or comma-separated topic ids. */
function parseTopicList(text: string): number[] | null {
  if (text.trim().toLowerCase() === "all") return null;
  const ids = text.split(",").map((s) => s.trim());
  if (ids.some((s) => !/^[1-9]\d{0,9}$/.test(s))) throw new UserInputError(`--topics takes topic ids like 1,2 or \`all\` (got ${JSON.stringify(text)})`);
  return ids.map(Number);
}

/** `campuswatch user add|set|password|list|disable|enable`. */
export function registerUserCommands(program: Command) {
  const user = program.command("user").description("dashboard users");
  user
    .command("add")
    .description("create a user who can sign in to the dashboard")
    .requiredOption("--username <name>", "sign-in name")
    .requiredOption("--password <password>", "password (at least 8 characters; stored as a bcrypt hash)")
    .requiredOption("--role <role>", "admin | reviewer | viewer (read only)")
    .action(
      action(async (opts: { username: string; password: string; role: string }) => {
        const [db, { createUser }] = await Promise.all([loadDb(), import("../../lib/users")]);
        const u = await createUser(db, { username: opts.username, password: opts.password, role: opts.role as "admin" });
        await recordAudit(db, CLI_ACTOR, { kind: "user", action: "create", targetId: u.id, target: u.username, after: { role: u.role, password: "set" } });
        console.log(`created ${u.role} ${u.username} (id ${u.id})`);
      }),
    );
  user
    .command("set")
    .description("change a user's role (their sessions end) and/or the topics they see")
    .argument("<username>", "the user's sign-in name")
    .option("--role <role>", "admin | reviewer | viewer (read only)")
    .option("--topics <ids>", "topic ids the user sees, comma-separated (e.g. 1,2), or `all`")
    .action(
      action(async (username: string, opts: { role?: string; topics?: string }) => {
        const [db, { changeRole, roleSchema, setTopicScope }, { ValidationError }] = await Promise.all([
          loadDb(),
          import("../../server/users"),
          import("../../lib/validation"),
        ]);
        if (opts.role === undefined && opts.topics === undefined) throw new UserInputError("give --role and/or --topics");
        const topics = opts.topics === undefined ? undefined : parseTopicList(opts.topics);
        const role = opts.role === undefined ? undefined : roleSchema.safeParse({ role: opts.role });
        if (role && !role.success) throw new UserInputError(role.error.issues.map((i) => i.message).join("; "));
        const u = await db.user.findUnique({ where: { username } });
        if (!u) throw new UserInputError(`no user named ${JSON.stringify(username)} (see \`campuswatch user list\`)`);
        const refused = (e: unknown) => {
          throw e instanceof ValidationError ? new UserInputError(Object.values(e.fieldErrors).flat().join(" ") || e.message) : e;
        };
        if (role) {
          // The command line is nobody's session (no user id): only the last-admin rule applies.
          await changeRole(db, CLI_ACTOR, u.id, role.data.role).catch(refused);
          console.log(`${u.username} is now ${role.data.role}`);
        }
        if (topics !== undefined) {
          const scope = await setTopicScope(db, CLI_ACTOR, u.id, topics).catch(refused);
          console.log(`${u.username} sees ${scope ? `topics ${scope.join(", ")}` : "all topics"}`);
        }
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
        // Loaded here, not at start-up: the scope helpers bring Prisma's runtime (bench:cli-startup).
        const [db, { SCOPE_SELECT, scopeFromRows }] = await Promise.all([loadDb(), import("../../lib/topic-scope")]);
        const users = await db.user.findMany({ orderBy: { id: "asc" }, include: SCOPE_SELECT });
        for (const u of users) {
          const state = u.disabledAt ? `\tdisabled since ${u.disabledAt.toISOString()}` : "";
          // Only a scoped user gets the column (last, so scripts reading the others keep working).
          const scope = scopeFromRows(u.topicScope);
          const topics = scope ? `\ttopics ${scope.join(",")}` : "";
          console.log(`${u.id}\t${u.username}\t${u.role}\tlast sign-in ${u.lastSignInAt?.toISOString() ?? "never"}${state}${topics}`);
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
