#include "engine_plugin/env_c_api.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine_plugin/c_api_actions.h"
#include "engine_plugin/c_api_context.h"
#include "engine_plugin/c_api_export.h"
#include "engine_plugin/engine.h"
#include "engine_plugin/level_source.h"
#include "engine_plugin/observation.h"
#include "tensor/device_transfer.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"

// A retained handle owns its observation outright: nothing ties it to the
// context, which may be released first.
struct EnvCApi_RetainedObservation_s {
  std::unique_ptr<engine_plugin::c_api::ExportedObservation> exported;
};

namespace engine_plugin {
namespace {

using c_api::AsContext;
using c_api::Context;
using c_api::Export;
using c_api::ExportedEvent;
using c_api::ExportedObservation;
using c_api::Fail;
using c_api::Guarded;
using c_api::InRange;
using c_api::NotInitialised;
using c_api::OutOfRange;
using c_api::Payload;
using c_api::RowMajorStrides;
using c_api::SpecArrays;
using c_api::ToC;

// Drops everything that belonged to the previous step; see Context::frame.
void BeginStep(Context& ctx) {
  ctx.frame.clear();
  ctx.frame.resize(ctx.specs.size());
  ctx.events.clear();
}

int Setting(void* context, const char* key, const char* value) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (key == nullptr || value == nullptr) {
      return Fail(ctx, 1, "setting: key and value must not be null");
    }
    if (ctx.initialised || !ctx.init_failure.empty()) {
      return Fail(ctx, 1, absl::StrCat("setting '", key, "': settings must come before init"));
    }
    absl::Status status = ctx.engine->SetSetting(key, value);
    if (!status.ok()) {
      return Fail(ctx, 1, absl::StrCat("setting '", key, "' = '", value, "': ", status.message()));
    }
    return 0;
  });
}

int Init(void* context) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (ctx.initialised || !ctx.init_failure.empty()) {
      return Fail(ctx, 1, "init: called twice");
    }
    absl::Status status = ctx.engine->Init();
    if (!status.ok()) {
      ctx.init_failure = std::string(status.message());
      return Fail(ctx, 1, absl::StrCat("init: ", status.message()));
    }
    for (const ObservationSpec& spec : ctx.engine->observation_specs()) {
      SpecArrays arrays{ToC(spec.type), spec.shape, {}};
      // A string's length varies from frame to frame.
      if (spec.type == ObservationType::kString) arrays.shape = {-1};
      arrays.strides = spec.type == ObservationType::kString ? std::vector<std::int64_t>{1}
                                                             : RowMajorStrides(arrays.shape);
      ctx.specs.push_back(std::move(arrays));
    }
    ctx.initialised = true;
    return 0;
  });
}

int Start(void* context, int episode, std::uint64_t seed) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (std::string why = NotInitialised(ctx, "start"); !why.empty()) {
      return Fail(ctx, 1, std::move(why));
    }
    // Refused from inside a level callback: this step's payloads stay valid.
    if (absl::Status nested = ctx.engine->CheckCanStep("start"); !nested.ok()) {
      return Fail(ctx, 1, absl::StrCat("start: ", nested.message()));
    }
    BeginStep(ctx);
    ctx.has_frame = false;
    ctx.can_advance = false;
    absl::Status status = ctx.engine->Start(episode, seed);
    if (!status.ok()) return Fail(ctx, 1, absl::StrCat("start: ", status.message()));
    ctx.has_frame = true;
    ctx.can_advance = true;
    return 0;
  });
}

void ReleaseContext(void* context) { delete AsContext(context); }

const char* ErrorMessage(void* context) {
  if (context == nullptr) return "null context";
  return AsContext(context)->error.c_str();
}

int ObservationCount(void* context) {
  return Guarded(context, -1, [&](Context& ctx) {
    if (std::string why = NotInitialised(ctx, "observation_count"); !why.empty()) {
      return Fail(ctx, -1, std::move(why));
    }
    return static_cast<int>(ctx.specs.size());
  });
}

