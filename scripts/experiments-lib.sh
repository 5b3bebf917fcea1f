# experiments-lib.sh: what the scripts that write a results document
# (schedule-experiments.sh, statedep-experiments.sh) share; sourced, not
# run. The caller sets root (the checkout) first.

# experiments_setup: REAL (the real data: REVISIT_REAL_DATA, default
# ../shared/data/real beside the checkout, exported for the commands),
# WORK (a scratch directory: $WORK if set and kept, else a new temporary
# one removed at exit), REVISIT (the binary: built from the checkout into
# WORK unless set), doc (an empty Markdown file in WORK, named $1); then
# changes to WORK, where every command runs.
experiments_setup() {
	REAL=${REVISIT_REAL_DATA:-$root/../shared/data/real}
	REAL=$(cd "$REAL" && pwd)
	if [ -z "${WORK:-}" ]; then
		WORK=$(mktemp -d)
		trap 'rm -rf "$WORK"' EXIT
	fi
	mkdir -p "$WORK"
	if [ -z "${REVISIT:-}" ]; then
		REVISIT=$WORK/revisit
		(cd "$root" && go build -o "$REVISIT" ./cmd/revisit)
	fi
	export REAL
	cd "$WORK"
	doc=$WORK/$1
	: >"$doc"
}

# run reads commands (one per line, as shown in the doc: `revisit ...`, or
# `statedep ...` run with $STATEDEP, with $REAL for the real-data root),
# runs each from $WORK and appends it with its standard output as a
# console block.
run() {
	local line bin
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		case $line in
		statedep\ *) bin=$STATEDEP ;;
		*) bin=$REVISIT ;;
		esac
		{
			echo '```console'
			echo "\$ $line"
			eval "\"\$bin\" ${line#* }"
			echo '```'
			echo
		} >>"$doc"
	done
}
