// The CUDA backend against the hardware's own bars, in one process:
//  - cadd, copy and sum on 64M floats, as a fraction of the device-to-
//    device cudaMemcpy bandwidth measured first (counter vs_memcpy: 1 is
//    as fast as the copy engine moves bytes);
//  - mm at 4096 float32 beside a raw cublasSgemm;
//  - one step's upload of an 84x84x3 and a 320x240x3 uint8 frame, from
//    pageable and from pinned host memory.
// Device work is timed with CUDA events (manual time); the operations
// synchronise before they return, so the events bracket all of it.
//
// bazel run --config=cuda -c opt //benchmarks:cuda_benchmark
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "absl/status/status.h"
#include "benchmark/benchmark.h"
#include "tensor/blas.h"
#include "tensor/cuda/allocator.h"
#include "tensor/cuda/copy.h"
#include "tensor/device_ops.h"
#include "tensor/elementwise.h"
#include "tensor/loan.h"
#include "tensor/tensor.h"

namespace tensor::cuda {
namespace {

constexpr Index kElements = Index{64} << 20;

// Stops the process with the reason: a benchmark on a failed setup would
// report nonsense.
template <typename T>
T OrDie(absl::StatusOr<T> value) {
  if (!value.ok()) {
    std::fprintf(stderr, "cuda_benchmark: %s\n", value.status().ToString().c_str());
    std::exit(1);
  }
  return *std::move(value);
}

void OrDie(const absl::Status& status) {
  if (!status.ok()) {
    std::fprintf(stderr, "cuda_benchmark: %s\n", status.ToString().c_str());
    std::exit(1);
  }
}

Allocator& Gpu() { return *OrDie(CudaAllocator(0)); }

const DeviceOps& Ops() { return *OrDie(DeviceOpsFor(Device::Cuda(0), "cuda_benchmark")); }

Tensor GpuFloats(absl::Span<const Index> shape, double value) {
  Tensor t = OrDie(Tensor::Uninitialized(DType::kFloat32, shape, Gpu()));
  OrDie(Ops().apply_scalars(t, ElementOp::kAssign, {value}));
  return t;
}

// Times body() with CUDA events on the default stream, as the iteration's
// manual time.
template <typename Body>
void TimeIterations(benchmark::State& state, Body body) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (auto _ : state) {
    cudaEventRecord(start, 0);
    body();
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    state.SetIterationTime(ms / 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

// Bytes per second of a device-to-device cudaMemcpy of 64M floats
// (counting the read and the write), measured once per process.
double MemcpyBandwidth() {
  static const double bandwidth = [] {
    const Tensor a = GpuFloats({kElements}, 1), b = GpuFloats({kElements}, 2);
    void* dst = OrDie(a.data());
    const void* src = OrDie(b.data());
    const std::size_t bytes = kElements * sizeof(float);
    cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice);  // warm-up
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    constexpr int kRepeats = 20;
    cudaEventRecord(start, 0);
    for (int i = 0; i < kRepeats; ++i) cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0);
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return 2.0 * bytes * kRepeats / (ms / 1e3);
  }();
  return bandwidth;
}

// Reports `bytes_moved` per iteration as throughput, and as a fraction of
// the memcpy bandwidth: the time memcpy would need for those bytes, as a
// rate over the iterations' time, is achieved / memcpy bandwidth.
void ReportAgainstMemcpy(benchmark::State& state, double bytes_moved) {
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes_moved * state.iterations()));
  state.counters["vs_memcpy"] = benchmark::Counter(
      bytes_moved / MemcpyBandwidth(), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_MemcpyDeviceToDevice(benchmark::State& state) {
  const Tensor a = GpuFloats({kElements}, 1), b = GpuFloats({kElements}, 2);
  void* dst = OrDie(a.data());
  const void* src = OrDie(b.data());
  TimeIterations(state, [&] {
    cudaMemcpyAsync(dst, src, kElements * sizeof(float), cudaMemcpyDeviceToDevice, 0);
  });
  ReportAgainstMemcpy(state, 2.0 * kElements * sizeof(float));
}
BENCHMARK(BM_MemcpyDeviceToDevice)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_Cadd(benchmark::State& state) {
  const Tensor a = GpuFloats({kElements}, 1), b = GpuFloats({kElements}, 2);
  TimeIterations(state, [&] { OrDie(Ops().apply_components(a, ElementOp::kAdd, b)); });
  ReportAgainstMemcpy(state, 3.0 * kElements * sizeof(float));  // two reads, one write
}
BENCHMARK(BM_Cadd)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_Copy(benchmark::State& state) {
  const Tensor a = GpuFloats({kElements}, 1), b = GpuFloats({kElements}, 2);
  TimeIterations(state, [&] { OrDie(Ops().copy(a, b)); });
  ReportAgainstMemcpy(state, 2.0 * kElements * sizeof(float));
}
BENCHMARK(BM_Copy)->UseManualTime()->Unit(benchmark::kMillisecond);

// The strided kernel rather than cudaMemcpy: a transposed source.
void BM_CopyTransposed(benchmark::State& state) {
  const Tensor a = GpuFloats({8192, 8192}, 1);
  const Tensor b = OrDie(GpuFloats({8192, 8192}, 2).Transpose(0, 1));
  TimeIterations(state, [&] { OrDie(Ops().copy(a, b)); });
  ReportAgainstMemcpy(state, 2.0 * kElements * sizeof(float));
}
BENCHMARK(BM_CopyTransposed)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_Sum(benchmark::State& state) {
  const Tensor a = GpuFloats({kElements}, 0.5);
  TimeIterations(state, [&] { benchmark::DoNotOptimize(OrDie(Ops().sum(a))); });
  ReportAgainstMemcpy(state, 1.0 * kElements * sizeof(float));  // one read
}
BENCHMARK(BM_Sum)->UseManualTime()->Unit(benchmark::kMillisecond);

constexpr Index kMatrix = 4096;

void BM_Mm(benchmark::State& state) {
  const Tensor a = GpuFloats({kMatrix, kMatrix}, 0.5), b = GpuFloats({kMatrix, kMatrix}, 0.25);
  const Tensor c = GpuFloats({kMatrix, kMatrix}, 0);
  TimeIterations(state, [&] { OrDie(Ops().add_product(BlasOp::kMm, c, 0, c, 1, a, b)); });
  state.counters["flops"] = benchmark::Counter(2.0 * kMatrix * kMatrix * kMatrix,
                                               benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Mm)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_RawCublasSgemm(benchmark::State& state) {
  const Tensor a = GpuFloats({kMatrix, kMatrix}, 0.5), b = GpuFloats({kMatrix, kMatrix}, 0.25);
  const Tensor c = GpuFloats({kMatrix, kMatrix}, 0);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    state.SkipWithError("cublasCreate failed");
    return;
  }
  const float alpha = 1, beta = 0;
  const auto* pa = reinterpret_cast<const float*>(OrDie(a.data()));
  const auto* pb = reinterpret_cast<const float*>(OrDie(b.data()));
  auto* pc = reinterpret_cast<float*>(OrDie(c.data()));
  const int n = static_cast<int>(kMatrix);
  TimeIterations(state, [&] {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, pb, n, pa, n, &beta, pc, n);
  });
  cublasDestroy(handle);
  state.counters["flops"] = benchmark::Counter(2.0 * kMatrix * kMatrix * kMatrix,
                                               benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_RawCublasSgemm)->UseManualTime()->Unit(benchmark::kMillisecond);

// Host memory from cudaMallocHost, lent to a tensor; freed with the loan
// revoked first.
class PinnedFrame {
 public:
  PinnedFrame(Index height, Index width) : loan_(Loan::Create("the pinned frame")) {
    bytes_ = static_cast<std::size_t>(height * width * 3);
    if (cudaMallocHost(&data_, bytes_) != cudaSuccess) data_ = nullptr;
    if (data_ != nullptr) {
      tensor_ = OrDie(Tensor::Lend(DType::kUInt8, OrDie(Layout::Contiguous({height, width, 3})),
                                   data_, bytes_, loan_, Device::Cpu()));
    }
  }
  ~PinnedFrame() {
    loan_->Revoke();
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  bool ok() const { return data_ != nullptr; }
  const Tensor& tensor() const { return tensor_; }

 private:
  std::shared_ptr<Loan> loan_;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  Tensor tensor_;
};

// One step's upload of a frame into a tensor already on the device, as an
// environment loop does it. Arguments: height, width, pinned.
void BM_UploadFrame(benchmark::State& state) {
  const Index height = state.range(0), width = state.range(1);
  const bool pinned = state.range(2) != 0;
  PinnedFrame pinned_frame(height, width);
  if (pinned && !pinned_frame.ok()) {
    state.SkipWithError("cudaMallocHost failed");
    return;
  }
  const Tensor frame =
      pinned ? pinned_frame.tensor() : OrDie(Tensor::Zeros(DType::kUInt8, {height, width, 3}));
  const Tensor on_device = OrDie(Tensor::Zeros(DType::kUInt8, {height, width, 3}, Gpu()));
  TimeIterations(state, [&] { OrDie(Copy(on_device, frame)); });
  state.SetBytesProcessed(static_cast<std::int64_t>(height * width * 3) * state.iterations());
}
BENCHMARK(BM_UploadFrame)
    ->ArgNames({"h", "w", "pinned"})
    ->Args({84, 84, 0})
    ->Args({84, 84, 1})
    ->Args({240, 320, 0})
    ->Args({240, 320, 1})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tensor::cuda
