"""The install of ``make venv``: no deprecation warning of ours, and console scripts that import
every top-level package of the repository (issue 32, point 5).

``pip install -e . --config-settings editable_mode=compat`` printed setuptools' boxed warning
("The 'compat' editable mode is transitional"); setuptools' default editable mode without a
package directory prints another (an import finder: "Please be careful with folders in your
working directory").  With ``package-dir = {"" = "."}`` the default mode writes one ``.pth`` of
the repository root, silently: what compat did.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_makefile_asks_for_no_deprecated_editable_mode():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "editable_mode" not in makefile
    assert "pip install -q -e '.[dev]'" in makefile
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"": "."}


def test_the_editable_wheel_is_a_pth_of_the_root_built_without_a_warning(tmp_path):
    """setuptools' own editable build, warnings as errors (a BuildBackendWarning or a
    SetuptoolsDeprecationWarning fails it), gives a wheel whose one .pth names the root."""
    code = ("import sys, setuptools.build_meta as b\n"
            f"print(b.build_editable({str(tmp_path)!r}))\n")
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    wheel = tmp_path / out.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as z:
        pth = [n for n in z.namelist() if n.endswith(".pth")]
        assert len(pth) == 1 and z.read(pth[0]).decode().strip() == str(ROOT)
        assert not [n for n in z.namelist() if n.endswith(".py")]  # no import finder
        entry_points = z.read(next(n for n in z.namelist()
                                   if n.endswith("entry_points.txt"))).decode()
    assert "fh-eval = arena.cli:main" in entry_points


def test_the_console_script_runs_from_the_venv():
    script = Path(sys.executable).parent / "fh-eval"
    assert script.exists(), f"{script}: the install put no fh-eval beside this interpreter"
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True, cwd="/")
    assert out.returncode == 0 and out.stdout.startswith("usage: fh-eval"), out.stderr
