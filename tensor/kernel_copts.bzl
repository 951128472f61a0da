"""Compiler options for the libraries that hold the core's kernels."""

# gcc 12 at -O2 vectorises only loops whose trip count it knows; kernel
# loops run over runtime lengths and need -O3 to use SIMD (measured: the
# 8-accumulator sum goes from 0.82 to 0.41 ns/element).
# -falign-loops=32 keeps a short loop inside one 64-byte line wherever the
# link puts it: when the 22-byte loop of add on doubles crossed a line,
# ops_bench's add_scalar_1M ran at 0.36-0.62 ns/element in every run,
# against 0.18-0.33 with it inside one.
# -ffp-contract=off in every mode: the copies of a loop for each vector
# width (internal/vector_width.h) must give the baseline's bits, and a
# fused multiply-add rounds once where the baseline rounds twice.
KERNEL_COPTS = ["-ffp-contract=off"] + select({
    "//tensor:optimized": ["-O3", "-falign-loops=32"],
    "//conditions:default": [],
})
