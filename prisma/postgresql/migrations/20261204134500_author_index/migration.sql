-- CreateIndex
CREATE INDEX "Post_authorId_publishedAt_id_idx" ON "Post"("authorId", "publishedAt", "id");
