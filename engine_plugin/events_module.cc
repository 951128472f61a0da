#include "engine_plugin/events_module.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/module_support.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "tensor/convert.h"
#include "tensor/work_meter.h"

namespace engine_plugin {
namespace {

using lua_api::ArgumentError;
using lua_api::NResultsOr;

// The bytes the value at stack `index` (argument index - 1 of add) takes
// as an event value, or the whole argument error.
std::string MeasureEventValue(lua_State* L, int index, std::size_t* bytes) {
  if (lua_type(L, index) == LUA_TSTRING) {
    *bytes = lua_objlen(L, index);
    return {};
  }
  if (lua_api::LuaTensor::Read(L, index) == nullptr) {
    return ArgumentError("add", index - 1, lua_api::Expected(L, index, "string or tensor"));
  }
  lua_api::LuaTensor* lua_tensor = nullptr;
  if (std::string e = lua_api::ReadTensorArgument(L, index, "add", &lua_tensor); !e.empty()) {
    return e;
  }
  const tensor::Tensor& source = lua_tensor->tensor();
  // An expanded view may have far more elements than bytes of storage.
  *bytes = static_cast<std::size_t>(tensor::ProductOfWork(
      source.num_elements(), source.dtype() == tensor::DType::kUInt8 ? 1 : sizeof(double)));
  return {};
}

// The event value of the string or tensor at stack `index`, which
// MeasureEventValue accepted.
std::string ReadEventValue(lua_State* L, int index, ObservationValue* value) {
  if (lua_type(L, index) == LUA_TSTRING) {
    std::size_t length = 0;
    const char* text = lua_tolstring(L, index, &length);
    value->type = ObservationType::kString;
    value->text.assign(text, length);
    return {};
  }
  const tensor::Tensor& source = lua_api::LuaTensor::Read(L, index)->tensor();
  const bool bytes = source.dtype() == tensor::DType::kUInt8;
  absl::StatusOr<tensor::Tensor> copy =
      tensor::Convert(source, bytes ? tensor::DType::kUInt8 : tensor::DType::kFloat64);
  if (!copy.ok()) return lua_api::StatusError("add", copy.status());
  value->type = bytes ? ObservationType::kBytes : ObservationType::kDoubles;
  value->tensor = *std::move(copy);
  return {};
}

// [-0, +0, e]
NResultsOr Add(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, "events", "add"); !e.empty()) return e;
  std::string name;
  if (std::string why = lua_api::ReadString(L, 2, &name); !why.empty()) {
    return ArgumentError("add", 1, why);
  }
  std::size_t total = name.size();
  for (int index = 3; index <= lua_gettop(L); ++index) {
    std::size_t bytes = 0;
    if (std::string e = MeasureEventValue(L, index, &bytes); !e.empty()) return e;
    total = bytes > SIZE_MAX - total ? SIZE_MAX : total + bytes;
  }
  EventSink* sink = HostOf<EventSink>(L);
  if (absl::Status reserved = sink->ReserveEvent(name, total); !reserved.ok()) {
    return lua_api::StatusError("add", reserved);
  }
  std::vector<ObservationValue> values(lua_gettop(L) - 2);
  for (int index = 3; index <= lua_gettop(L); ++index) {
    if (std::string e = ReadEventValue(L, index, &values[index - 3]); !e.empty()) return e;
  }
  sink->AddEvent(std::move(name), std::move(values));
  return 0;
}

constexpr lua_api::MethodEntry kFunctions[] = {
    {"add", &lua_api::Raising<&Add>},
};

// [-0, +1, e] The loader in package.preload.
int Open(lua_State* L) {
  PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kFunctions);
  return 1;
}

}  // namespace

void RegisterEventsModule(lua_State* L, EventSink* sink) {
  lua_api::SetPreload(L, "dmlab.system.events", &Open, sink);
}

}  // namespace engine_plugin
