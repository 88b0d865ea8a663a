#!/usr/bin/env bash
# The peer benchmark's first table (docs/peers.md "Measured"): the 3D pour and the 100-hull pile in
# every built engine at several step sizes, scored by peer_metrics, exactsim where its run fits.
# usage: bench/peers/run_table.sh BUILD_DIR OUT_DIR   (writes OUT_DIR/table.md and the metrics)
set -euo pipefail
build=$1
out=$2
mkdir -p "$out/scenes" "$out/runs"
exactsim=$build/apps/exactsim
"$exactsim" run --scenario pour3d --duration 0 --quiet --write-scene "$out/scenes/pour3d.json" >/dev/null
"$build/bench/bench_scaling" --dims 3 --n 100 --steps 1 --no-bullet \
  --write-scenes "$out/scenes" >/dev/null 2>&1
pile=$out/scenes/scaling3d-n100-seed1.json

# score DIR: the metric of one run, then its trajectory removed (it is large at small h).
score() {
  "$build/bench/peers/peer_metrics" "$1" --out "$1.metrics.json"
  rm -f "$1/trajectory.csv"
}

# The pour drops its 10 bodies over 4.5 s and lets them settle until 5 s; the pile falls for 1 s.
duration() { if [ "$1" = pour3d ]; then echo 5; else echo 1; fi; }

for scene in pour3d:"$out/scenes/pour3d.json" pile:"$pile"; do
  name=${scene%%:*}
  file=${scene#*:}
  T=$(duration "$name")
  for engine in bullet ode mujoco; do
    driver=$build/bench/peers/peer_$engine
    [ -x "$driver" ] || continue
    for h in 0.0001 0.001 0.01 0.05; do
      dir=$out/runs/$name-$engine-$h
      echo "$name $engine h=$h" >&2
      if "$driver" "$file" --out "$dir" --dt "$h" --duration "$T" --repeat 3; then score "$dir"; fi
    done
  done
done
# exactsim (PEG, the library's defaults): one run with --out for the metric, then 3 runs without
# output files, each timed as the whole process less a run of 0 steps (reading the scene and
# setting up), so that, as for the drivers, only the stepping counts (wall_seconds.json).
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N); minus "$t1" "$t0"; }
for run in pour3d:0.05 pour3d:0.01 pour3d:0.005 pour3d:0.001 pile:0.05 pile:0.01; do
  name=${run%%:*}
  h=${run#*:}
  file=$out/scenes/pour3d.json
  [ "$name" = pile ] && file=$pile
  dir=$out/runs/$name-exactsim-$h
  echo "$name exactsim h=$h" >&2
  args=("$file" --model peg --dt "$h" --quiet --continue-on-failure)
  T=$(duration "$name")
  "$exactsim" run "${args[@]}" --duration "$T" --out "$dir" >/dev/null || true
  walls=()
  for _ in 1 2 3; do
    run_s=$(seconds "$exactsim" run "${args[@]}" --duration "$T")
    setup_s=$(seconds "$exactsim" run "${args[@]}" --duration 0)
    walls+=("$(minus "$run_s" "$setup_s")")
  done
  echo "{\"wall_seconds\": [$(IFS=,; echo "${walls[*]}")]}" > "$dir/wall_seconds.json"
  score "$dir"
done
python3 "$(dirname "$0")/peer_table.py" "$out"/runs/*.metrics.json > "$out/table.md"
cat "$out/table.md"
