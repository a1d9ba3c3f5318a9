import type { Command } from "commander";
import { action, intOption, loadDb, UserInputError } from "./util";

/**
 * `campuswatch tokens create|list|revoke`: personal API tokens (lib/api-tokens.ts) for the
 * operator at the machine, who acts for any user (the change is audited as "cli").
 */
export function registerTokenCommands(program: Command) {
  const tokens = program.command("tokens").description("personal API tokens for /api/v1 (stored hashed; a token is shown once)");
  tokens
    .command("create")
    .description("create an API token for a user and print it once")
    .requiredOption("--user <username>", "the token's owner: the API acts as this user, with their role")
    .requiredOption("--name <name>", "what uses it (e.g. 'OA system')")
    .option("--scope <scope>", "read (default) or review", "read")
    .option("--expires-days <n>", "expire after N days (default: never)", intOption("--expires-days", 1))
    .action(
      action(async (o: { user: string; name: string; scope: string; expiresDays?: number }) => {
        const [db, { createApiToken }, { CLI_ACTOR }] = await Promise.all([loadDb(), import("../../lib/api-tokens"), import("../../lib/audit")]);
        const owner = await db.user.findUnique({ where: { username: o.user }, select: { id: true, username: true, role: true } });
        if (!owner) throw new UserInputError(`no user named ${JSON.stringify(o.user)} (see \`campuswatch user list\`)`);
        const { token, info } = await createApiToken(
          db,
          { ...owner, role: owner.role as "admin" },
          { name: o.name, scope: o.scope as "read", expiresInDays: o.expiresDays },
          CLI_ACTOR,
        );
        console.log(
          `created ${info.scope} token ${info.id} "${info.name}" for ${owner.username}${info.expiresAt ? `, expires ${info.expiresAt.toISOString()}` : ""}`,
        );
        console.log("the token (shown only now; only its hash is stored):");
        console.log(token);
      }),
    );
  tokens
    .command("list")
    .description("list API tokens (never the tokens themselves)")
    .option("--user <username>", "only this user's")
    .option("--json", "one JSON object per line")
    .action(
      action(async (o: { user?: string; json?: boolean }) => {
        const [db, { listApiTokens }] = await Promise.all([loadDb(), import("../../lib/api-tokens")]);
        let userId: number | undefined;
        if (o.user) {
          const u = await db.user.findUnique({ where: { username: o.user }, select: { id: true } });
          if (!u) throw new UserInputError(`no user named ${JSON.stringify(o.user)}`);
          userId = u.id;
        }
        const rows = await listApiTokens(db, userId);
        for (const t of rows) {
          const state = t.state;
          if (o.json) console.log(JSON.stringify(t));
          else
            console.log(
              [
                t.id,
                t.username,
                t.name,
                `${t.prefix}…`,
                t.scope,
                state,
                `expires ${t.expiresAt?.toISOString() ?? "never"}`,
                `last used ${t.lastUsedAt?.toISOString() ?? "never"}`,
              ].join("\t"),
            );
        }
        if (!o.json && rows.length === 0) console.log("no API tokens");
      }),
    );
  tokens
    .command("revoke")
    .description("revoke an API token: refused from the next request on")
    .argument("<id>", "token id (see `campuswatch tokens list`)", intOption("id", 1))
    .action(
      action(async (id: number) => {
        const [db, { revokeApiToken }, { CLI_ACTOR }] = await Promise.all([loadDb(), import("../../lib/api-tokens"), import("../../lib/audit")]);
        if (!(await revokeApiToken(db, id, null, CLI_ACTOR))) throw new UserInputError(`no API token ${id}`);
        console.log(`token ${id} revoked`);
      }),
    );
}
