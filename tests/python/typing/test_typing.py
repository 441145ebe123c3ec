# SPDX-License-Identifier: LGPL-2.1-or-later
"""The package's type hints (py.typed), read by Debian's mypy: the package
checks with mypy's defaults, a typed client (client.py) with --strict, and
the mistakes in mistakes.py are each reported on their line (about 8 s:
two runs of mypy)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import m2m

HERE = Path(__file__).parent
CONFIG = HERE / "mypy.ini"


def mypy(*args):
    """mypy's (exit status, report lines) on the build tree's package."""
    env = dict(os.environ, MYPYPATH=str(Path(m2m.__file__).parent.parent))
    result = subprocess.run([sys.executable, "-m", "mypy", "--python-executable",
                             sys.executable, "--cache-dir", os.devnull, *args],
                            env=env, capture_output=True, text=True, timeout=300, check=False)
    return result.returncode, result.stdout.splitlines()


def test_the_package_is_typed_and_its_hints_agree_with_its_code():
    assert (Path(m2m.__file__).parent / "py.typed").is_file()
    status, report = mypy("--no-implicit-optional", "-p", "m2m")
    assert status == 0, "\n".join(report)
    assert report[-1].startswith("Success: no issues found")


def test_a_typed_client_passes_strict_and_each_mistake_is_reported_on_its_line():
    source = (HERE / "mistakes.py").read_text().splitlines()
    expected = {n: m.group(1) for n, line in enumerate(source, 1)
                if (m := re.search(r"# error: (.*)$", line))}
    assert len(expected) == 7
    # One run for both files: mypy takes seconds to start.
    status, report = mypy("--config-file", str(CONFIG), str(HERE / "client.py"),
                          str(HERE / "mistakes.py"))
    assert status == 1
    errors = [line for line in report if ": error: " in line]
    assert not [line for line in errors if "client.py" in line], "\n".join(report)
    found = {}
    for line in errors:
        m = re.match(r".*mistakes\.py:(\d+): error: (.*)$", line)
        assert m, line
        found[int(m.group(1))] = m.group(2)
    assert set(found) == set(expected), "\n".join(report)
    for n, words in expected.items():
        assert words in found[n], (n, found[n])
