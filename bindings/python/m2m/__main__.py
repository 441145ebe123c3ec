# SPDX-License-Identifier: LGPL-2.1-or-later
"""``python3 -m m2m``: the m2m command (tools/m2m, docs/m2m-command.md).

The verbs are the C command's, so this hands over to it with the same
arguments (``os.execv``: its output, errors and exit status are the
command's own) rather than repeat them in Python. The command is looked
for, in order:

- ``M2M_COMMAND`` from the environment, a path to it;
- beside this package: ``PREFIX/bin/m2m`` of the prefix it is installed
  in (``PREFIX/lib/python3.X/dist-packages/m2m``, ``PREFIX/lib/python3/
  dist-packages/m2m`` or a virtual environment's ``site-packages``), or
  a build tree's ``tools/m2m`` (the package in ``build/python/m2m``);
- ``m2m`` on ``PATH``.

Without it: one line on stderr and exit status 127, as a shell gives for
a command it cannot find (126 for one it cannot run).

Example::

    $ python3 -m m2m convert --rotate 90 photo.png turned.png
"""
import os
import shutil
import sys
from pathlib import Path

NOT_FOUND = 127
CANNOT_RUN = 126


def candidates():
    """Where the command may be, in the order looked at: (path, where)."""
    package = Path(__file__).absolute().parent
    yield package.parents[3] / "bin" / "m2m", "the prefix this package is installed in"
    yield package.parents[1] / "tools" / "m2m", "the build tree"
    on_path = shutil.which("m2m")
    if on_path:
        yield Path(on_path), "PATH"


def find():
    """The path of the m2m command; raise FileNotFoundError saying where
    it was looked for."""
    given = os.environ.get("M2M_COMMAND")
    if given:
        if not os.access(given, os.X_OK) or os.path.isdir(given):
            raise FileNotFoundError(f"M2M_COMMAND={given} is not an executable file")
        return given
    for path, _ in candidates():
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    looked = ", ".join(str(p) for p, _ in candidates())
    raise FileNotFoundError(f"the m2m command is not installed (looked in {looked} and "
                            "PATH; set M2M_COMMAND to its path)")


def main(argv):
    """Run the m2m command with ``argv``; return only on failure."""
    try:
        command = find()
    except FileNotFoundError as e:
        print(f"python3 -m m2m: {e}", file=sys.stderr)
        return NOT_FOUND
    sys.stdout.flush()
    try:
        os.execv(command, ["m2m", *argv])
    except OSError as e:
        print(f"python3 -m m2m: cannot run {command}: {e.strerror}", file=sys.stderr)
        return CANNOT_RUN


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
