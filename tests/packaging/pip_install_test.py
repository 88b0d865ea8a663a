"""`pip install .` and the README's Python section, as a new user would run them
(docs/python.md "Installing"): pip builds the module through setup.py, reusing the build tree
given (EXACTSIM_BUILD_DIR, so that this costs a copy, not a build), installs it into a scratch
folder, and /usr/bin/python3 runs the README's snippet from another folder with only that folder
on its path.

Usage: pip_install_test.py SOURCE_DIR BUILD_DIR WORK_DIR
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

source, build, work = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
shutil.rmtree(work, ignore_errors=True)
work.mkdir(parents=True)
site = work / "site"
env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "EXACTSIM_CLI")}
env.update(EXACTSIM_BUILD_DIR=str(build), PYTHONDONTWRITEBYTECODE="1")
pip = [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
       "--no-cache-dir", "--quiet", "--target", str(site), str(source)]
done = subprocess.run(pip, env=env, cwd=work, capture_output=True, text=True)
if done.returncode != 0:
    sys.exit(f"pip install failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
modules = list(site.glob("exactsim*.so"))
if len(modules) != 1:
    sys.exit(f"expected one exactsim module in {site}, found {modules}")
if shutil.which("readelf"):  # an installed module's run path: no empty entry (the cwd)
    dynamic = subprocess.run(["readelf", "-d", str(modules[0])], capture_output=True, text=True)
    for line in dynamic.stdout.splitlines():
        if "RUNPATH" in line or "RPATH" in line:
            paths = line.split("[", 1)[1].rstrip("]").split(":")
            if "" in paths:
                sys.exit(f"the installed module's run path has an empty entry: {line.strip()}")

readme = (source / "README.md").read_text()
section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
script = work / "readme_snippet.py"
script.write_text("import exactsim\nassert exactsim.__file__.startswith(%r), exactsim.__file__\n"
                  % str(site) + snippet)
env["PYTHONPATH"] = str(site)
run = subprocess.run(["/usr/bin/python3", str(script)], env=env, cwd=work, capture_output=True,
                     text=True)
print(run.stdout, end="")
if run.returncode != 0:
    sys.exit(f"the README's Python section failed ({run.returncode}):\n{run.stderr}")
if not run.stdout.strip():
    sys.exit("the README's Python section printed nothing")
print(f"pip install . and the README's Python section: ok ({modules[0].name})")
