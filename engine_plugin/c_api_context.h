// The state behind a C ABI context, and the helpers every entry point
// uses. Internal to env_c_api (c_api_*.cc).
#ifndef ENGINE_PLUGIN_C_API_CONTEXT_H_
#define ENGINE_PLUGIN_C_API_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/c_api_export.h"
#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"

namespace engine_plugin {
namespace c_api {

// The backing of one observation_spec().
struct SpecArrays {
  EnvCApi_ObservationType type;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
};

struct Context {
  std::unique_ptr<Engine> engine;
  bool initialised = false;
  // Set when init failed: the engine is in an unknown state, so every
  // later call that needs it repeats this message.
  std::string init_failure;
  // Whether the current frame's observations can be read (after a
  // successful start or advance).
  bool has_frame = false;
  // Whether advance may run: a running episode.
  bool can_advance = false;

  std::vector<SpecArrays> specs;
  // This frame's observations by index, exported on first request. Dropped
  // before the engine steps, so its pool sees which buffers are free.
  std::vector<std::unique_ptr<ExportedObservation>> frame;
  // This step's events by index, exported on first request.
  std::vector<std::unique_ptr<ExportedEvent>> events;
  // A deque: event_type_name pointers must survive later additions.
  std::deque<std::string> event_type_names;

  std::string property_value;
  std::string error;
};

inline Context* AsContext(void* context) { return static_cast<Context*>(context); }

// Every entry point runs its body through here: a null context is refused
// (it has nowhere to keep a message) and no exception reaches C.
template <typename Result, typename Body>
Result Guarded(void* context, Result on_error, Body&& body) {
  Context* ctx = AsContext(context);
  if (ctx == nullptr) return on_error;
  try {
    return body(*ctx);
  } catch (const std::exception& e) {
    try {
      ctx->error = absl::StrCat("internal error: ", e.what());
    } catch (...) {
      ctx->error.clear();
    }
  } catch (...) {
    ctx->error.clear();
  }
  return on_error;
}

// Sets the context's message and returns `result`, for one-line failures.
template <typename Result>
Result Fail(Context& ctx, Result result, std::string message) {
  ctx.error = std::move(message);
  return result;
}

// Why `ctx` cannot serve a call that needs an initialised engine ("" when
// it can).
inline std::string NotInitialised(const Context& ctx, absl::string_view function) {
  if (!ctx.init_failure.empty()) {
    return absl::StrCat(function, ": init failed earlier: ", ctx.init_failure);
  }
  if (!ctx.initialised) return absl::StrCat(function, ": call init first");
  return "";
}

inline bool InRange(int index, std::size_t size) {
  return index >= 0 && static_cast<std::size_t>(index) < size;
}

inline std::string OutOfRange(absl::string_view function, absl::string_view what, int index,
                       std::size_t size) {
  return absl::StrCat(function, ": ", what, " index ", index, " out of range [0, ", size, ")");
}

}  // namespace c_api
}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_C_API_CONTEXT_H_
