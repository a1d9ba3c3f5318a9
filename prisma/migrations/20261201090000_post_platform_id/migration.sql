-- The store looks up a page's posts by platform id on their site (site key, or the account's own
-- rows) and moves a thread's last-reply time by platform id: with neither index usable for that
-- OR, each page scanned the whole Post table (issue 17). Written by hand: CREATE only.
CREATE INDEX "Post_platformId_idx" ON "Post"("platformId");
