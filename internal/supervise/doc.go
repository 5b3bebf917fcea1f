// Package supervise runs revisit's work in a child process and maps how
// that process ended to SPEC §8's exit codes, passes the interrupting
// signals on, turns them into a cancelled context, and notices a standard
// output that can no longer be written; Ending says, in SPEC §8's lines,
// why a command failed and chooses its exit code. It is not a command
// line: it knows no flag and no stage, only processes, signals, exit codes
// and the command's name and usage line that the command line gives it.
package supervise
