-- One post, many sources (issue 14): a post is one row per site and platform id, whichever
-- accounts reached it; PostSource lists every account that did.
-- Written by hand: Prisma would redefine "Post" to add a column, which drops the search triggers.

-- The site of a post (crawler/site-key.ts). Filled for existing rows by `campuswatch db migrate`
-- right after the migrations (lib/post-sources.ts): the key is computed from the account's entry
-- URL, which SQL cannot parse portably.
ALTER TABLE "Post" ADD COLUMN "siteKey" TEXT NOT NULL DEFAULT '';

-- One post per site and platform id. Partial (Prisma cannot express it, and `migrate deploy`
-- does not mind an index the schema does not name): rows without a key keep the old rule only,
-- one post per account and platform id.
CREATE UNIQUE INDEX "Post_siteKey_platformId_key" ON "Post"("siteKey", "platformId") WHERE "siteKey" <> '';

-- CreateTable
CREATE TABLE "PostSource" (
    "postId" INTEGER NOT NULL,
    "accountId" INTEGER NOT NULL,
    "firstSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("postId", "accountId"),
    CONSTRAINT "PostSource_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PostSource_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PostSource_accountId_postId_idx" ON "PostSource"("accountId", "postId");

-- Every post lists its own account among its sources, whoever inserts it (the store, the demo,
-- a copy): the account filters then need only PostSource.
CREATE TRIGGER "post_source_ai" AFTER INSERT ON "Post" BEGIN
  INSERT INTO "PostSource"("postId", "accountId", "firstSeenAt") VALUES (new."id", new."accountId", new."firstSeenAt")
  ON CONFLICT("postId", "accountId") DO NOTHING;
END;
CREATE TRIGGER "post_source_au" AFTER UPDATE OF "accountId" ON "Post" BEGIN
  INSERT INTO "PostSource"("postId", "accountId", "firstSeenAt") VALUES (new."id", new."accountId", new."firstSeenAt")
  ON CONFLICT("postId", "accountId") DO NOTHING;
END;

-- Deleting an account keeps the posts other accounts also reached: they move to the source that
-- reached them first (the day roll-ups follow through their UPDATE OF "accountId" triggers)
-- before the cascade removes the posts only this account had.
CREATE TRIGGER "post_source_account_bd" BEFORE DELETE ON "Account" BEGIN
  UPDATE "Post" SET "accountId" = (
    SELECT s."accountId" FROM "PostSource" s
    WHERE s."postId" = "Post"."id" AND s."accountId" <> old."id"
    ORDER BY s."firstSeenAt", s."accountId" LIMIT 1
  )
  WHERE "accountId" = old."id"
    AND EXISTS (SELECT 1 FROM "PostSource" s WHERE s."postId" = "Post"."id" AND s."accountId" <> old."id");
END;

-- Existing posts: their own account is their one source.
INSERT INTO "PostSource"("postId", "accountId", "firstSeenAt") SELECT "id", "accountId", "firstSeenAt" FROM "Post";
