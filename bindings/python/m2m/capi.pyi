# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.capi to type checkers: libm2m's C API as SWIG makes it (capi.py,
generated at build time). Its types are C's, documented in
include/m2m/m2m.h and ir.h and in each function's docstring; here every
name is Any, so that code using it checks and the package's own hints
(m2m.Device, m2m.Frame, ...) carry the types."""
from typing import Any

def __getattr__(name: str) -> Any: ...
