#!/usr/bin/env bash
# The peer benchmark end to end (docs/peers.md "Measured"): the sweeps of bench/peers/sweeps/, one
# output folder each, run one run at a time (the times are the point), then the report and the
# accuracy-cost plot from their tables. Resumable: run it again to finish an interrupted run.
# usage: bench/peers/run_benchmark.sh BUILD_DIR OUT_DIR [SWEEP...]   (default: every sweep)
set -euo pipefail
build=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
sweeps=("$@")
[ ${#sweeps[@]} -gt 0 ] || sweeps=(box-stack box-pyramid incline pour2d pour2d-random pour3d pour3d-random pile pile-exactsim)
mkdir -p "$out"
for s in "${sweeps[@]}"; do
  # exit status 1: a run without a result (listed in its table.md); the others go on
  "$build/apps/exactsim" sweep "$here/sweeps/$s.json" --out "$out/$s" --jobs 1 \
    --peers "$build/bench/peers" || echo "run_benchmark: sweep $s: runs without a result" >&2
done
# The scenes that ran: LABEL=FOLDER[,FOLDER] (the pile's peers and exactsim are two sweeps).
scenes=()
for s in box-stack box-pyramid incline pour2d pour2d-random pour3d pour3d-random; do
  [ -f "$out/$s/table.csv" ] && scenes+=("$s=$out/$s")
done
pile=()
for s in pile pile-exactsim; do [ -f "$out/$s/table.csv" ] && pile+=("$out/$s"); done
[ ${#pile[@]} -gt 0 ] && scenes+=("pile=$(IFS=,; echo "${pile[*]}")")
incline=()
[ -f "$out/incline/table.csv" ] && incline=(--incline incline)
/usr/bin/python3 "$here/peer_report.py" "${incline[@]}" --units pour2d=m²,pour2d-random=m² "${scenes[@]}" > "$out/report.md"
/usr/bin/python3 "$here/peer_plot.py" --out "$out/accuracy-cost.png" "${scenes[@]}"
echo "run_benchmark: $out/report.md, $out/accuracy-cost.png"
