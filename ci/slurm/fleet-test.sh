#!/usr/bin/env bash
# The nightly recipe on a private Slurm, end to end (CTest: fleet:slurm-night, label fleet).
# Starts munge, slurmctld and slurmd from Debian's packages (slurm-wlm, munge) on this machine:
# one node, four stand-in GPUs declared as gres (character devices cloned from /dev/null), the
# daemons on private ports with private state, log and spool folders, stopped when the test ends
# (a trap: also when it fails). Then ci/slurm/nightly.sh, unchanged, three times:
#   1. SQLite history: the node's first job killed before it writes anything (retried), and
#      GPU 2's results removed on the second (named as missing): exit 1;
#   2. the same with the history on a throwaway PostgreSQL;
#   3. the control: nothing injected, run as the cuconform under test runs a node (`run --devices
#      all` where it has it): every GPU accounted for, each saw no GPU here: exit 3.
# Then ci/slurm/healthcheck.sh --drain on the node twice: GPUs that pass leave it idle; GPU 1
# failing a planted case drains it, with the action and the case in Slurm's reason.
# and checks what a fleet operator would: every node and GPU accounted for, nothing partial
# read, every result in the history database, each GPU compared, the drain line, the exit.
# Skips (exit 77) with the reason where the packages or root are missing.
#   usage: ci/slurm/fleet-test.sh BUILD/cuconform
set -uo pipefail
real_exe=$(cd "$(dirname "${1:?usage: fleet-test.sh PATH/cuconform}")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
t0=$(date +%s)
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*"; failed=1; }
failed=0

[ "$(id -u)" -eq 0 ] || skip "slurmd must start as root to run jobs (this is uid $(id -u))"
for tool in slurmctld slurmd sbatch sinfo scontrol munged mungekey runuser mknod; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool not found: apt-get install slurm-wlm munge (ci/setup.sh installs them where it can)"
done
getent passwd munge >/dev/null || skip "no munge user (the munge package makes it)"

work=$(mktemp -d "${TMPDIR:-/tmp}/cuconform-slurm.XXXXXX")
chmod 755 "$work"
pids=()
source "$repo/ci/throwaway-pg.sh"
stop_all() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  pg_throwaway_stop
  if [ "$failed" != 0 ]; then
    for f in "$work"/slurm/*.log "$work"/munge/munged.log; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done
  fi
  rm -rf "$work"
}
trap stop_all EXIT

# munge: a private key and socket, run as the munge user (it refuses root).
mkdir -p "$work/munge" && chown munge "$work/munge" && chmod 711 "$work/munge"  # munged: the socket folder must be searchable by all
runuser -u munge -- mungekey -c -k "$work/munge/munge.key" >/dev/null 2>&1 ||
  runuser -u munge -- sh -c "dd if=/dev/urandom bs=1 count=1024 of='$work/munge/munge.key' 2>/dev/null && chmod 600 '$work/munge/munge.key'"
runuser -u munge -- munged -F --socket="$work/munge/munge.sock" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" &
pids+=($!)
for _ in $(seq 50); do [ -S "$work/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/munge/munge.sock" ] || { failed=1; echo "FAIL: munged did not start"; exit 1; }

# Two free ports on the loopback side for slurmctld and slurmd.
free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 20000))
    ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return; }
  done
  echo 0
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$slurmd_port" = "$ctld_port" ] && slurmd_port=$((ctld_port + 1))

# The node: this machine, with its real core count; four GPUs on stand-in device files.
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$work/slurm/state" "$work/slurm/spool" "$work/dev"
for i in 0 1 2 3; do mknod "$work/dev/nvidia$i" c 1 3 || skip "mknod failed: cannot make stand-in device files here"; done
cat >"$work/slurm/slurm.conf" <<EOF
ClusterName=cuconformtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Gres=gpu:4 State=UNKNOWN
PartitionName=gpu Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
# The health-check lines docs/fleet.md documents, as an operator copies them, the program replaced
# by a stand-in that only says it ran: slurmctld refuses an interval over 65535 s.
doc_hc=$(sed -n '/^HealthCheckProgram=/,/^HealthCheckNodeState=/p' "$repo/docs/fleet.md")
[ "$(grep -c '^HealthCheck' <<<"$doc_hc")" = 3 ] || fail "docs/fleet.md's HealthCheckProgram / Interval / NodeState lines not found: $doc_hc"
printf '#!/bin/sh\ndate +%%s >>"%s"\nexit 0\n' "$work/healthcheck-ran" >"$work/cuconform-health"
chmod +x "$work/cuconform-health"
sed "s|^HealthCheckProgram=.*|HealthCheckProgram=$work/cuconform-health|" <<<"$doc_hc" >>"$work/slurm/slurm.conf"
doc_interval=$(sed -n 's/^HealthCheckInterval=//p' <<<"$doc_hc")
cat >"$work/slurm/gres.conf" <<EOF
AutoDetect=off
Name=gpu File=$work/dev/nvidia[0-3]
EOF
export SLURM_CONF=$work/slurm/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$work/slurm/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$work/slurm/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 150); do
  state=$(sinfo -h -N -n "$host" -o '%T' 2>/dev/null | head -1)
  [ "$state" = idle ] && break
  sleep 0.2
done
if [ "$state" != idle ]; then
  failed=1
  echo "FAIL: the private Slurm did not come up (node state '$state')"
  cat "$work/slurm/slurmctld.out" "$work/slurm/slurmd.out"
  exit 1
fi
got_interval=$(scontrol show config | sed -n 's/^HealthCheckInterval *= *\([0-9]*\).*/\1/p')
[ "$got_interval" = "$doc_interval" ] || fail "slurmctld runs the health check every '$got_interval' s, docs/fleet.md says $doc_interval"
echo "fleet-test: Slurm $(sinfo -V | awk '{print $2}') up in $(($(date +%s) - t0)) s: node $host, $cpus CPU(s), gres $(sinfo -h -N -o '%G' | head -1), ports $ctld_port/$slurmd_port"

# A cuconform that fails the way a node does: the first `run` of a night kills its job before
# anything is written (a half-written file is left in the attempt's .partial folder, never to be
# read); with drop-gpu2, GPU 2's results vanish after the run. Everything else is the real one.
cat >"$work/cuconform" <<EOF
#!/usr/bin/env bash
inject=\${CUCONFORM_TEST_INJECT:-}
# With CUCONFORM_TEST_PER_GPU, --devices is hidden, so run-node.sh runs each GPU apart: without a
# GPU here that is the only way to get a results file per GPU (run --devices writes one for a
# node where it opens none), and one of them to remove.
if [ -n "\${CUCONFORM_TEST_PER_GPU:-}" ] && { [ "\$1" = help ] || [ "\$1" = --help ] || [ "\$2" = --help ]; }; then
  "$real_exe" "\$@" 2>&1 | grep -v -- --devices
  exit 0
fi
out=""
prev=""
for a in "\$@"; do
  case \$prev in --out) out=\$a ;; --json) out=\$(dirname "\$a") ;; esac
  prev=\$a
