#!/usr/bin/env bash
# Runs the Slurm examples of docs/scale-out.md on a real single-node Slurm
# (controller and node on this machine) and checks that the sharded,
# merged outputs equal one process's byte for byte.
#
#   scripts/slurm-test.sh BIN [SHARDS]
#
# It installs Debian's slurm-wlm daemons and munge when they are missing
# (as root, with apt-get), starts munged (unless one answers already),
# slurmctld and slurmd with a configuration of its own in a temporary
# directory (SLURM_CONF; /etc/slurm is not touched), submits
# docs/slurm/pipeline.sh (a replay array, its merge, an analyze array, its
# merge), compares, and stops the daemons it started by their PIDs.
#
# Exit 0: identical; 1: a difference or a failed job; 77: Slurm could not
# be installed or started here (the caller skips, with the reason printed).
set -uo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shards=${2:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "slurm-test: SKIP: $*" >&2; exit 77; }
say() { echo "slurm-test: $*" >&2; }

[ -x "$bin" ] || { echo "slurm-test: no binary at $bin" >&2; exit 1; }

need_install=0
for c in sbatch slurmctld slurmd munged; do command -v "$c" >/dev/null 2>&1 || need_install=1; done
if [ "$need_install" = 1 ]; then
  [ "$(id -u)" = 0 ] || skip "Slurm is not installed and this user cannot install it (not root)"
  command -v apt-get >/dev/null 2>&1 || skip "Slurm is not installed and there is no apt-get"
  say "installing slurmd slurmctld slurm-client munge (Debian packages)"
  export DEBIAN_FRONTEND=noninteractive
  if ! timeout 150 apt-get install -y -qq --no-install-recommends slurmd slurmctld slurm-client munge >/dev/null 2>&1; then
    timeout 90 apt-get update -qq >/dev/null 2>&1 || true
    timeout 150 apt-get install -y -qq --no-install-recommends slurmd slurmctld slurm-client munge >/dev/null 2>&1 ||
      skip "apt-get could not install slurmd slurmctld slurm-client munge within the time allowed"
  fi
fi
[ -f /etc/munge/munge.key ] || skip "munge is installed but /etc/munge/munge.key is missing"

S=$(mktemp -d "${TMPDIR:-/tmp}/revisit-slurm.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! (munge -n | unmunge) >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || skip "munged is not running and this user cannot start it"
  mkdir -p /run/munge && chown munge:munge /run/munge
  runuser -u munge -- /usr/sbin/munged -F >"$S/munged.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do (munge -n | unmunge) >/dev/null 2>&1 && break; sleep 0.1; done
  (munge -n | unmunge) >/dev/null 2>&1 || skip "munged did not start: $(tail -3 "$S/munged.out")"
fi

host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {printf "%d", $2/1024*0.8}' /proc/meminfo)
mkdir -p "$S"/{state,spool,log}
cat >"$S/slurm.conf" <<EOF
ClusterName=revisit-test
SlurmctldHost=$host
SlurmctldPort=$((20000 + RANDOM % 20000))
SlurmdPort=$((40000 + RANDOM % 20000))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=1
MinJobAge=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$S/slurm.conf
slurmctld -D -c -f "$SLURM_CONF" >"$S/log/ctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$S/log/slurmd.out" 2>&1 &
pids+=($!)
ok=0
for _ in $(seq 120); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && { ok=1; break; }
  sleep 0.5
done
[ "$ok" = 1 ] || skip "slurmctld/slurmd did not come up within 60 s: $(tail -3 "$S/log/slurmctld.log" 2>/dev/null)"
say "Slurm is up: node $host, $cpus CPUs, ${mem} MB"

export PATH="$(dirname "$bin"):$PATH"
W=$S/work
mkdir -p "$W"
rflags=(--top 0 --sampler exp:20x --sampler const:0.05x --methods M2,M4,M6,naive --seed 3)
aflags=(--screen-updates 20 --reps 19 --aggregate-max 400 --nhpp)
revisit -q generate --format parquet --pages 40 --span 20d --seed 5 -o "$W/ds" || exit 1
revisit -q replay "$W/ds" "${rflags[@]}" -o "$W/one-replay" || exit 1

say "submitting docs/slurm/pipeline.sh with $shards shards"
start=$(date +%s)
if ! bash "$here/docs/slurm/pipeline.sh" "$W/ds" "$W/slurm" "$shards" "${rflags[@]}" -- "${aflags[@]}" >"$S/log/submit.out" 2>&1; then
  echo "slurm-test: the job chain failed:" >&2
  cat "$S/log/submit.out" "$W"/slurm/log/*.out >&2 2>/dev/null
  tail -20 "$S/log/slurmctld.log" >&2
  exit 1
fi
say "jobs finished in $(( $(date +%s) - start )) s: $(ls "$W/slurm/replay-shards" | wc -l) replay shards, $(ls "$W/slurm/analysis-shards" | wc -l) analysis shards, both merged"

# The analysis tables name the replay they read: analyze the merged replay
# (checked identical to one-replay just below) in one process too.
revisit -q analyze "$W/ds" "$W/slurm/replay" "${aflags[@]}" -o "$W/one-analysis" || exit 1
fail=0
cmp "$W/one-replay/estimates.parquet" "$W/slurm/replay/estimates.parquet" || fail=1
# replay.json: identical but for when it was made and how long it took.
strip() { grep -v -E '"(created|elapsed_s)"' "$1"; }
diff <(strip "$W/one-replay/replay.json") <(strip "$W/slurm/replay/replay.json") >&2 || fail=1
# .revisit-entries.json also records each file's inode number and times,
# which no two outputs share: compared without them.
nostamps() { sed -E 's/,"(ino|mtime|ctime)":[0-9]+//g' "$1"; }
files=0
while IFS= read -r f; do
  files=$((files + 1))
  case "$f" in
  */.revisit-entries.json) diff <(nostamps "$W/one-analysis/$f") <(nostamps "$W/slurm/analysis/$f") >&2 || fail=1 ;;
  *) cmp "$W/one-analysis/$f" "$W/slurm/analysis/$f" || fail=1 ;;
  esac
done < <(cd "$W/one-analysis" && find . -type f | sort)
diff <(cd "$W/one-analysis" && find . | sort) <(cd "$W/slurm/analysis" && find . | sort) >&2 || fail=1
if [ "$fail" = 0 ]; then
  say "cmp identical: estimates.parquet, replay.json (but created, elapsed_s) and all $files analysis files"
else
  say "FAIL: the Slurm outputs differ from one process's"
fi
exit "$fail"
