# SPDX-License-Identifier: LGPL-2.1-or-later
"""Build m2m.capi for pip (pyproject.toml) against an installed libm2m.

The extension is SWIG's wrapper of m2m.i, the interface the CMake build
uses (bindings/python/CMakeLists.txt), with the same flags; pkg-config
finds libm2m (PKG_CONFIG_PATH for a prefix of your own) and the extension
links its libm2m.so.0, with that library folder as its RUNPATH when it is
not one the system searches. The version is the project's (CMakeLists.txt)
and must be the installed libm2m's.
"""
import re
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
# The folders the dynamic loader searches by itself, with Debian's
# multiarch ones for this interpreter's architecture (aarch64-linux-gnu...).
MULTIARCH = sysconfig.get_config_var("MULTIARCH")
SYSTEM_LIBDIRS = {"/lib", "/usr/lib", "/lib64", "/usr/lib64"} | (
    {f"/lib/{MULTIARCH}", f"/usr/lib/{MULTIARCH}"} if MULTIARCH else set())


def project_version():
    text = (HERE.parent.parent / "CMakeLists.txt").read_text()
    return re.search(r"project\(libm2m VERSION ([0-9.]+)", text).group(1)


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "libm2m"], check=True,
                             capture_output=True, text=True).stdout
    except FileNotFoundError:
        sys.exit("setup.py: pkg-config is not installed (apt-get install pkg-config)")
    except subprocess.CalledProcessError as e:
        sys.exit("setup.py: pkg-config does not find libm2m (install it, or set "
                 f"PKG_CONFIG_PATH to its lib/pkgconfig): {e.stderr.strip()}")
    return out.split()


class BuildSwig(build_ext):
    """SWIG's wrapper written to the build folders, not the source tree, and
    libm2m's flags from pkg-config."""

    def swig_sources(self, sources, extension):
        interface = [s for s in sources if s.endswith(".i")]
        if not interface:
            return sources
        include = pkg_config("--cflags-only-I")
        wrapper = Path(self.build_temp) / "m2m_wrap.c"
        wrapper.parent.mkdir(parents=True, exist_ok=True)
        # capi.py goes beside the extension, in the package being built.
        package = Path(self.get_ext_fullpath(extension.name)).parent
        package.mkdir(parents=True, exist_ok=True)
        self.spawn(["swig", "-python", "-threads", "-doxygen", *include,
                    "-outdir", str(package), "-o", str(wrapper), *interface])
        return [s for s in sources if not s.endswith(".i")] + [str(wrapper)]

    def build_extension(self, ext):
        installed = pkg_config("--modversion")[0]
        if installed != project_version():
            sys.exit(f"setup.py: the installed libm2m is {installed}, "
                     f"these bindings {project_version()}")
        for flag in pkg_config("--cflags", "--libs"):
            if flag.startswith("-I"):
                ext.include_dirs.append(flag[2:])
            elif flag.startswith("-L"):
                ext.library_dirs.append(flag[2:])
                if flag[2:] not in SYSTEM_LIBDIRS:
                    ext.runtime_library_dirs.append(flag[2:])
            elif flag.startswith("-l"):
                ext.libraries.append(flag[2:])
            else:
                ext.extra_compile_args.append(flag)
        super().build_extension(ext)


# Built outside the source tree, afresh each time: a build folder kept
# there would give the next install the RUNPATH of the libm2m it was built
# against before.
BUILD = tempfile.TemporaryDirectory(prefix="m2m-setup-")

setup(
    version=project_version(),
    options={"build": {"build_base": BUILD.name}, "egg_info": {"egg_base": BUILD.name}},
    ext_modules=[Extension(
        "m2m._capi", ["m2m.i"],
        extra_compile_args=["-Wno-unused-parameter", "-Wno-missing-field-initializers"])],
    cmdclass={"build_ext": BuildSwig},
)
