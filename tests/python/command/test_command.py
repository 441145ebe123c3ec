# SPDX-License-Identifier: LGPL-2.1-or-later
"""``python3 -m m2m``: the m2m command's verbs, handed over to it.

M2M_TOOL is the command this build made (tools/m2m); the package is the
build tree's (PYTHONPATH). Each verb through ``python3 -m m2m`` gives what
the command gives: the same output, errors and exit status. The command
is found from M2M_COMMAND, beside the package (an installed prefix's
bin/, the build tree's tools/) and on PATH; without it, one line and 127.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import m2m

TOOL = os.environ["M2M_TOOL"]
PACKAGE = Path(m2m.__file__).parent


def run(args, env):
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=60,
                          check=False)


def environment(**changes):
    """The test's environment without M2M_COMMAND and with an empty PATH
    (a directory of nothing), then ``changes``; PYTHONPATH is kept."""
    env = {k: v for k, v in os.environ.items() if k != "M2M_COMMAND"}
    env["PATH"] = "/nonexistent"
    env.update(changes)
    return env


def python_m2m(args, env, path=None):
    """``python3 -m m2m ARGS`` with the package at ``path`` (default: the
    build tree's)."""
    if path is not None:
        env = dict(env, PYTHONPATH=str(path))
    return run([sys.executable, "-m", "m2m", *args], env)


@pytest.mark.parametrize("args", [
    ["--help"], ["convert", "--help"], ["ir", "--help"], ["list"],
    ["info", "inprocess"], [], ["frobnicate"], ["convert", "--rotate", "45", "a.y4m", "b.y4m"],
    ["info", "/dev/nonexistent-video"],
], ids=lambda a: " ".join(a) or "no-verb")
def test_each_verb_gives_what_the_command_gives(args):
    env = environment(M2M_COMMAND=TOOL)
    ours, theirs = python_m2m(args, env), run([TOOL, *args], env)
    assert (ours.returncode, ours.stdout, ours.stderr) == \
        (theirs.returncode, theirs.stdout, theirs.stderr)
    assert ours.stdout or ours.stderr


def test_events_are_the_commands_but_for_their_time():
    args = ["events", "-d", "inprocess", "--initial", "--count", "2"]
    env = environment(M2M_COMMAND=TOOL)
    ours, theirs = python_m2m(args, env), run([TOOL, *args], env)

    def untimed(out):
        return [line.split(" ", 1)[1] for line in out.splitlines()]
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert untimed(ours.stdout) == untimed(theirs.stdout)
    assert len(untimed(ours.stdout)) == 2 and " ctrl " in ours.stdout


def test_convert_through_python_m_m2m_writes_the_commands_result(tmp_path):
    header = b"P6\n4 2\n255\n"
    picture = bytes(range(4 * 2 * 3))
    (tmp_path / "in.ppm").write_bytes(header + picture)
    env = environment(M2M_COMMAND=TOOL)
    ours = python_m2m(["convert", "-d", "inprocess", "--rotate", "90",
                       str(tmp_path / "in.ppm"), str(tmp_path / "ours.ppm")], env)
    theirs = run([TOOL, "convert", "-d", "inprocess", "--rotate", "90",
                  str(tmp_path / "in.ppm"), str(tmp_path / "theirs.ppm")], env)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert (tmp_path / "ours.ppm").read_bytes() == (tmp_path / "theirs.ppm").read_bytes()
    assert (tmp_path / "ours.ppm").read_bytes().startswith(b"P6\n2 4\n")


def test_the_build_trees_command_is_found_beside_its_package():
    assert (PACKAGE.parent.parent / "tools" / "m2m").samefile(TOOL)
    result = python_m2m(["--version"], environment())
    assert result.returncode == 0, result.stderr
    assert result.stdout == run([TOOL, "--version"], environment()).stdout


def installed(tmp_path):
    """A prefix holding the package as it installs (lib/python3/
    dist-packages/m2m, Debian's layout), without a command."""
    site = tmp_path / "lib" / "python3" / "dist-packages"
    site.mkdir(parents=True)
    (site / "m2m").symlink_to(PACKAGE, target_is_directory=True)
    return site


def test_an_installed_packages_command_is_found_in_its_prefix(tmp_path):
    site = installed(tmp_path)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "m2m").symlink_to(TOOL)
    result = python_m2m(["list"], environment(), site)
    assert result.returncode == 0, result.stderr
    assert "inprocess" in result.stdout


def test_the_command_on_path_is_found(tmp_path):
    site = installed(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "m2m").symlink_to(TOOL)
    result = python_m2m(["list"], environment(PATH=str(tmp_path / "elsewhere")), site)
    assert result.returncode == 0, result.stderr
    assert "inprocess" in result.stdout


def test_without_the_command_one_line_and_127_as_a_shell(tmp_path):
    site = installed(tmp_path)
    result = python_m2m(["list"], environment(), site)
    assert result.returncode == 127
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("python3 -m m2m: the m2m command is not installed")
    assert str(tmp_path / "bin" / "m2m") in lines[0] and "M2M_COMMAND" in lines[0]


def test_an_m2m_command_variable_naming_nothing_is_named(tmp_path):
    missing = tmp_path / "no-such-m2m"
    result = python_m2m(["list"], environment(M2M_COMMAND=str(missing)))
    assert result.returncode == 127
    assert result.stderr == f"python3 -m m2m: M2M_COMMAND={missing} is not an executable " \
        "file\n"


def test_a_command_that_cannot_run_gives_126(tmp_path):
    broken = tmp_path / "m2m"
    broken.write_bytes(b"\x7fELF not really")
    broken.chmod(0o755)
    result = python_m2m(["list"], environment(M2M_COMMAND=str(broken)))
    assert result.returncode == 126
    assert result.stderr.startswith(f"python3 -m m2m: cannot run {broken}: ")
    assert len(result.stderr.splitlines()) == 1
