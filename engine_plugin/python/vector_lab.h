// vector_lab.h: labenv.VectorLab, n engine instances stepped in lock-step
// on a C++ thread pool with the GIL released, their observations batched.
//
// BATCHES. Each requested observation comes back as one read-only
// ObservationArray of shape (n, *shape). RGB_INTERLEAVED is rendered by
// each engine straight into its slot of that array (Engine::SetFrameTarget
// / set_frame_target): one write per frame, no copy. Other observations are
// computed by the engine into its own buffers and copied once into their
// slot. String observations cannot be batched and are refused.
//
// BUFFERS. The batch arrays come from a small set of preallocated buffers.
// A buffer is written again only once Python holds no reference to its
// arrays (nor to a view of them, nor a DLPack tensor over them): like
// Lab's arrays, a batch never changes under whoever keeps it.
//
// AUTORESET (next step). When env i's episode ends in step t, step t
// returns its final frame with terminated[i] (the level ended it) or
// truncated[i] (episodeLengthSeconds cut it short). In step t + 1 env i
// ignores its action and starts its next episode: it returns that
// episode's first frame with reward 0 and both flags False.
//
// SEEDS. reset(seed=s) starts episode 0 of every env; env i's episode k
// (counting from that reset) gets engine episode number k and seed
// s + i + k * n (modulo 2**64), so no two episodes share a seed. seed=None
// draws s at random. A single Lab replays env i's episode k with
// lab.reset(episode=k, seed=s + i + k * n).
//
// ERRORS. An engine error in any env (a Lua error in the level script)
// raises RuntimeError naming the env and carrying the engine's message;
// the failed envs start a new episode in the next step.
//
// Example (Python):
//   envs = labenv.VectorLab(8, 'demo_maze', ['RGB_INTERLEAVED'], {'width': '84'})
//   obs = envs.reset(seed=0)                       # {'RGB_INTERLEAVED': (8, 84, 84, 3)}
//   obs, reward, terminated, truncated = envs.step(np.zeros((8, 7), np.intc))
#ifndef ENGINE_PLUGIN_PYTHON_VECTOR_LAB_H_
#define ENGINE_PLUGIN_PYTHON_VECTOR_LAB_H_

#include "engine_plugin/python/numpy_api.h"

namespace engine_plugin::python {

// Readies labenv.VectorLab and adds it to `module`. Returns 0, or -1 with
// a Python error set.
int AddVectorLabType(PyObject* module);

}  // namespace engine_plugin::python

#endif  // ENGINE_PLUGIN_PYTHON_VECTOR_LAB_H_
