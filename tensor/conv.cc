#include "tensor/conv.h"

#include <algorithm>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "tensor/elementwise.h"
#include "tensor/internal/kernel_support.h"
#include "tensor/internal/product_sum.h"
#include "tensor/work_meter.h"

namespace tensor {
namespace {

// The input as (planes, h, w) and the kernel as (outputs, taps, kh, kw),
// where output plane o sums its taps t over input plane (diagonal ? o : t)
// with kernel (o, t).
struct ConvViews {
  Tensor input, kernel;
  bool diagonal = false;
};

absl::StatusOr<ConvViews> ViewsOf(const Tensor& input, const Tensor& kernel) {
  ConvViews views{input, kernel, input.rank() == 3 && kernel.rank() == 3};
  if (input.rank() == 2) {
    absl::StatusOr<Tensor> in = input.Unsqueeze(0);
    if (!in.ok()) return in.status();
    views.input = *std::move(in);
  }
  for (int rank = views.kernel.rank(); rank < 4; ++rank) {
    absl::StatusOr<Tensor> k = views.kernel.Unsqueeze(rank == 2 ? 0 : 1);
    if (!k.ok()) return k.status();
    views.kernel = *std::move(k);
  }
  return views;
}

using internal::ProductSum;
using internal::ToProductSum;

// Each output element sums the products of the kernel taps with the input
// elements under them; in full mode the input is seen through a border of
// kh - 1 (kw - 1) zeros, which the tap ranges skip.
template <typename T>
void ConvolveLoop(bool flip, ConvMode mode, const ConvViews& v, const Tensor& out3) {
  const Shape& in = v.input.shape();
  const Shape& k = v.kernel.shape();
  const Index h = in[1], w = in[2], kh = k[2], kw = k[3];
  const Index border_h = mode == ConvMode::kFull ? kh - 1 : 0;
  const Index border_w = mode == ConvMode::kFull ? kw - 1 : 0;
  const Strides &is = v.input.layout().strides(), &ks = v.kernel.layout().strides(),
                &os = out3.layout().strides();
  const T* input = reinterpret_cast<const T*>(*v.input.data());
  const T* kernel = reinterpret_cast<const T*>(*v.kernel.data());
  T* out = reinterpret_cast<T*>(*out3.data());
  for (Index o = 0; o < out3.shape()[0]; ++o) {
    for (Index i = 0; i < out3.shape()[1]; ++i) {
      // Taps a with 0 <= i - border_h + a < h.
      const Index a_begin = std::max<Index>(0, border_h - i);
      const Index a_end = std::min(kh, h + border_h - i);
      for (Index j = 0; j < out3.shape()[2]; ++j) {
        const Index b_begin = std::max<Index>(0, border_w - j);
        const Index b_end = std::min(kw, w + border_w - j);
        ProductSum<T> sum{0};
        for (Index t = 0; t < k[1]; ++t) {
          const T* plane = input + (v.diagonal ? o : t) * is[0];
          const T* taps = kernel + o * ks[0] + t * ks[1];
          for (Index a = a_begin; a < a_end; ++a) {
            const T* in_row = plane + (i - border_h + a) * is[1] + (j - border_w) * is[2];
            const T* k_row = taps + (flip ? kh - 1 - a : a) * ks[2];
            for (Index b = b_begin; b < b_end; ++b) {
              sum += ToProductSum(in_row[b * is[2]]) *
                     ToProductSum(k_row[(flip ? kw - 1 - b : b) * ks[3]]);
            }
          }
        }
        out[o * os[0] + i * os[1] + j * os[2]] = static_cast<T>(sum);
      }
    }
  }
}

absl::Status CheckForms(const char* name, const Tensor& input, const Tensor& kernel) {
  const int ri = input.rank(), rk = kernel.rank();
  if (!((ri == 2 && rk == 2) || (ri == 3 && (rk == 3 || rk == 4)))) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": input ", input.layout().ShapeString(), " and kernel ",
                     kernel.layout().ShapeString(),
                     " make no form: give a 2-D input and kernel, a 3-D input and kernel, or a 3-D "
                     "input and a 4-D kernel"));
  }
  for (const auto& [t, role] : {std::pair{&input, "input"}, std::pair{&kernel, "kernel"}}) {
    if (t->num_elements() == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": the ", role, " ", t->layout().ShapeString(), " is empty"));
    }
  }
  const Index kernel_planes = kernel.shape()[rk == 4 ? 1 : 0];
  if (ri == 3 && input.shape()[0] != kernel_planes) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": input ", input.layout().ShapeString(), " has ", input.shape()[0],
                     " planes, kernel ", kernel.layout().ShapeString(), " is for ", kernel_planes));
  }
  return absl::OkStatus();
}

}  // namespace

