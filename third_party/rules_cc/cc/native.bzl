"""Aliases for native C++ symbols, so defs.bzl can re-export them by name.

Starlark forbids `CcInfo = CcInfo` in one file (referenced before assignment).
"""

NativeCcInfo = CcInfo
native_cc_common = cc_common
