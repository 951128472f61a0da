#include "engine_plugin/c_api_export.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "tensor/device_transfer.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

namespace engine_plugin {
namespace c_api {

EnvCApi_ObservationType ToC(ObservationType type) {
  switch (type) {
    case ObservationType::kBytes:
      return EnvCApi_ObservationBytes;
    case ObservationType::kDoubles:
      return EnvCApi_ObservationDoubles;
    case ObservationType::kFloats:
      return EnvCApi_ObservationFloats;
    case ObservationType::kString:
      return EnvCApi_ObservationString;
  }
  return EnvCApi_ObservationString;
}

std::vector<std::int64_t> RowMajorStrides(absl::Span<const std::int64_t> shape) {
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t stride = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

absl::StatusOr<std::unique_ptr<ExportedObservation>> Export(ObservationValue value,
                                                            Payload payload) {
  // With kOnHost, a device observation is copied to the host, owned by
  // this export, so that no host reads a device pointer as host memory
  // unawares; the copy has the value's shape and dtype and is contiguous,
  // as the checks below expect.
  if (payload == Payload::kOnHost && value.type != ObservationType::kString &&
      !value.tensor.device().is_cpu()) {
    absl::StatusOr<tensor::Tensor> host = tensor::ToDevice(value.tensor, tensor::Device::Cpu());
    if (!host.ok()) return host.status();
    value.tensor = *std::move(host);
  }
  auto exported = std::make_unique<ExportedObservation>();
  exported->value = std::move(value);
  const ObservationValue& stored = exported->value;
  EnvCApi_Observation& c = exported->c;
  c.spec.type = ToC(stored.type);
  if (stored.type == ObservationType::kString) {
    exported->shape = {static_cast<std::int64_t>(stored.text.size())};
    exported->strides = {1};
    c.payload.string = stored.text.c_str();
  } else {
    const tensor::Tensor& tensor = stored.tensor;
    // The C type promises the element type; a mismatch would make the host
    // misread every byte, so it is refused rather than passed on.
    const tensor::DType expected = ElementType(stored.type);
    if (tensor.dtype() != expected) {
      return absl::InternalError(absl::StrCat("observation tensor has dtype ",
                                              tensor::DTypeName(tensor.dtype()), ", expected ",
                                              tensor::DTypeName(expected)));
    }
    absl::StatusOr<std::byte*> data = tensor.data();
    if (!data.ok()) return data.status();
    exported->shape.assign(tensor.shape().begin(), tensor.shape().end());
    exported->strides.assign(tensor.layout().strides().begin(), tensor.layout().strides().end());
    switch (stored.type) {
      case ObservationType::kDoubles:
        c.payload.doubles = reinterpret_cast<const double*>(*data);
        break;
      case ObservationType::kFloats:
        c.payload.floats = reinterpret_cast<const float*>(*data);
        break;
      default:
        c.payload.bytes = reinterpret_cast<const std::uint8_t*>(*data);
    }
  }
  c.spec.dims = static_cast<int>(exported->shape.size());
  c.spec.shape = exported->shape.data();
  c.spec.strides = exported->strides.data();
  return exported;
}

}  // namespace c_api
}  // namespace engine_plugin
