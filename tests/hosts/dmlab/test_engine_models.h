// The test engine's models (test_engine.cc): a file system of MD3 models
// (one shipped, models/box.md3, and those saved), the engine's calls on it
// (load_model, save_model, serialised_model_size, serialise_model), and
// the renderer's registration of a model by name, as the real engine's:
// api:replaceModelName first, the file if there is one, else the level's
// api:createModel, asked once per level of detail until it has none, each
// read through the getters and cleared. Each registered model is logged to
// <engine home>/models.log (one line a surface: "model <name> surface
// <name> shader <shader> vertices <n> faces <n> first <x> <y> <z>", and
// one "model <name> tags <n>"), and "model <name> missing" for none.
#ifndef TESTS_HOSTS_DMLAB_TEST_ENGINE_MODELS_H_
#define TESTS_HOSTS_DMLAB_TEST_ENGINE_MODELS_H_

#include <string>

#include "hosts/dmlab/dmlab_abi.h"

namespace test_engine {

// Sets the model calls of `calls`; forgets saved models.
void InstallModelCalls(DmlabCalls* calls);

// Registers model `name` as the renderer does, logging it in `home`.
void RegisterModel(const DmlabContext& context, const std::string& name, const std::string& home);

}  // namespace test_engine

#endif  // TESTS_HOSTS_DMLAB_TEST_ENGINE_MODELS_H_
