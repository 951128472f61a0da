// device_observation.h: labenv.DeviceObservation, an observation that
// lives in GPU memory (the frame with the engine setting
// observationDevice=cuda:N, or a level's tensor from t:cuda()), as
// Lab.device_observations() hands it out.
//
// It holds the C ABI's retained handle (retain_observation_on_device), so
// the engine never writes or frees the buffer while the object, or a
// DLPack consumer of it, is alive. Python cannot read device memory, so it
// is not a numpy array: it offers shape, dtype and device, and DLPack
// export with (kDLCUDA, N), which torch.from_dlpack takes without a copy.
//
// Example (inside the extension, GIL held):
//   EnvCApi_Observation observation;
//   EnvCApi_Device device;
//   EnvCApi_RetainedObservation* handle;
//   api.retain_observation_on_device(context, 0, &observation, &device, &handle);
//   PyObject* frame = WrapDeviceObservation(observation, device, handle);  // owns handle
#ifndef ENGINE_PLUGIN_PYTHON_DEVICE_OBSERVATION_H_
#define ENGINE_PLUGIN_PYTHON_DEVICE_OBSERVATION_H_

#include "engine_plugin/env_c_api.h"
#include "engine_plugin/python/numpy_api.h"

namespace engine_plugin::python {

// Readies the type and adds it to `module` as DeviceObservation. Returns
// 0, or -1 with a Python error set.
int AddDeviceObservationType(PyObject* module);

// A DeviceObservation over `observation`'s payload on `device` (a CUDA
// device; not a string), which takes `handle` over (releasing it at once
// on failure). New reference, or null with a Python error set.
PyObject* WrapDeviceObservation(const EnvCApi_Observation& observation, EnvCApi_Device device,
                                EnvCApi_RetainedObservation* handle);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_DEVICE_OBSERVATION_H_
