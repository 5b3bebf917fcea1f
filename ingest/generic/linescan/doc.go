// Package linescan splits a stream into lines and tracks each line's 1-based
// number and starting byte offset, for readers of line-oriented formats
// (JSON lines) that must name the position of a bad record.
//
// It is not a CSV reader (it knows nothing of quoting) and, unlike
// bufio.Scanner, it goes on after a line longer than its limit (SetMax; none
// by default), which it passes over without holding, and never drops a last
// line that lacks its newline.
package linescan
