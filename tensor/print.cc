#include "tensor/print.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "tensor/device_transfer.h"
#include "tensor/work_meter.h"

namespace tensor {
namespace {

// Dimensions longer than twice this are elided to their first and last
// kShown entries when the tensor has more than max_elements elements.
constexpr Index kShown = 3;

// Bounds on what is printed, whatever the tensor: printing recurses once
// per dimension, and a tensor of small extents in many dimensions (6^12
// elements, none elided) would print billions of values. Past them, the
// tensor is summarised by its header and a count.
constexpr int kMaxPrintedRank = 64;
constexpr Index kMaxPrintedValues = 10000;

// The work (work_meter.h) of formatting one value: about 0.7 us, some 64
// Lua instructions' worth.
constexpr Index kWorkPerFormattedValue = 64;

// How many values a printer showing `shown` entries of each long
// dimension prints (saturating at kMaxPrintedValues + 1).
Index PrintedValues(const Layout& layout, Index shown) {
  Index values = 1;
  for (Index extent : layout.shape()) {
    values *= extent > 2 * shown ? 2 * shown : extent;
    if (values > kMaxPrintedValues) return kMaxPrintedValues + 1;
  }
  return values;
}

template <typename T>
std::string FormatValue(T value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (kIsFloating<T>) {
    char buffer[32];
    // %g with 6 significant digits is what DeepMind Lab's std::ostream
    // printing gives.
    std::snprintf(buffer, sizeof(buffer), "%g",
                  static_cast<double>(static_cast<ComputeType<T>>(value)));
    return buffer;
  } else {
    return absl::StrCat(static_cast<std::int64_t>(value));
  }
}

template <typename T>
class Printer {
 public:
  // Prints every entry when `shown` is 0; else `shown` entries at each
  // end of each dimension longer than 2 * shown.
  Printer(const Layout& layout, const T* origin, Index shown)
      : layout_(layout), origin_(origin), shown_(shown) {}

  std::string Print() {
    // The first pass finds the widest value, the second aligns to it.
    Walk(0, 0, nullptr);
    std::string out;
    Walk(0, 0, &out);
    return out;
  }

 private:
  bool Elided(int dim, Index i) const {
    const Index extent = layout_.shape()[dim];
    return shown_ > 0 && extent > 2 * shown_ && i >= shown_ && i < extent - shown_;
  }

  // Prints the sub-tensor at dimension `dim` starting at `offset` into
  // `out`, or only measures its values when `out` is null.
  void Walk(int dim, Index offset, std::string* out) {
    const Index extent = layout_.shape()[dim];
    const Index stride = layout_.strides()[dim];
    const bool innermost = dim == layout_.rank() - 1;
    const std::string separator = innermost ? ", " : ",\n" + std::string(dim + 1, ' ');
    if (out) out->push_back('[');
    for (Index i = 0; i < extent; ++i) {
      if (Elided(dim, i)) {
        if (out) absl::StrAppend(out, "...", separator);
        i = extent - shown_ - 1;
        continue;
      }
      if (innermost) {
        const std::string value = FormatValue(origin_[offset + i * stride]);
        if (out) {
          out->append(width_ - value.size(), ' ');
          out->append(value);
        } else {
          width_ = std::max(width_, value.size());
        }
      } else {
        Walk(dim + 1, offset + i * stride, out);
      }
      if (out && i + 1 < extent) out->append(separator);
    }
    if (out) out->push_back(']');
  }

  const Layout& layout_;
  const T* const origin_;
  const Index shown_;
  std::size_t width_ = 0;
};

}  // namespace

absl::StatusOr<std::string> ToString(const Tensor& tensor, const PrintOptions& options) {
  if (!tensor.device().is_cpu()) [[unlikely]] {
    // Printed from a copy on the host; the header line says where it lives.
    absl::StatusOr<Tensor> host = ToDevice(tensor, Device::Cpu());
    if (!host.ok()) return host.status();
    absl::StatusOr<std::string> text = ToString(*host, options);
    if (!text.ok()) return text;
    text->insert(text->find(']') + 1, absl::StrCat(" device: ", tensor.device().ToString()));
    return text;
  }
  // Not CpuData: that charges every element as work (work_meter.h), and
  // printing reads at most kMaxPrintedValues of them. It charges those it
  // reads, below: a loop of prints is work like any other.
  absl::StatusOr<std::byte*> origin = tensor.data();
  if (!origin.ok()) return origin.status();
  std::string out = absl::StrCat("[", std::string(options.type_prefix.data(), options.type_prefix.size()),
                                 DTypeTensorName(tensor.dtype()),
                                 "]\nShape: ", tensor.layout().ShapeString());
  if (tensor.num_elements() == 0) return absl::StrCat(out, " Empty");
  // Elide long dimensions to kShown entries at each end, or to one if that
  // is still too many values; past that, summarise.
  Index shown = 0;
  if (tensor.num_elements() > std::min(options.max_elements, kMaxPrintedValues)) {
    shown = PrintedValues(tensor.layout(), kShown) <= kMaxPrintedValues ? kShown : 1;
  }
  if (tensor.rank() > kMaxPrintedRank ||
      (shown > 0 && PrintedValues(tensor.layout(), shown) > kMaxPrintedValues)) {
    return absl::StrCat(out, "\n[", tensor.num_elements(), " elements in ", tensor.rank(),
                        " dimensions: too many to print]");
  }
  // Each printed value is formatted twice (to measure, then to write), and
  // formatting one costs about what kWorkPerFormattedValue kernel elements
  // (or Lua instructions) do.
  const Index printed = shown == 0 ? tensor.num_elements() : PrintedValues(tensor.layout(), shown);
  if (absl::Status charged = ChargeWork(2 * kWorkPerFormattedValue * printed); !charged.ok()) {
    return absl::ResourceExhaustedError(absl::StrCat("tostring: ", charged.message()));
  }
  out.push_back('\n');
  DispatchDType(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Printer<T> printer(tensor.layout(), reinterpret_cast<const T*>(*origin), shown);
    out.append(printer.Print());
  });
  return out;
}

}  // namespace tensor