done
if [ "\$1" = run ] && [ -n "\$inject" ] && [ -n "\$out" ]; then  # a run that writes results
  if [ -e "\$inject/fail-once" ]; then
    rm -f "\$inject/fail-once"
    echo '{"schema": "cuconform-resu' >"\$out/results.gpu0.json"
    kill -9 \$PPID
    exit 137
  fi
  "$real_exe" "\$@"
  rc=\$?
  [ -e "\$inject/drop-gpu2" ] && rm -f "\$out/results.gpu2.json" "\$out/junit.gpu2.xml"
  exit \$rc
fi
exec "$real_exe" "\$@"
EOF
chmod +x "$work/cuconform"

filters=(--profile smoke --area ldgsts)

# One night; $1 name, $2 history URL or path, $3 expected exit, $4 injected (yes/no).
night() {
  local name=$1 db=$2 want=$3 inject=$4 dir=$work/$1 rc start
  start=$(date +%s)
  mkdir -p "$work/inject-$name"
  if [ "$inject" = yes ]; then touch "$work/inject-$name/fail-once" "$work/inject-$name/drop-gpu2"; fi
  local per_gpu=""
  [ "$inject" = yes ] && per_gpu=1
  CUCONFORM_EXE=$work/cuconform CUCONFORM_TEST_INJECT=$work/inject-$name CUCONFORM_TEST_PER_GPU=$per_gpu \
    bash "$repo/ci/slurm/nightly.sh" --out "$dir" --db "$db" --partition gpu --retries 2 --time 10 --start-within 5 \
    -- "${filters[@]}" >"$work/$name.out" 2>&1
  rc=$?
  echo "fleet-test: night $name: exit $rc in $(($(date +%s) - start)) s"
  [ "$rc" = "$want" ] || fail "$name: nightly.sh exited $rc, expected $want"
  grep -q "^$host	4$" "$dir/plan.tsv" || fail "$name: plan.tsv does not plan $host with 4 GPUs"
  local attempts
  attempts=$(grep -c "^$host	" "$dir/attempts.tsv")
  [ -f "$dir/nodes/$host/complete.json" ] || fail "$name: no completion marker for $host"
  ls "$dir"/.partial/*/results.gpu0.json >/dev/null 2>&1 && [ "$inject" = no ] && fail "$name: a partial attempt was left without injection"
  local present=0 i
  for i in 0 1 2 3; do
    if [ -f "$dir/nodes/$host/results.gpu$i.json" ]; then
      present=$((present + 1))
      grep -q "^$host.gpu$i	" "$dir/compare/exit.tsv" || fail "$name: GPU $i was not compared with its baseline"
    fi
  done
  # Every stored run: as many as GPU files (runs without a GPU are stored as "no GPU").
  local stored
  stored=$("$real_exe" history runs --db "$db" --format json 2>&1 | grep -o '"source": *"[^"]*results\.gpu[0-9]\.json"' | grep -c "/$name/")
  if [ "$inject" = yes ]; then
    [ "$attempts" = 2 ] || fail "$name: $attempts attempt(s) of $host recorded, expected 2 (one killed, one retried)"
    grep -q "^$host	1	[0-9]*	FAILED	" "$dir/attempts.tsv" || fail "$name: the killed attempt is not recorded as FAILED: $(cat "$dir/attempts.tsv")"
    # The killed attempt's folder is gone once the node has finished results; nothing kept as cut off.
    [ -e "$dir/.partial" ] && fail "$name: .partial/ was left behind: $(ls -A "$dir/.partial")"
    [ -e "$dir/cutoff/$host" ] && fail "$name: a node with finished results kept a cut-off attempt"
    # The retry got twice the first attempt's time (10 -> 20 minutes).
    local job2
    job2=$(awk -F'\t' -v h="$host" '$1 == h && $2 == 2 {print $3}' "$dir/attempts.tsv")
    scontrol -o show job "$job2" 2>/dev/null | grep -q 'TimeLimit=00:20:00' ||
      fail "$name: the retry (job $job2) did not get twice the time: $(scontrol -o show job "$job2" 2>&1 | grep -o 'TimeLimit=[^ ]*')"
    [ "$present" = 3 ] || fail "$name: $present GPU results present, expected 3 (GPU 2 removed)"
    grep -q "missing: GPU 2 of $host" "$dir/fleet.txt" || fail "$name: the fleet report does not name GPU 2 of $host as missing"
    grep -q "$host: 2 attempts, ran" "$dir/fleet.txt" || fail "$name: the fleet report does not name $host as retried"
    grep "scontrol update nodename=$host state=drain reason=\"cuconform $name: " "$dir/fleet.txt" | grep -q "GPU 2 gave no results" ||
      fail "$name: no drain line for $host naming GPU 2"
    grep -q '"retried": true' "$dir/fleet.json" || fail "$name: fleet.json does not say $host was retried"
    grep -q 'missing' "$dir/fleet.html" || fail "$name: fleet.html does not name the missing GPU"
  else
    # The control runs as the cuconform under test runs a node: with run --devices one results
    # file (no GPU opened here) and node.json; without it one file per GPU. Either way all four
    # GPUs are accounted for, none missing.
    [ "$attempts" = 1 ] || fail "$name: $attempts attempts of $host, expected 1"
    if [ -f "$dir/nodes/$host/node.json" ]; then
      [ "$present" = 1 ] || fail "$name: run --devices without a GPU: $present results files, expected 1"
    else
      [ "$present" = 4 ] || fail "$name: $present GPU results present, expected 4"
    fi
    grep -q "$host: ran (run exit 3, job [0-9]*), 0 of 4 GPU(s) ran" "$dir/fleet.txt" || fail "$name: the control does not account for 4 GPUs"
    grep -q "(none: every planned node and GPU has results)" "$dir/fleet.txt" || fail "$name: the control names something missing"
    [ "$(grep -c "^    no GPU: GPU [0-3] " "$dir/fleet.txt")" = 4 ] || fail "$name: not every GPU is reported as having no GPU"
  fi
  [ "$stored" = "$present" ] || fail "$name: the history database holds $stored of this night's runs, expected $present"
  grep -q "^night $name: status $want " "$work/$name.out" || fail "$name: the last line does not state status $want"
  if [ "$failed" != 0 ]; then
    echo "--- nightly.sh output ($name)"
    cat "$work/$name.out"
    tail -5 "$dir"/logs/*.log 2>/dev/null
  fi
}

night night-sqlite "$work/history.sqlite" 1 yes
night night-control "$work/history.sqlite" 3 no
pg_throwaway_start "$work/pg"
case $? in
  0) night night-postgresql "${PG_URL//\{db\}/postgres}" 1 yes ;;
  77) echo "fleet-test: PostgreSQL night not run: $PG_WHY" ;;
  *) fail "the throwaway PostgreSQL did not start" ;;
esac

# A node an operator drained is skipped at planning, with its reason listed and kept as it was;
# the night does not wait for it (--start-within) and, with nothing left to run, exits 3.
scontrol update nodename="$host" state=drain reason="operator: fan replaced, ticket 4411" || fail "could not drain $host"
start=$(date +%s)
CUCONFORM_EXE=$work/cuconform bash "$repo/ci/slurm/nightly.sh" --out "$work/night-drained" --db "$work/history.sqlite" \
  --partition gpu --time 10 --start-within 5 -- "${filters[@]}" >"$work/night-drained.out" 2>&1
rc=$?
took=$(($(date +%s) - start))
echo "fleet-test: night night-drained: exit $rc in $took s"
[ "$rc" = 3 ] || fail "night-drained: nightly.sh exited $rc, expected 3 (nothing ran)"
[ "$took" -lt 60 ] || fail "night-drained: took $took s: a drained node held the night"
grep -q "^$host	4	drain.*	operator: fan replaced, ticket 4411$" "$work/night-drained/skipped.tsv" ||
  fail "night-drained: skipped.tsv does not list $host with its reason: $(cat "$work/night-drained/skipped.tsv")"
grep -q "$host: skipped (drain[a-z]*: operator: fan replaced, ticket 4411), 4 GPU(s) not run" "$work/night-drained/fleet.txt" ||
  fail "night-drained: the fleet view does not list $host as skipped with its reason"
grep -q "scontrol update nodename=$host" "$work/night-drained/fleet.txt" && fail "night-drained: a drain line for a node already drained"
[ "$(sinfo -h -N -n "$host" -o '%E' | head -1)" = "operator: fan replaced, ticket 4411" ] || fail "night-drained: the operator's drain reason changed"
[ -z "$(ls "$work"/night-drained/.jobs/*.id 2>/dev/null)" ] || fail "night-drained: a job was submitted for a drained node"
scontrol update nodename="$host" state=resume || fail "could not resume $host"
[ "$failed" != 0 ] && cat "$work/night-drained.out"

# The health check as HealthCheckProgram runs it (--drain), against this Slurm: a node whose GPUs
# pass is left alone; a node whose GPU 1 fails a planted core case (the H200 baseline's first
# passing positive case, ci/synth-gpu-results.py) is drained, the action and the case named in
# Slurm's reason; then resumed.
health_night() {  # $1 name, $2 plant GPU (-1: none); the node's state and reason after it
  local dir=$work/health-$1
  mkdir -p "$dir"
  python3 "$repo/ci/synth-gpu-results.py" "$repo/ci/baselines/NVIDIA-H200_driver-580.159.04.json.gz" "$dir" "$host" 4 "$2" >"$dir/planted"
  bash "$repo/ci/slurm/make-standin.sh" "$dir/cuconform" "$real_exe" "$dir" "$2"
  local s=$(date +%s)
  SLURMD_NODENAME=$host CUDA_VISIBLE_DEVICES=0,1,2,3 CUCONFORM_KNOWN='' CUCONFORM_EXE=$dir/cuconform \
    CUCONFORM_HEALTH_FILTERS="${filters[*]}" bash "$repo/ci/slurm/healthcheck.sh" --drain >"$dir/out" 2>&1
  echo "$?" >"$dir/rc"
  # slurmd kills a HealthCheckProgram that runs longer than 60 s.
  [ $(($(date +%s) - s)) -lt 60 ] || fail "health check ($1) took $(($(date +%s) - s)) s: slurmd kills it at 60 s"
  sinfo -h -N -n "$host" -o '%T|%E' | head -1 >"$dir/state"
}
if command -v python3 >/dev/null 2>&1; then
  health_night pass -1
  [ "$(cat "$work/health-pass/rc")" = 0 ] || fail "health check of a passing node: exit $(cat "$work/health-pass/rc"): $(cat "$work/health-pass/out")"
  grep -q '^idle|' "$work/health-pass/state" || fail "health check drained a passing node: $(cat "$work/health-pass/state")"
  health_night fail 1
  planted=$(cat "$work/health-fail/planted")
  [ "$(cat "$work/health-fail/rc")" = 1 ] || fail "health check of a failing node: exit $(cat "$work/health-fail/rc"): $(cat "$work/health-fail/out")"
  grep -q "^drained|cuconform action=drain gpu1: new failure $planted" "$work/health-fail/state" ||
    fail "the node whose GPU 1 fails $planted is not drained with the action in the reason: $(cat "$work/health-fail/state")"
  echo "fleet-test: health check: passing node $(cut -d'|' -f1 "$work/health-pass/state"), failing node $(cat "$work/health-fail/state")"
  scontrol update nodename="$host" state=resume >/dev/null 2>&1
else
  echo "fleet-test: health check drain not tried: python3 not found"
fi

echo "fleet-test: $(($(date +%s) - t0)) s in all"
if [ "$failed" != 0 ]; then exit 1; fi
echo "fleet-test: passed"
