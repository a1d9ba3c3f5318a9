-- The full-text index is written in bulk, not post by post (issue 17). Indexing each new post in
-- its page's transaction made the trigram FTS5 index write a small segment at every commit and
-- merge them again: about half of the CPU of storing a post. Now the triggers only queue the post
-- in "post_fts_pending", and lib/search-index.ts moves the queue into the index in one statement:
-- the crawler at the end of each account's run, and every search before it reads the index, so a
-- search still finds every stored post. A deleted or edited post leaves the index at once (the
-- contentless index forgets a rowid without its text; forgetting one not yet indexed does nothing)
-- and an edited one is queued again.
CREATE TABLE "post_fts_pending" ("postId" INTEGER NOT NULL PRIMARY KEY);

DROP TRIGGER "post_fts_ai";
CREATE TRIGGER "post_fts_ai" AFTER INSERT ON "Post" BEGIN
  INSERT OR IGNORE INTO "post_fts_pending"("postId") VALUES (new."id");
END;
DROP TRIGGER "post_fts_au";
CREATE TRIGGER "post_fts_au" AFTER UPDATE OF "title", "text", "ocrText" ON "Post" BEGIN
  DELETE FROM "post_fts" WHERE rowid = old."id";
  INSERT OR IGNORE INTO "post_fts_pending"("postId") VALUES (new."id");
END;
DROP TRIGGER "post_fts_ad";
CREATE TRIGGER "post_fts_ad" AFTER DELETE ON "Post" BEGIN
  DELETE FROM "post_fts" WHERE rowid = old."id";
  DELETE FROM "post_fts_pending" WHERE "postId" = old."id";
END;
