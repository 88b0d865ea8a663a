#!/usr/bin/env bash
# Installs the Debian packages exactsim needs to build, test, benchmark and plot.
# Idempotent and quiet when everything is present; names the package that failed.
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  ninja-build  # the generator of new build trees (Makefile; README.md "Tests")
  libeigen3-dev libqhull-dev nlohmann-json3-dev libcli11-dev
  libgmp-dev  # exact Lemke (src/solvers/lemke_exact.cc)
  libopenblas-serial-dev  # LU of large dense blocks (src/solvers/dense_lapack.cc)
  libgtest-dev libgmock-dev libbenchmark-dev
  zlib1g-dev  # tests: the gzip-compressed captured LCPs
  libbullet-dev  # bench_scaling and peer_bullet compare with Bullet 3 (optional in CMake)
  libsuitesparse-dev libmetis-dev  # bench_basis_cost: UMFPACK, KLU, CHOLMOD, METIS (optional in CMake)
  python3 python3-numpy python3-matplotlib
  python3-dev pybind11-dev python3-pybind11 python3-pytest
  python3-pip python3-setuptools python3-wheel python3-venv  # pip install . (setup.py)
  clang-format
  clang libclang-rt-14-dev  # make fuzz: clang with libFuzzer, ASan and UBSan runtimes (fuzz/)
  chromium  # the replay page's headless-browser test (tests/viewer)
)
# Installed where the machine has them; without them CMake leaves their targets out, and a
# failed install is a warning, not the end of the setup.
optional=(
  libode-dev  # peer_ode: the peer benchmark's ODE driver (docs/peers.md)
  libmujoco-dev  # peer_mujoco: the peer benchmark's MuJoCo driver (docs/peers.md)
  libopenmpi-dev openmpi-bin  # exactsim-mpi: exactsim sweep under mpirun (docs/sweeps.md "MPI")
)

missing=()
for p in "${packages[@]}" "${optional[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get update -qq >/tmp/exactsim-apt-update.log 2>&1; then
  echo "setup: apt-get update failed (see /tmp/exactsim-apt-update.log)" >&2
  exit 1
fi
for p in "${missing[@]}"; do
  if ! $SUDO apt-get install -y -qq --no-install-recommends "$p" >/tmp/exactsim-apt-"$p".log 2>&1; then
    if [[ " ${optional[*]} " == *" $p "* ]]; then
      echo "setup: warning: optional Debian package '$p' not installed; its targets are left out" \
        "(log: /tmp/exactsim-apt-$p.log)" >&2
      continue
    fi
    echo "setup: failed to install Debian package '$p' (log: /tmp/exactsim-apt-$p.log)" >&2
    tail -5 /tmp/exactsim-apt-"$p".log >&2 || true
    exit 1
  fi
done
echo "setup: done"