const char* ObservationName(void* context, int index) {
  return Guarded(context, static_cast<const char*>(nullptr), [&](Context& ctx) -> const char* {
    if (std::string why = NotInitialised(ctx, "observation_name"); !why.empty()) {
      return Fail(ctx, nullptr, std::move(why));
    }
    const std::vector<ObservationSpec>& specs = ctx.engine->observation_specs();
    if (!InRange(index, specs.size())) {
      return Fail(ctx, nullptr, OutOfRange("observation_name", "observation", index, specs.size()));
    }
    return specs[index].name.c_str();
  });
}

int GetObservationSpec(void* context, int index, EnvCApi_ObservationSpec* spec) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (std::string why = NotInitialised(ctx, "observation_spec"); !why.empty()) {
      return Fail(ctx, 1, std::move(why));
    }
    if (spec == nullptr) return Fail(ctx, 1, "observation_spec: spec must not be null");
    if (!InRange(index, ctx.specs.size())) {
      return Fail(ctx, 1, OutOfRange("observation_spec", "observation", index, ctx.specs.size()));
    }
    const SpecArrays& arrays = ctx.specs[index];
    spec->type = arrays.type;
    spec->dims = static_cast<int>(arrays.shape.size());
    spec->shape = arrays.shape.data();
    spec->strides = arrays.strides.data();
    return 0;
  });
}

int GetObservationBounds(void* context, int index, double* min_value, double* max_value) {
  return Guarded(context, -1, [&](Context& ctx) {
    if (std::string why = NotInitialised(ctx, "observation_bounds"); !why.empty()) {
      return Fail(ctx, -1, std::move(why));
    }
    if (min_value == nullptr || max_value == nullptr) {
      return Fail(ctx, -1, "observation_bounds: min_value and max_value must not be null");
    }
    const std::vector<ObservationSpec>& specs = ctx.engine->observation_specs();
    if (!InRange(index, specs.size())) {
      return Fail(ctx, -1, OutOfRange("observation_bounds", "observation", index, specs.size()));
    }
    if (!specs[index].bounds) return 0;
    *min_value = specs[index].bounds->min;
    *max_value = specs[index].bounds->max;
    return 1;
  });
}

// Checks what observation and retain_observation share; "" when fine.
std::string CheckObservationCall(const Context& ctx, absl::string_view function, int index,
                                 const EnvCApi_Observation* observation) {
  if (std::string why = NotInitialised(ctx, function); !why.empty()) return why;
  if (observation == nullptr) return absl::StrCat(function, ": observation must not be null");
  if (!InRange(index, ctx.specs.size())) {
    return OutOfRange(function, "observation", index, ctx.specs.size());
  }
  if (!ctx.has_frame) {
    return absl::StrCat(function,
                        ": no frame to observe (call start, or start again after an error)");
  }
  return "";
}

int GetObservation(void* context, int index, EnvCApi_Observation* observation) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (std::string why = CheckObservationCall(ctx, "observation", index, observation);
        !why.empty()) {
      return Fail(ctx, 1, std::move(why));
    }
    if (ctx.frame[index] == nullptr) {
      absl::StatusOr<ObservationValue> value = ctx.engine->SteadyObservation(index);
      if (!value.ok()) {
        return Fail(ctx, 1,
                    absl::StrCat("observation '", ctx.engine->observation_specs()[index].name,
                                 "': ", value.status().message()));
      }
      absl::StatusOr<std::unique_ptr<ExportedObservation>> exported = Export(*std::move(value));
      if (!exported.ok()) {
        return Fail(ctx, 1,
                    absl::StrCat("observation '", ctx.engine->observation_specs()[index].name,
                                 "': ", exported.status().message()));
      }
      // The level's customObservation may have let the host in (a kept
      // listProperty visitor), and an observation() from there filled the
      // slot first: that payload is the step's, and the host may hold it.
      if (ctx.frame[index] == nullptr) ctx.frame[index] = *std::move(exported);
    }
    *observation = ctx.frame[index]->c;
    return 0;
  });
}

