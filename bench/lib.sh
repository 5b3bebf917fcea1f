# bench/lib.sh: what the bench scripts share; sourced (as bench/lib.sh,
# from the checkout's root, where every bench script changes first), not
# run.

# bench_work sets WORK, a new temporary directory removed at exit, and
# BIN, the revisit binary: $BIN when set (another build, to compare), else
# built from this checkout into WORK, so that a leftover bin/revisit
# never stands for the code as it is now.
bench_work() {
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  BIN=${BIN:-}
  if [ -z "$BIN" ]; then
    BIN="$WORK/revisit"
    go build -o "$BIN" ./cmd/revisit
  fi
}

# median prints the median of the numbers on standard input, one per
# line: the middle one, or the mean of the two middle ones for an even
# count.
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
