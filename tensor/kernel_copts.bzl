"""Compiler options for the libraries that hold the core's kernels."""

# gcc 12 at -O2 vectorises only loops whose trip count it knows; kernel
# loops run over runtime lengths and need -O3 to use SIMD (measured: the
# 8-accumulator sum goes from 0.82 to 0.41 ns/element).
KERNEL_COPTS = select({
    "//tensor:optimized": ["-O3"],
    "//conditions:default": [],
})
