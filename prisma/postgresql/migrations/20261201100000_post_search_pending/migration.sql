-- Nothing to do on PostgreSQL: this migration makes SQLite's FTS5 index fill in bulk (see the
-- SQLite migration of the same name). PostgreSQL's search index (pg_trgm, post_search migration)
-- is kept by PostgreSQL itself. The file exists so both databases list the same migrations.
SELECT 1;
