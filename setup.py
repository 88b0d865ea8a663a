"""`pip install .`: builds the Python module `exactsim` with CMake and installs it
(docs/python.md "Installing").

Offline, with Debian's python3-pip, python3-setuptools and python3-wheel: there is no
pyproject.toml, so pip builds with the setuptools already installed instead of fetching one.
The module is built in an existing build tree when there is one (EXACTSIM_BUILD_DIR, else
build/ when `make test` or `make build` configured it), so installing after a build only copies
the module; otherwise in build-python/ (only the module and the libraries it needs, ~5 minutes
on 2 cores).
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(exactsim VERSION ([0-9.]+)", text).group(1)


def cache_value(build_dir, name):
    cache = build_dir / "CMakeCache.txt"
    if not cache.exists():
        return None
    match = re.search(rf"^{name}:\w+=(.*)$", cache.read_text(), re.M)
    return match.group(1) if match else None


def build_dir():
    """The build tree to build the module in."""
    given = os.environ.get("EXACTSIM_BUILD_DIR")
    if given:
        return pathlib.Path(given).resolve()
    default = ROOT / "build"
    home = cache_value(default, "CMAKE_HOME_DIRECTORY")
    if (home and pathlib.Path(home).resolve() == ROOT
            and cache_value(default, "EXACTSIM_SANITIZE") in (None, "OFF")
            and cache_value(default, "CMAKE_BUILD_TYPE") == "Release"):
        return default
    return ROOT / "build-python"


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        tree = build_dir()
        if not (tree / "CMakeCache.txt").exists():
            subprocess.check_call([
                "cmake", "-S", str(ROOT), "-B", str(tree), "-DCMAKE_BUILD_TYPE=Release",
                "-DEXACTSIM_BUILD_TESTS=OFF", "-DEXACTSIM_BUILD_BENCH=OFF",
                "-DEXACTSIM_BUILD_APPS=OFF", "-DEXACTSIM_BUILD_EXAMPLES=OFF",
                f"-DPython_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", str(tree), "--target", "exactsim_python",
                               "-j", str(os.cpu_count() or 2)])
        # What cmake --install installs (component python) is what pip installs.
        staged = pathlib.Path(self.build_temp) / "cmake-install"
        shutil.rmtree(staged, ignore_errors=True)
        subprocess.check_call(["cmake", "--install", str(tree), "--component", "python",
                               "--prefix", str(staged)])
        built = sorted(staged.glob(f"lib/python*/*-packages/{ext.name}*.so"))
        if not built:
            sys.exit(f"setup.py: cmake --install put no {ext.name} module under {staged}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


(ROOT / "build-python").mkdir(exist_ok=True)  # setup.cfg's egg_base
setup(
    name="exactsim",
    version=version(),
    description="Rigid-body contact simulation with exact polytope geometry (PEG, PLUS)",
    long_description=(ROOT / "README.md").read_text(),
    long_description_content_type="text/markdown",
    license="MIT",
    python_requires=">=3.9",
    install_requires=["numpy"],
    ext_modules=[Extension("exactsim", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