const char* ConvOpName(ConvOp op) { return op == ConvOp::kConv2 ? "conv2" : "xcorr2"; }

absl::StatusOr<Shape> ConvResultShape(ConvOp op, const Tensor& input, const Tensor& kernel,
                                      ConvMode mode) {
  const char* name = ConvOpName(op);
  if (absl::Status s = CheckForms(name, input, kernel); !s.ok()) return s;
  if (absl::Status s = internal::CheckSameDType(input, kernel, name); !s.ok()) return s;
  if (input.dtype() == DType::kBool) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": not defined for bool tensors"));
  }
  const int ri = input.rank(), rk = kernel.rank();
  const Index h = input.shape()[ri - 2], w = input.shape()[ri - 1];
  const Index kh = kernel.shape()[rk - 2], kw = kernel.shape()[rk - 1];
  if (mode == ConvMode::kValid && (h < kh || w < kw)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": the kernel ", kh, "x", kw, " is larger than the input ", h, "x", w,
                     "; a valid convolution needs it to fit ('F' gives the full one)"));
  }
  const Index oh = mode == ConvMode::kValid ? h - kh + 1 : h + kh - 1;
  const Index ow = mode == ConvMode::kValid ? w - kw + 1 : w + kw - 1;
  if (ri == 2) return Shape{oh, ow};
  return Shape{kernel.shape()[0], oh, ow};
}

absl::Status Convolve(ConvOp op, const Tensor& out, const Tensor& input, const Tensor& kernel,
                      ConvMode mode, Allocator& allocator) {
  const char* name = ConvOpName(op);
  for (const Tensor* t : {&out, &input, &kernel}) {
    if (absl::StatusOr<std::byte*> d = internal::CpuData(*t, name); !d.ok()) return d.status();
  }
  absl::StatusOr<Shape> shape = ConvResultShape(op, input, kernel, mode);
  if (!shape.ok()) return shape.status();
  if (out.shape() != *shape) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": the result has shape ",
                                                   out.layout().ShapeString(), ", expected ",
                                                   ShapeToString(*shape)));
  }
  if (absl::Status s = internal::CheckSameDType(out, input, name); !s.ok()) return s;
  if (absl::Status s = internal::CheckWritable(out, name); !s.ok()) return s;
  // One unit per multiply-add: each output element sums a kernel's worth.
  const Index kernel_plane = kernel.shape()[kernel.rank() - 2] * kernel.shape()[kernel.rank() - 1];
  const Index planes = input.rank() == 3 ? input.shape()[0] : 1;
  if (absl::Status s = ChargeWork(ProductOfWork(out.num_elements(), kernel_plane, planes));
      !s.ok()) {
    return absl::ResourceExhaustedError(absl::StrCat(name, ": ", s.message()));
  }
  absl::StatusOr<ConvViews> views = ViewsOf(input, kernel);
  if (!views.ok()) return views.status();
  const bool direct = !internal::MayAlias(out, input) && !internal::MayAlias(out, kernel);
  absl::StatusOr<Tensor> target =
      direct ? out : Tensor::Uninitialized(out.dtype(), *shape, allocator);
  if (!target.ok()) return target.status();
  absl::StatusOr<Tensor> target3 = target->rank() == 2 ? target->Unsqueeze(0) : *target;
  if (!target3.ok()) return target3.status();
  DispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {  // refused above
      ConvolveLoop<T>(op == ConvOp::kConv2, mode, *views, *target3);
    }
  });
  return direct ? absl::OkStatus() : ApplyComponents(out, ElementOp::kAssign, *target);
}

}  // namespace tensor
