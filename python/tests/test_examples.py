"""The Python examples run and print what they claim (also registered as ctest tests)."""
import struct
import subprocess
import sys


def run_example(source_dir, name, *args):
    return subprocess.run([sys.executable, str(source_dir / "examples" / name), *args],
                          check=True, capture_output=True, text=True).stdout


def test_plot_pile_writes_a_png(source_dir, tmp_path):
    png = tmp_path / "pile.png"
    out = run_example(source_dir, "plot_pile.py", str(png))
    assert f"wrote {png}" in out
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (480, 400)  # figsize (6, 5) at 80 dpi
    assert "400 steps to t = 2.00 s" in out
