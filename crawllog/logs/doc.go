// Package logs reads and writes crawl observation logs: what a crawler
// saw of each URL at each visit (series.Observed), without any ground
// truth (docs/methods.md#observation-formats). It reads and writes; the
// estimation of what it reads is package crawllog.
//
// Each format is one entry of one table (formats.go: its name, help line,
// file extension, sniffer, first-line setup, line reader and writer), which
// detection, Read, Writer, ParseFormat and FormatHelp (`revisit estimate
// --help`) all consult; a format's code is its own file. Formats:
//
//   - cdx: Internet Archive Wayback CDX lines, space-separated
//     "urlkey timestamp original mimetype statuscode digest length"; a
//     " CDX N b a m s k …" legend line names the columns and every line
//     must have its fields (without one: 7, 9 or 11, as the first line);
//     the CDX server's pagination footer (an empty line, the resume key) is
//     counted and passed over;
//   - cdx-json: the Wayback CDX server's JSON form, an array of arrays whose
//     first row names the columns (urlkey, timestamp, statuscode, digest,
//     mimetype), one row per line; the footer [], ["key"] is passed over;
//   - cdxj: pywb / Common Crawl CDXJ, "SURT timestamp {json}" with
//     "digest", "status" and "mime" in the JSON object, usually gzip;
//   - ZipNum shards and clusters of either (zipnum.go): a gzip file is read
//     member by member, a member that ends inside a line ending it (a
//     block); a cluster is read from its .idx, block by block, from the
//     shards its .loc names;
//   - cc-json: Common Crawl's index server output=json, one object per line
//     with urlkey, timestamp, status, digest and mime;
//   - trace: the Bing change trace "URL_ID<TAB>first_crawl_offset<TAB>
//     [[days_since_prev_crawl, changed], …]" or "id<TAB>[[…], …]", one URL
//     per line, with its companion importance and URL files;
//   - log-changed, log-digest, log-lastmod: a generic CSV/TSV visit log
//     with a header naming an id column (id, url, urlkey), a time column
//     (time, timestamp, visit_time) and one of changed, digest or
//     last_modified.
//
// Inputs may be compressed in any format internal/decompress reads. A
// revisit record takes the status of the capture of the same URL with its
// digest (docs/methods.md#observation-formats). A
// change is a digest different from the previous capture's, a changed bit,
// or a Last-Modified later than the previous visit. A capture that saw no
// page (Wayback/CDXJ status 404 or 410, "-" or an empty value in a generic
// log) before the URL's first capture with content is the visit at which
// the page did not exist yet: the first capture then detects the page's
// creation (as replay's virtual crawlers do, docs/methods.md#first-visit).
// Without one, the first capture is a reference only: the URL existed
// before it and nothing is known of its age there.
//
// Options.Range reads only byte range i of N of the inputs, taken as one
// stream (ranges.go): uncompressed traces, and CDX or CDXJ indexes read
// with Sorted, cut between lines and never inside a urlkey's lines, so
// that the ranges one after the other read what one read reads
// (PlanRanges says whether inputs allow it). Trace ids are checked
// against the last one only while they increase, else against 128-bit
// hashes of them all, counted under MaxObservations (traceids.go).
package logs
