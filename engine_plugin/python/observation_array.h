// observation_array.h: labenv.ObservationArray, the read-only numpy arrays
// that observations reach Python as, and the functions that make them.
//
// An ObservationArray is a numpy.ndarray subclass whose only addition is
// DLPack export (__dlpack__, __dlpack_device__). numpy's own __dlpack__
// refuses read-only arrays, and observation arrays are read-only by
// contract, so torch.from_dlpack could not take them without this.
//
// Observations from Lab alias the engine's pooled storage: the array's base
// is a capsule owning the C ABI's retained handle, released
// (env_release_observation) when the last array or view over it, or a
// DLPack consumer holding it, goes away. The engine never writes a buffer a
// handle holds, so the data never changes under the array. Shape and
// strides are always taken from the observation, never assumed.
//
// Example (inside the extension, GIL held):
//   EnvCApi_Observation observation;
//   EnvCApi_RetainedObservation* handle;
//   api.retain_observation(context, 0, &observation, &handle);
//   PyObject* array = WrapRetainedObservation(observation, handle);  // owns handle
#ifndef ENGINE_PLUGIN_PYTHON_OBSERVATION_ARRAY_H_
#define ENGINE_PLUGIN_PYTHON_OBSERVATION_ARRAY_H_

#include <cstddef>
#include <cstdint>

#include "absl/types/span.h"
#include "engine_plugin/env_c_api.h"
#include "engine_plugin/python/numpy_api.h"

namespace engine_plugin::python {

// Readies the type and adds it to `module` as ObservationArray. Returns 0,
// or -1 with a Python error set.
int AddObservationArrayType(PyObject* module);

// The numpy type number of an ABI observation type (-1 for strings).
int NumpyTypeOf(EnvCApi_ObservationType type);

// The payload of a tensor observation (bytes, doubles or floats) and the
// size of its elements.
const void* TensorPayload(const EnvCApi_Observation& observation);
std::size_t ElementBytes(EnvCApi_ObservationType type);

// A read-only ObservationArray over `observation`'s payload, which `handle`
// keeps alive; the array takes `handle` over (releasing it at once on
// failure). A string observation becomes a str and `handle` is released.
// New reference, or null with a Python error set.
PyObject* WrapRetainedObservation(const EnvCApi_Observation& observation,
                                  EnvCApi_RetainedObservation* handle);

// A copy of `observation` as a new array (or str), for data that the engine
// only lends until the next step (events). New reference or null.
PyObject* CopyObservation(const EnvCApi_Observation& observation);

// A new C-contiguous ObservationArray of `shape` that owns its memory,
// marked read-only for Python (the extension still writes it: VectorLab's
// batch buffers). New reference or null.
PyObject* NewOwnedObservationArray(int numpy_type, absl::Span<const npy_intp> shape);

// A read-only ObservationArray viewing index `index` along `axis` of the
// ObservationArray `base` (which it holds): base[:, index] for axis 1.
// Null with a Python error set on failure.
PyObject* NewObservationArrayView(PyObject* base, int axis, std::size_t index);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_OBSERVATION_ARRAY_H_
