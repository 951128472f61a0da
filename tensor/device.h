// Device: where a storage's bytes live.
//
// Example:
//   Device gpu = Device::Cuda(0);
//   gpu.ToString();  // "cuda:0"
#ifndef TENSOR_DEVICE_H_
#define TENSOR_DEVICE_H_

#include <string>

namespace tensor {

enum class DeviceType { kCpu, kCuda };

struct Device {
  DeviceType type = DeviceType::kCpu;
  int index = 0;

  static Device Cpu() { return {}; }
  static Device Cuda(int index) { return {DeviceType::kCuda, index}; }

  bool is_cpu() const { return type == DeviceType::kCpu; }
  std::string ToString() const;

  friend bool operator==(const Device&, const Device&) = default;
};

}  // namespace tensor

#endif  // TENSOR_DEVICE_H_
