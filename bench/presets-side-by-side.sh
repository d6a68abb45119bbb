#!/bin/bash
# Runs bench:selection presets side by side, each in its own process (so they see the same load), samples each
# preset process's /proc/PID/status (VmHWM, VmRSS) and CPU ticks every 5 s into OUT/sample.log, and stops what is
# still running after CAP seconds. Run it under the shared lock (docs/METHOD-notes.md, 46):
#   flock /tmp/heavy-bench.lock bench/presets-side-by-side.sh OUT CAP PRESET... -- BENCH-ARGS...
# e.g. flock /tmp/heavy-bench.lock bench/presets-side-by-side.sh /tmp/run 1800 exact@start exact exact@q8 -- \
#   --rerank DIR --rerank-kv DIR --rerank-q8 DIR --embed DIR
# Each preset's JSON goes to OUT/PRESET.json (stdout) and OUT/PRESET.err ('[preset done …]' line), traces to
# OUT/traces.
set -u
OUT=$1 CAP=$2
shift 2
PRESETS=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do PRESETS+=("$1"); shift; done
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/.."
mkdir -p "$OUT/traces"
declare -A PG
start=$(date +%s)
echo "start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" > "$OUT/sample.log"
for p in "${PRESETS[@]}"; do
  setsid nice -n 5 npm run bench:selection -- --json --presets "$p" --repeat 1 --record-traces "$OUT/traces" "$@" \
    > "$OUT/$p.json" 2> "$OUT/$p.err" &
  PG[$p]=$!
done
while :; do
  alive=0
  for p in "${PRESETS[@]}"; do
    g=${PG[$p]}
    kill -0 "$g" 2>/dev/null || continue
    alive=1
    for pid in $(pgrep -g "$g" -f -- '--preset-child'); do
      read -r -a f < "/proc/$pid/stat" 2>/dev/null || continue
      echo "$(($(date +%s) - start)) $p pid=$pid cpu_ticks=$((f[13] + f[14])) $(awk '/VmHWM|VmRSS/{printf "%s_kB=%s ", $1, $2}' "/proc/$pid/status" | tr -d :)load=$(cut -d' ' -f1 /proc/loadavg)" >> "$OUT/sample.log"
    done
  done
  [ $alive = 0 ] && break
  if [ $(($(date +%s) - start)) -gt "$CAP" ]; then
    for p in "${PRESETS[@]}"; do
      kill -0 "${PG[$p]}" 2>/dev/null && { echo "cap: stopping $p" >> "$OUT/sample.log"; kill -- "-${PG[$p]}"; }
    done
    break
  fi
  sleep 5
done
echo "end $(date -u +%FT%TZ) after $(($(date +%s) - start)) s" >> "$OUT/sample.log"
