#include "tensor/device.h"

#include <string>

namespace tensor {

std::string Device::ToString() const {
  return type == DeviceType::kCpu ? "cpu" : "cuda:" + std::to_string(index);
}

}  // namespace tensor