EnvCApi_Device ToC(tensor::Device device) {
  if (device.is_cpu()) return {EnvCApi_DeviceCpu, 0};
  return {EnvCApi_DeviceCuda, device.index};
}

// retain_observation and retain_observation_on_device (`function`), which
// also says where the payload is when `device` is not null.
int Retain(void* context, const char* function, Payload payload, int index,
           EnvCApi_Observation* observation, EnvCApi_Device* device,
           EnvCApi_RetainedObservation** handle) {
  if (handle != nullptr) *handle = nullptr;
  return Guarded(context, 1, [&](Context& ctx) {
    if (std::string why = CheckObservationCall(ctx, function, index, observation); !why.empty()) {
      return Fail(ctx, 1, std::move(why));
    }
    if (handle == nullptr) return Fail(ctx, 1, absl::StrCat(function, ": handle must not be null"));
    if (payload == Payload::kWhereItIs && device == nullptr) {
      return Fail(ctx, 1, absl::StrCat(function, ": device must not be null"));
    }
    absl::StatusOr<ObservationValue> value = ctx.engine->RetainObservation(index);
    if (!value.ok()) {
      return Fail(ctx, 1,
                  absl::StrCat(function, " '", ctx.engine->observation_specs()[index].name,
                               "': ", value.status().message()));
    }
    absl::StatusOr<std::unique_ptr<ExportedObservation>> exported =
        Export(*std::move(value), payload);
    if (!exported.ok()) {
      return Fail(ctx, 1,
                  absl::StrCat(function, " '", ctx.engine->observation_specs()[index].name,
                               "': ", exported.status().message()));
    }
    auto retained = std::make_unique<EnvCApi_RetainedObservation>();
    retained->exported = *std::move(exported);
    *observation = retained->exported->c;
    if (device != nullptr) {
      const ObservationValue& kept = retained->exported->value;
      *device = kept.type == ObservationType::kString ? ToC(tensor::Device::Cpu())
                                                      : ToC(kept.tensor.device());
    }
    *handle = retained.release();
    return 0;
  });
}

int RetainObservation(void* context, int index, EnvCApi_Observation* observation,
                      EnvCApi_RetainedObservation** handle) {
  return Retain(context, "retain_observation", Payload::kOnHost, index, observation, nullptr,
                handle);
}

int RetainObservationOnDevice(void* context, int index, EnvCApi_Observation* observation,
                              EnvCApi_Device* device, EnvCApi_RetainedObservation** handle) {
  return Retain(context, "retain_observation_on_device", Payload::kWhereItIs, index, observation,
                device, handle);
}

int Fps(void* context) {
  return Guarded(context, -1, [&](Context& ctx) { return ctx.engine->fps(); });
}

int EventTypeCount(void* context) {
  return Guarded(context, -1, [&](Context& ctx) {
    return static_cast<int>(ctx.engine->event_type_names().size());
  });
}

const char* EventTypeName(void* context, int index) {
  return Guarded(context, static_cast<const char*>(nullptr), [&](Context& ctx) -> const char* {
    const std::vector<std::string>& names = ctx.engine->event_type_names();
    if (!InRange(index, names.size())) {
      return Fail(ctx, nullptr, OutOfRange("event_type_name", "event type", index, names.size()));
    }
    // Types are only ever appended, so the copies stay in step by index.
    for (std::size_t i = ctx.event_type_names.size(); i < names.size(); ++i) {
      ctx.event_type_names.push_back(names[i]);
    }
    return ctx.event_type_names[index].c_str();
  });
}

int EventCount(void* context) {
  return Guarded(context, -1,
                 [&](Context& ctx) { return static_cast<int>(ctx.engine->events().size()); });
}

