"""Offline CUDA support for Bazel 4: nvcc in a genrule, objects in a cc_library.

Every CUDA target is incompatible (so `bazel test //...` skips it) unless the
build uses --config=cuda.
"""

NVCC = "/usr/local/cuda/bin/nvcc"

# sm_90 is H100/H200; the compute_90 PTX lets newer GPUs JIT it.
DEFAULT_NVCC_FLAGS = [
    "-std=c++20",
    "-O2",
    "-Xcompiler=-fPIC",
    "-gencode=arch=compute_90,code=sm_90",
    "-gencode=arch=compute_90,code=compute_90",
]

CUDA_ONLY = select({
    "//tools/cuda:enabled": [],
    "//conditions:default": ["//tools/cuda:incompatible"],
})

def cuda_library(name, srcs, hdrs = [], deps = [], nvcc_flags = [], **kwargs):
    """Compiles each .cu file with nvcc and wraps the objects in a cc_library."""
    objects = []
    for src in srcs:
        # A *.pic.o serves both the static and the shared link.
        obj = "_%s_objs/%s.pic.o" % (name, src.rsplit(".", 1)[0])
        native.genrule(
            name = "%s_%s_nvcc" % (name, src.replace("/", "_").replace(".", "_")),
            srcs = [src] + hdrs,
            outs = [obj],
            # nvcc names its temporary files after its process id, which is
            # the same small number in every sandbox's PID namespace while
            # /tmp is shared: two compiles at once overwrite each other's
            # PTX. Each compile gets a temporary folder of its own.
            cmd = ("t=$$(mktemp -d) && TMPDIR=$$t %s %s %s -I. -I$(GENDIR) " +
                   "-c $(location %s) -o $@; rc=$$?; rm -rf $$t; exit $$rc") % (
                NVCC,
                " ".join(DEFAULT_NVCC_FLAGS),
                " ".join(nvcc_flags),
                src,
            ),
            target_compatible_with = CUDA_ONLY,
            tags = ["cuda"],
        )
        objects.append(obj)
    native.cc_library(
        name = name,
        srcs = objects,
        hdrs = hdrs,
        deps = deps + ["@local_cuda//:cudart"],
        target_compatible_with = CUDA_ONLY,
        **kwargs
    )
