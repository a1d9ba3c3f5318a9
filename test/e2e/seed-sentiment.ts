/**
 * Data for sentiment-rules.spec.ts, written by server.ts: three posts (texts written for the test)
 * on a disabled account, a month old so they never top the lists other specs read, classified by
 * the product's own classifyPosts (no topic: only their sentiment, from the built-in lexicon, as
 * no model file is installed in the e2e data directory).
 */
import { classifyPosts } from "../../crawler/classify";
import type { Db } from "../../lib/db";

/** The titles, by the sentiment the lexicon gives them. */
export const SENTIMENT_TITLES = {
  negative: "情感测试：食堂饭菜难吃还有虫子，投诉无门",
  positive: "情感测试：感谢图书馆老师耐心帮忙，非常满意",
  neutral: "情感测试：教务处通知下周一开始选课",
} as const;

export async function seedSentiment(db: Db, now = new Date()): Promise<void> {
  const account = await db.account.create({
    data: { platform: "blog", entryUrl: "https://blog.example.edu.cn/e2e-sentiment/", name: "E2E 情感", enabled: false },
  });
  const at = now.getTime() - 30 * 86_400_000;
  const ids: number[] = [];
  for (const [i, title] of Object.values(SENTIMENT_TITLES).entries()) {
    const post = await db.post.create({
      data: {
        accountId: account.id,
        platformId: `e2e-sentiment-${i}`,
        kind: "post",
        url: `https://blog.example.edu.cn/e2e-sentiment/${i}`,
        title,
        text: title,
        publishedAt: new Date(at + i * 60_000),
        sha1: `e2e-sentiment-${i}`,
      },
    });
    ids.push(post.id);
  }
  await classifyPosts(db, ids, { topics: [] });
}