int GetEvent(void* context, int index, EnvCApi_Event* event) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (event == nullptr) return Fail(ctx, 1, "event: event must not be null");
    const std::vector<Event>& events = ctx.engine->events();
    if (!InRange(index, events.size())) {
      return Fail(ctx, 1, OutOfRange("event", "event", index, events.size()));
    }
    if (ctx.events.size() != events.size()) ctx.events.resize(events.size());
    std::unique_ptr<ExportedEvent>& cached = ctx.events[index];
    if (cached == nullptr) {
      auto exported = std::make_unique<ExportedEvent>();
      for (const ObservationValue& value : events[index].values) {
        absl::StatusOr<std::unique_ptr<ExportedObservation>> one = Export(value);
        if (!one.ok()) return Fail(ctx, 1, absl::StrCat("event: ", one.status().message()));
        exported->c.push_back((*one)->c);
        exported->values.push_back(*std::move(one));
      }
      cached = std::move(exported);
    }
    event->id = events[index].type;
    event->observation_count = static_cast<int>(cached->c.size());
    event->observations = cached->c.data();
    return 0;
  });
}

int SetFrameTarget(void* context, std::uint8_t* pixels, std::size_t size_bytes) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (std::string why = NotInitialised(ctx, "set_frame_target"); !why.empty()) {
      return Fail(ctx, 1, std::move(why));
    }
    absl::Status status = ctx.engine->SetFrameTarget(pixels, size_bytes);
    if (!status.ok()) return Fail(ctx, 1, absl::StrCat("set_frame_target: ", status.message()));
    return 0;
  });
}

EnvCApi_EnvironmentStatus Advance(void* context, int num_steps, double* reward) {
  constexpr EnvCApi_EnvironmentStatus kError = EnvCApi_EnvironmentStatus_Error;
  return Guarded(context, kError, [&](Context& ctx) {
    if (std::string why = NotInitialised(ctx, "advance"); !why.empty()) {
      return Fail(ctx, kError, std::move(why));
    }
    if (reward == nullptr) return Fail(ctx, kError, "advance: reward must not be null");
    *reward = 0;
    if (num_steps < 1) {
      return Fail(ctx, kError, absl::StrCat("advance: num_steps must be >= 1, got ", num_steps));
    }
    if (!ctx.can_advance) {
      return Fail(ctx, kError,
                  "advance: no running episode (call start first, and again after the episode "
                  "ended or an error)");
    }
    if (absl::Status nested = ctx.engine->CheckCanStep("advance"); !nested.ok()) {
      return Fail(ctx, kError, absl::StrCat("advance: ", nested.message()));
    }
    BeginStep(ctx);
    ctx.has_frame = false;
    ctx.can_advance = false;
    absl::StatusOr<EpisodeStatus> status = ctx.engine->Advance(num_steps, reward);
    if (!status.ok())
      return Fail(ctx, kError, absl::StrCat("advance: ", status.status().message()));
    ctx.has_frame = true;
    switch (*status) {
      case EpisodeStatus::kRunning:
        ctx.can_advance = true;
        return EnvCApi_EnvironmentStatus_Running;
      case EpisodeStatus::kTerminated:
        return EnvCApi_EnvironmentStatus_Terminated;
      case EpisodeStatus::kInterrupted:
        return EnvCApi_EnvironmentStatus_Interrupted;
    }
    return Fail(ctx, kError, "advance: unknown episode status");
  });
}

// The C result of an engine property call, with a message for the failures.
EnvCApi_PropertyResult PropertyResultToC(Context& ctx, absl::string_view function,
                                         absl::string_view key,
                                         const absl::StatusOr<PropertyResult>& result) {
  if (!result.ok()) {
    return Fail(ctx, EnvCApi_PropertyResult_Error,
                absl::StrCat(function, " '", key, "': ", result.status().message()));
  }
  switch (*result) {
    case PropertyResult::kSuccess:
      return EnvCApi_PropertyResult_Success;
    case PropertyResult::kNotFound:
      return Fail(ctx, EnvCApi_PropertyResult_NotFound,
                  absl::StrCat(function, " '", key, "': no such property"));
    case PropertyResult::kPermissionDenied:
      return Fail(ctx, EnvCApi_PropertyResult_PermissionDenied,
                  absl::StrCat(function, " '", key, "': permission denied"));
    case PropertyResult::kInvalidArgument:
      return Fail(ctx, EnvCApi_PropertyResult_InvalidArgument,
                  absl::StrCat(function, " '", key, "': invalid argument"));
  }
  return Fail(ctx, EnvCApi_PropertyResult_Error,
              absl::StrCat(function, " '", key, "': unknown result"));
}

