// The C ABI's actions: discrete (DeepMind Lab's act_discrete_*) and
// continuous (act_continuous_*), as the context's host declares them.
// Internal to env_c_api.
#ifndef ENGINE_PLUGIN_C_API_ACTIONS_H_
#define ENGINE_PLUGIN_C_API_ACTIONS_H_

#include "engine_plugin/env_c_api.h"

namespace engine_plugin {
namespace c_api {

// Fills the action entries of *api.
void FillActionEntries(EnvCApi* api);

}  // namespace c_api
}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_C_API_ACTIONS_H_
