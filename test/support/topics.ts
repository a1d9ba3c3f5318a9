/**
 * Shared by the topic tests: the topic commands run in-process on a test database (a tiny program
 * like crawler/cli.ts), and a few campus posts to classify.
 */
import { Command, CommanderError } from "commander";
import { vi } from "vitest";
import { registerTopicCommands } from "../../crawler/commands/topics";
import type { Db } from "../../lib/db";
import { sealChannelSecrets } from "../../server/topic-channels";

/** Run `campuswatch topics …` (args after "campuswatch") on `db`; what it printed and its exit code. */
export async function runTopicsCli(db: Db, ...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const program = new Command().name("campuswatch").exitOverride();
  program.configureOutput({ writeOut: (s) => out.push(s.trimEnd()), writeErr: (s) => err.push(s.trimEnd()) });
  registerTopicCommands(program, { db, io: { out: (l) => out.push(l), err: (l) => err.push(l) } });
  for (const c of program.commands) for (const sub of c.commands) sub.exitOverride();
  // The CLI's action wrapper (crawler/commands/util.ts) prints the one-line reason with console.error.
  const consoleError = vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
  process.exitCode = undefined;
  let code = 0;
  try {
    await program.parseAsync(["node", "campuswatch", ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    code = e.exitCode;
  } finally {
    consoleError.mockRestore();
  }
  process.exitCode = undefined;
  return { code, out, err };
}

/** Store `texts` as posts of one campus forum account (one a day from 2025-06-01); their ids in order. */
export async function seedCampusPosts(db: Db, texts: readonly string[]): Promise<{ accountId: number; ids: number[] }> {
  const account = await db.account.create({ data: { platform: "discuz", entryUrl: "https://bbs.example.edu.cn/forum-2-1.html", name: "校园论坛" } });
  const ids: number[] = [];
  for (const [i, text] of texts.entries()) {
    const post = await db.post.create({
      data: {
        accountId: account.id,
        platformId: `p${i + 1}`,
        url: `https://bbs.example.edu.cn/thread-${i + 1}-1-1.html`,
        title: "",
        publishedAt: new Date(Date.UTC(2025, 5, 1 + i)),
        text,
        sha1: `sha${i + 1}`,
      },
    });
    ids.push(post.id);
  }
  return { accountId: account.id, ids };
}

/**
 * A topic row written directly (as the crawl tests need it) with notification channels stored as
 * the settings form stores them: robot URLs and secrets sealed, bound to the row, with the URLs'
 * masked forms (server/topic-channels.ts sealChannelSecrets).
 */
export async function createTopicWithChannels(
  db: Db,
  data: { name: string } & Record<string, unknown>,
  channels: Parameters<typeof sealChannelSecrets>[0],
): Promise<{ id: number; name: string }> {
  const topic = await db.topic.create({ data, select: { id: true, name: true } });
  await db.topic.update({ where: { id: topic.id }, data: sealChannelSecrets(channels, topic.id), select: { id: true } });
  return topic;
}