EnvCApi_PropertyResult WriteProperty(void* context, const char* key, const char* value) {
  return Guarded(context, EnvCApi_PropertyResult_InvalidArgument, [&](Context& ctx) {
    if (key == nullptr || value == nullptr) {
      return Fail(ctx, EnvCApi_PropertyResult_InvalidArgument,
                  "write_property: key and value must not be null");
    }
    return PropertyResultToC(ctx, "write_property", key, ctx.engine->WriteProperty(key, value));
  });
}

EnvCApi_PropertyResult ReadProperty(void* context, const char* key, const char** value) {
  return Guarded(context, EnvCApi_PropertyResult_InvalidArgument, [&](Context& ctx) {
    if (key == nullptr || value == nullptr) {
      return Fail(ctx, EnvCApi_PropertyResult_InvalidArgument,
                  "read_property: key and value must not be null");
    }
    *value = nullptr;
    std::string read;
    EnvCApi_PropertyResult result =
        PropertyResultToC(ctx, "read_property", key, ctx.engine->ReadProperty(key, &read));
    if (result == EnvCApi_PropertyResult_Success) {
      ctx.property_value = std::move(read);
      *value = ctx.property_value.c_str();
    }
    return result;
  });
}

EnvCApi_PropertyResult ListProperty(void* context, void* userdata, const char* list_key,
                                    void (*callback)(void* userdata, const char* key,
                                                     EnvCApi_PropertyAttributes attributes)) {
  return Guarded(context, EnvCApi_PropertyResult_InvalidArgument, [&](Context& ctx) {
    if (list_key == nullptr || callback == nullptr) {
      return Fail(ctx, EnvCApi_PropertyResult_InvalidArgument,
                  "list_property: list_key and callback must not be null");
    }
    return PropertyResultToC(
        ctx, "list_property", list_key,
        ctx.engine->ListProperty(list_key, [&](absl::string_view key, int attributes) {
          // The callback wants a NUL-terminated key.
          const std::string terminated(key);
          callback(userdata, terminated.c_str(),
                   static_cast<EnvCApi_PropertyAttributes>(attributes));
        }));
  });
}

void WriteError(char* error, std::size_t error_size, absl::string_view message) {
  if (error == nullptr || error_size == 0) return;
  std::snprintf(error, error_size, "%.*s", static_cast<int>(message.size()), message.data());
}

}  // namespace
}  // namespace engine_plugin

extern "C" int env_c_api_version(void) { return ENV_C_API_VERSION; }

