/**
 * Rows for the API spec (api-v1.spec.ts): a post with an earlier version and two flags of the topic,
 * and an incident — their own, so reviewing through the API changes nothing another spec reads. The
 * post's title and text are hostile (markup, a CDATA end, a control character): the Atom feed must
 * escape them.
 */
import type { Db } from "../../lib/db";

export const HOSTILE_TITLE = '考试作弊 <script>alert("feed")</script> ]]> & \u0001 end';

export async function seedApi(db: Db, topicId: number) {
  const account = await db.account.create({ data: { platform: "blog", entryUrl: "http://127.0.0.1:9/api-fixture/", name: "API fixture", enabled: false } });
  const published = new Date("2026-11-30T02:00:00Z");
  const post = (n: number, title: string) =>
    db.post.create({
      data: {
        accountId: account.id,
        platformId: `api-${n}`,
        url: `http://127.0.0.1:9/api-fixture/${n}`,
        title,
        text: `正文 ${n} <b>考试</b>`,
        publishedAt: published,
        sha1: `api-${n}`,
        version: n === 1 ? 2 : 1,
      },
    });
  const first = await post(1, HOSTILE_TITLE);
  const second = await post(2, "第二个考试帖子");
  await db.postVersion.create({ data: { postId: first.id, version: 1, title: "旧标题", text: "旧正文", sha1: "api-1-old", seenAt: published } });
  const reviewFlag = await db.flag.create({ data: { postId: first.id, topicId, reasons: JSON.stringify([{ kind: "keyword", detail: "作弊" }]), score: 0.9 } });
  const openFlag = await db.flag.create({ data: { postId: second.id, topicId, reasons: "[]", score: 0.8 } });
  const incident = await db.incident.create({
    data: { status: "open", title: "期末考试作弊", topicId, firstSeenAt: published, lastSeenAt: published, size: 2, representativePostId: first.id },
  });
  return { accountId: account.id, postId: first.id, reviewFlagId: reviewFlag.id, openFlagId: openFlag.id, incidentId: incident.id, topicId };
}
