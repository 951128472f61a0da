#include "tests/tensor/fake_cuda_backend.h"

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/loan.h"
#include "tensor/matmul.h"
#include "tensor/reduce.h"
#include "tensor/reduce_dim.h"
#include "tensor/statistics.h"
#include "tensor/tensor.h"

namespace tensor::testing {

Calls calls;

namespace {

void Record(const char* member, std::initializer_list<const Tensor*> tensors) {
  calls.members.push_back(member);
  calls.devices.clear();
  for (const Tensor* t : tensors) calls.devices.push_back(t->device());
}

// CPU memory that Storage records as cuda:0's.
class FakeCudaAllocator : public Allocator {
 public:
  Device device() const override { return Device::Cuda(0); }
  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    ++calls.allocations;
    return CpuAllocator().Allocate(bytes, zeroed);
  }
  void Deallocate(void* data, std::size_t bytes) override {
    CpuAllocator().Deallocate(data, bytes);
  }
};

// A CPU tensor over the same bytes as `t`, lent for `loan`'s scope.
absl::StatusOr<Tensor> OnHost(const Tensor& t, const ScopedLoan& loan) {
  absl::StatusOr<std::byte*> base = t.storage()->data();
  if (!base.ok()) return base.status();
  return Tensor::Lend(t.dtype(), t.layout(), *base, t.storage()->bytes(), loan.token());
}

// Runs `work` on CPU views of `tensors`.
template <typename Work>
absl::Status OnHostViews(std::initializer_list<const Tensor*> tensors, Work work) {
  ScopedLoan loan("the fake cuda backend");
  std::vector<Tensor> views;
  for (const Tensor* t : tensors) {
    absl::StatusOr<Tensor> view = OnHost(*t, loan);
    if (!view.ok()) return view.status();
    views.push_back(*view);
  }
  return work(views);
}

}  // namespace

DeviceOps MakeFakeCudaOps() {
  DeviceOps ops;
  ops.allocator = [](int index) -> absl::StatusOr<Allocator*> {
    static FakeCudaAllocator allocator;
    if (index != 0)
      return absl::InvalidArgumentError("fake cuda: no device " + std::to_string(index));
    return &allocator;
  };
  ops.copy = [](const Tensor& dst, const Tensor& src) {
    Record("copy", {&dst, &src});
    return OnHostViews({&dst, &src}, [](std::vector<Tensor>& v) {
      return ApplyComponents(v[0], ElementOp::kAssign, v[1]);
    });
  };
  ops.apply_scalars = [](const Tensor& t, ElementOp op, absl::Span<const double> values) {
    Record("apply_scalars", {&t});
    calls.element_op = op;
    calls.values.assign(values.begin(), values.end());
    return OnHostViews({&t},
                       [&](std::vector<Tensor>& v) { return ApplyScalars(v[0], op, values); });
  };
  ops.apply_components = [](const Tensor& dst, ElementOp op, const Tensor& src) {
    Record("apply_components", {&dst, &src});
    calls.element_op = op;
    return OnHostViews({&dst, &src},
                       [&](std::vector<Tensor>& v) { return ApplyComponents(v[0], op, v[1]); });
  };
  ops.apply_unary = [](const Tensor& t, UnaryFunction function) {
    Record("apply_unary", {&t});
    calls.function = function;
    return OnHostViews({&t}, [&](std::vector<Tensor>& v) { return ApplyUnary(v[0], function); });
  };
  ops.sum = [](const Tensor& t) -> absl::StatusOr<double> {
    Record("sum", {&t});
    absl::StatusOr<double> total;
    absl::Status s = OnHostViews({&t}, [&](std::vector<Tensor>& v) {
      total = Sum(v[0]);
      return total.status();
    });
    if (!s.ok()) return s;
    return total;
  };
  ops.extreme = [](const Tensor& t, internal::Extreme extreme) -> absl::StatusOr<double> {
    Record("extreme", {&t});
    calls.extreme = extreme;
    absl::StatusOr<double> found;
    absl::Status s = OnHostViews({&t}, [&](std::vector<Tensor>& v) {
      found = ExtremeOf(v[0], extreme);
      return found.status();
    });
    if (!s.ok()) return s;
    return found;
  };
  ops.sum_along = [](const Tensor& input, int dim, const Tensor& out) {
    Record("sum_along", {&input, &out});
    calls.dim = dim;
    return OnHostViews({&input, &out}, [&](std::vector<Tensor>& v) {
      absl::StatusOr<Tensor> sums = SumAlong(v[0], dim);
      if (!sums.ok()) return sums.status();
      return ApplyComponents(v[1], ElementOp::kAssign, *sums);
    });
  };
  ops.extreme_along = [](const Tensor& input, int dim, internal::Extreme extreme, Index first_index,
                         const Tensor& values, const Tensor& indices) {
    Record("extreme_along", {&input, &values, &indices});
    calls.dim = dim;
    calls.extreme = extreme;
    calls.first_index = first_index;
    return OnHostViews({&input, &values, &indices}, [&](std::vector<Tensor>& v) {
      absl::StatusOr<ValuesAndIndices> found = ExtremeAlong(v[0], dim, extreme, first_index);
      if (!found.ok()) return found.status();
      if (absl::Status s = ApplyComponents(v[1], ElementOp::kAssign, found->values); !s.ok()) {
        return s;
      }
      return ApplyComponents(v[2], ElementOp::kAssign, found->indices);
    });
  };
  ops.compare_scalar = [](const Tensor& x, CompareOp op, double value, const Tensor& out) {
    Record("compare_scalar", {&x, &out});
    calls.compare_op = op;
    calls.value = value;
    return OnHostViews({&x, &out}, [&](std::vector<Tensor>& v) {
      absl::StatusOr<Tensor> mask = CompareScalar(v[0], op, value);
      if (!mask.ok()) return mask.status();
      return ApplyComponents(v[1], ElementOp::kAssign, *mask);
    });
  };
  ops.compare_tensor = [](const Tensor& x, CompareOp op, const Tensor& y, const Tensor& out) {
    Record("compare_tensor", {&x, &y, &out});
    calls.compare_op = op;
    return OnHostViews({&x, &y, &out}, [&](std::vector<Tensor>& v) {
      absl::StatusOr<Tensor> mask = CompareTensor(v[0], op, v[1]);
      if (!mask.ok()) return mask.status();
      return ApplyComponents(v[2], ElementOp::kAssign, *mask);
    });
  };
  ops.add_product = [](BlasOp op, const Tensor& out, double beta, const Tensor& add, double alpha,
                       const Tensor& lhs, const Tensor& rhs) {
    Record("add_product", {&out, &add, &lhs, &rhs});
    calls.blas_op = op;
    calls.beta = beta;
    calls.alpha = alpha;
    return OnHostViews({&out, &add, &lhs, &rhs}, [&](std::vector<Tensor>& v) {
      return AddProduct(op, v[0], beta, v[1], alpha, v[2], v[3]);
    });
  };
  return ops;
}

}  // namespace tensor::testing