extern "C" int env_connect_sized(const char* level, EnvCApi* api, size_t api_size,
                                 void** context, char* error, size_t error_size) {
  using namespace engine_plugin;  // NOLINT: the C entry point sits outside the namespace
  if (context != nullptr) *context = nullptr;
  if (level == nullptr || api == nullptr || context == nullptr) {
    WriteError(error, error_size, "env_connect: level, api and context must not be null");
    return 1;
  }
  if (api_size != sizeof(EnvCApi)) {
    WriteError(error, error_size,
               absl::StrCat("env_connect: the caller's EnvCApi has ", api_size,
                            " bytes and this library's ", sizeof(EnvCApi),
                            " (ENV_C_API_VERSION ", ENV_C_API_VERSION,
                            "): rebuild the client against this library's env_c_api.h"));
    return 1;
  }
  try {
    absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
    if (!engine.ok()) {
      WriteError(error, error_size,
                 absl::StrCat("env_connect '", level, "': ", engine.status().message()));
      return 1;
    }
    auto ctx = std::make_unique<Context>();
    ctx->engine = *std::move(engine);
    *api = EnvCApi{};
    api->setting = Setting;
    api->init = Init;
    api->start = Start;
    api->release_context = ReleaseContext;
    api->error_message = ErrorMessage;
    api->observation_count = ObservationCount;
    api->observation_name = ObservationName;
    api->observation_spec = GetObservationSpec;
    api->observation_bounds = GetObservationBounds;
    api->observation = GetObservation;
    api->retain_observation = RetainObservation;
    api->retain_observation_on_device = RetainObservationOnDevice;
    api->fps = Fps;
    api->event_type_count = EventTypeCount;
    api->event_type_name = EventTypeName;
    api->event_count = EventCount;
    api->event = GetEvent;
    c_api::FillActionEntries(api);
    api->advance = Advance;
    api->write_property = WriteProperty;
    api->read_property = ReadProperty;
    api->list_property = ListProperty;
    api->set_frame_target = SetFrameTarget;
    *context = ctx.release();
    return 0;
  } catch (const std::exception& e) {
    WriteError(error, error_size, absl::StrCat("env_connect: internal error: ", e.what()));
    return 1;
  }
}

extern "C" int env_set_level_cache(void* context, const EnvLevelCache* cache) {
  using namespace engine_plugin;  // NOLINT: the C entry point sits outside the namespace
  LevelCache level_cache;
  if (cache != nullptr && cache->fetch != nullptr && cache->write != nullptr) {
    const EnvLevelCache c = *cache;
    level_cache.fetch = [c](const std::string& key,
                            const std::string& path) -> absl::StatusOr<bool> {
      const int found = c.fetch(c.cache_context, key.c_str(), path.c_str());
      if (found < 0) return absl::UnknownError("the level cache's fetch failed");
      return found > 0;
    };
    level_cache.write = [c](const std::string& key, const std::string& path) {
      return c.write(c.cache_context, key.c_str(), path.c_str()) < 0
                 ? absl::UnknownError("the level cache's write failed")
                 : absl::OkStatus();
    };
  }
  return c_api::Guarded(context, 1, [&](c_api::Context& ctx) {
    if (ctx.initialised || !ctx.init_failure.empty()) {
      return c_api::Fail(ctx, 1, "env_set_level_cache: the level cache must come before init");
    }
    absl::Status status = ctx.engine->SetLevelCache(std::move(level_cache));
    return status.ok() ? 0 : c_api::Fail(ctx, 1, absl::StrCat("env_set_level_cache: ", status.message()));
  });
}

namespace {

// Listed once: hosts register before main, so the list never changes.
const std::vector<engine_plugin::BuiltinLevel>* RunnableLevels() {
  try {
    static const auto* const levels =
        new std::vector<engine_plugin::BuiltinLevel>(engine_plugin::RunnableBuiltinLevels());
    return levels;
  } catch (const std::exception&) {
    return nullptr;  // out of memory: no list, and another try next time
  }
}

const engine_plugin::BuiltinLevel* RunnableLevel(int level_idx) {
  const std::vector<engine_plugin::BuiltinLevel>* levels = RunnableLevels();
  if (levels == nullptr || level_idx < 0 || level_idx >= static_cast<int>(levels->size())) {
    return nullptr;
  }
  return &(*levels)[level_idx];
}

}  // namespace

extern "C" int env_level_count(void) {
  const std::vector<engine_plugin::BuiltinLevel>* levels = RunnableLevels();
  return levels == nullptr ? 0 : static_cast<int>(levels->size());
}

extern "C" const char* env_level_name(int level_idx) {
  const engine_plugin::BuiltinLevel* level = RunnableLevel(level_idx);
  return level == nullptr ? nullptr : level->name.c_str();
}

extern "C" const char* env_level_host(int level_idx) {
  const engine_plugin::BuiltinLevel* level = RunnableLevel(level_idx);
  return level == nullptr ? nullptr : level->host.c_str();
}

extern "C" void env_release_observation(EnvCApi_RetainedObservation* handle) { delete handle; }
