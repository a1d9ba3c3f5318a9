-- One post, many sources (issue 14): a post is one row per site and platform id, whichever
-- accounts reached it; PostSource lists every account that did.

-- The site of a post (crawler/site-key.ts). Filled for existing rows by `campuswatch db migrate`
-- right after the migrations (lib/post-sources.ts): the key is computed from the account's entry
-- URL, which SQL cannot parse portably.
ALTER TABLE "Post" ADD COLUMN "siteKey" TEXT NOT NULL DEFAULT '';

-- One post per site and platform id. Partial (Prisma cannot express it, and the migrations do
-- not mind an index the schema does not name): rows without a key keep the old rule only, one
-- post per account and platform id. Two crawls inserting the same post at once: one fails on
-- this index and the store retries its page (crawler/store.ts).
CREATE UNIQUE INDEX "Post_siteKey_platformId_key" ON "Post"("siteKey", "platformId") WHERE "siteKey" <> '';

-- CreateTable
CREATE TABLE "PostSource" (
    "postId" INTEGER NOT NULL,
    "accountId" INTEGER NOT NULL,
    "firstSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PostSource_pkey" PRIMARY KEY ("postId","accountId")
);

-- CreateIndex
CREATE INDEX "PostSource_accountId_postId_idx" ON "PostSource"("accountId", "postId");

-- AddForeignKey
ALTER TABLE "PostSource" ADD CONSTRAINT "PostSource_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostSource" ADD CONSTRAINT "PostSource_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every post lists its own account among its sources, whoever inserts it (the store, the demo,
-- a copy): the account filters then need only PostSource.
CREATE FUNCTION post_source_own_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "PostSource"("postId", "accountId", "firstSeenAt") VALUES (NEW."id", NEW."accountId", NEW."firstSeenAt")
  ON CONFLICT ("postId", "accountId") DO NOTHING;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "post_source_ai" AFTER INSERT ON "Post" FOR EACH ROW EXECUTE FUNCTION post_source_own_trg();
CREATE TRIGGER "post_source_au" AFTER UPDATE OF "accountId" ON "Post" FOR EACH ROW EXECUTE FUNCTION post_source_own_trg();

-- Deleting an account keeps the posts other accounts also reached: they move to the source that
-- reached them first (the day roll-ups follow through their UPDATE OF "accountId" triggers)
-- before the cascade (an AFTER trigger in PostgreSQL) removes the posts only this account had.
CREATE FUNCTION post_source_account_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Post" p SET "accountId" = (
    SELECT s."accountId" FROM "PostSource" s
    WHERE s."postId" = p."id" AND s."accountId" <> OLD."id"
    ORDER BY s."firstSeenAt", s."accountId" LIMIT 1
  )
  WHERE p."accountId" = OLD."id"
    AND EXISTS (SELECT 1 FROM "PostSource" s WHERE s."postId" = p."id" AND s."accountId" <> OLD."id");
  RETURN OLD;
END;
$$;
CREATE TRIGGER "post_source_account_bd" BEFORE DELETE ON "Account" FOR EACH ROW EXECUTE FUNCTION post_source_account_trg();

-- Existing posts: their own account is their one source.
INSERT INTO "PostSource"("postId", "accountId", "firstSeenAt") SELECT "id", "accountId", "firstSeenAt" FROM "Post";
