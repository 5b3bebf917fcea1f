// Package visits reads and writes crawl observation logs: what a crawler
// saw of each URL at each visit, without any ground truth
// (docs/methods.md#observation-formats). Formats:
//
//   - cdx: Internet Archive Wayback CDX lines, space-separated
//     "urlkey timestamp original mimetype statuscode digest length" (a
//     " CDX …" legend line is skipped; extra trailing fields are ignored);
//   - cdx-json: the Wayback CDX server's JSON form, an array of arrays whose
//     first row names the columns (urlkey, timestamp, statuscode, digest),
//     one row per line;
//   - cdxj: Common Crawl CDXJ, "SURT timestamp {json}" with "digest" and
//     "status" in the JSON object, usually gzip-compressed;
//   - trace: change-bit traces "id<TAB>[[days_since_prev_crawl, changed], …]"
//     (the public Bing crawl trace format), one URL per line;
//   - log-changed, log-digest, log-lastmod: a generic CSV/TSV visit log
//     with a header naming an id column (id, url, urlkey), a time column
//     (time, timestamp, visit_time) and one of changed, digest or
//     last_modified.
//
// Inputs may be compressed in any format internal/decompress reads. A
// change is a digest different from the previous capture's, a changed bit,
// or a Last-Modified later than the previous visit. A capture that saw no
// page (Wayback/CDXJ status 404 or 410, "-" or an empty value in a generic
// log) before the URL's first capture with content is the visit at which
// the page did not exist yet: the first capture then detects the page's
// creation (as replay's virtual crawlers do, docs/methods.md#first-visit).
// Without one, the first capture is a reference only: the URL existed
// before it and nothing is known of its age there.
package visits
