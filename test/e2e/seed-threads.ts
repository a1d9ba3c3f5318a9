/**
 * Data for field-ready.spec.ts, written straight into the e2e database by server.ts: a Tieba
 * thread whose floors have 楼中楼 (one floor deleted on the platform and flagged), a Weibo long
 * post whose full text is missing, and a crawl run with unreadable fields whose raw text is
 * hostile HTML. The account is disabled so the scheduler never crawls it; the dates are a month
 * old so these rows never top the lists other specs read.
 */
import type { Db } from "../../lib/db";

export interface ThreadIds {
  accountId: number;
  thread: number;
  floor: number;
  sub: number;
  deletedFloor: number;
  longPost: number;
  run: number;
}

export async function seedThreads(db: Db, topicId: number, now = new Date()): Promise<ThreadIds> {
  const base = now.getTime() - 30 * 86_400_000;
  const at = (min: number) => new Date(base + min * 60_000);
  const account = await db.account.create({
    data: { platform: "tieba", entryUrl: "https://tieba.baidu.com/f?kw=e2e%E6%A5%BC%E4%B8%AD%E6%A5%BC", name: "E2E 楼中楼吧", enabled: false },
  });
  let n = 0;
  const post = (d: {
    platformId: string;
    kind?: string;
    parentId?: number;
    title?: string;
    author: string;
    authorId?: string;
    text: string;
    min: number;
    deletedAt?: Date;
    incomplete?: boolean;
  }) =>
    db.post.create({
      data: {
        accountId: account.id,
        platformId: d.platformId,
        kind: d.kind ?? "reply",
        parentId: d.parentId ?? null,
        url: `https://tieba.baidu.com/p/7001?pid=${d.platformId}&n=${n++}`,
        title: d.title ?? "",
        author: d.author,
        authorId: d.authorId ?? "",
        publishedAt: at(d.min),
        text: d.text,
        sha1: `e2e-${d.platformId}`,
        deletedAt: d.deletedAt ?? null,
        incomplete: d.incomplete ?? false,
      },
    });
  const thread = await post({
    platformId: "7001",
    kind: "post",
    title: "E2E 楼中楼测试帖",
    author: "发帖人",
    authorId: "tb.1.owner",
    text: "楼主的正文",
    min: 0,
  });
  const floor = await post({ platformId: "8001", parentId: thread.id, author: "二楼", authorId: "tb.1.floor2", text: "二楼的回帖", min: 5 });
  const sub = await post({ platformId: "9001", parentId: floor.id, author: "楼中楼网友", authorId: "tb.1.sub", text: "回复 二楼：楼中楼的回复", min: 6 });
  const deletedFloor = await post({
    platformId: "8002",
    parentId: thread.id,
    author: "三楼",
    text: "三楼说考试作弊",
    min: 7,
    deletedAt: new Date(now.getTime() - 86_400_000),
  });
  await db.flag.create({
    data: { postId: deletedFloor.id, topicId, reasons: JSON.stringify([{ kind: "sensitive", detail: "作弊" }]), score: 0.9, status: "dismissed" },
  });
  const longPost = await post({ platformId: "M7001", kind: "post", author: "E2E 微博长文", text: "长微博的开头……", min: 8, incomplete: true });
  const run = await db.crawlRun.create({
    data: {
      accountId: account.id,
      status: "ok",
      startedAt: at(9),
      finishedAt: at(10),
      warningCount: 1,
      warnings: JSON.stringify([
        {
          at: at(9).toISOString(),
          url: "https://tieba.baidu.com/p/7001?pn=3",
          field: "date",
          raw: "<img src=x onerror=\"alert('xss-warning')\">楼主 … 25:61",
          reason: "the thread's date",
        },
      ]),
    },
  });
  return { accountId: account.id, thread: thread.id, floor: floor.id, sub: sub.id, deletedFloor: deletedFloor.id, longPost: longPost.id, run: run.id };
}
