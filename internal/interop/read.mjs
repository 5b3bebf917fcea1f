// Reads a revisit dataset with DuckDB alone and prints one JSON object per
// page: what DuckDB sees of pages.parquet (SPEC §2), for interop_test.go.
// Usage: node read.mjs DATASET_DIR
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node read.mjs DATASET_DIR');
  process.exit(2);
}
const glob = `${dir.replaceAll("'", "''")}/pages*.parquet`;
const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
const sql = `
  SELECT page_id, source, title, namespace, "group", n_updates, n_collapsed, resolution_s,
         len(updates)                              AS list_len,
         typeof(first)                             AS first_type,
         typeof(updates[1])                        AS update_type,
         CAST(epoch(first) AS BIGINT)              AS first_s,
         CAST(epoch(last) AS BIGINT)               AS last_s,
         updates[1] = first                        AS first_matches,
         updates[len(updates)] = last              AS last_matches,
         list_sort(updates) = updates              AS sorted,
         len(list_distinct(updates)) = len(updates) AS unique_times
  FROM read_parquet('${glob}')
  ORDER BY page_id`;
const reader = await conn.runAndReadAll(sql);
for (const row of reader.getRowObjectsJson()) {
  console.log(JSON.stringify(row));
}
