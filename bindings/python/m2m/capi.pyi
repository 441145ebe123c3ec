# SPDX-License-Identifier: LGPL-2.1-or-later
"""m2m.capi to type checkers: libm2m's C API as SWIG makes it (capi.py,
generated at build time). Its types are C's, documented in
include/m2m/m2m.h, ir.h and codec.h and in each function's docstring;
here every name is Any (m2m_decoder_open, m2m_py_encoder_open,
m2m_encoder_receive, m2m_packet, m2m_py_chain_open, m2m_chain_receive,
m2m_chain_stats ... too), so that code using it checks and the package's
own hints (m2m.Device, m2m.Frame, m2m.Decoder, m2m.Encoder, m2m.Packet,
m2m.Chain, m2m.ChainStats, ...) carry the types."""
from typing import Any

def __getattr__(name: str) -> Any: ...
