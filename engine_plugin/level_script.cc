#include "engine_plugin/level_script.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine_plugin/image_module.h"
#include "engine_plugin/stack_scope.h"
#include "engine_plugin/model/model_module.h"
#include "engine_plugin/transform_module.h"
#include "lua_api/lua/call.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/random.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/torch/torch_module.h"
#include "tensor/device_transfer.h"
#include "tensor/statistics.h"

namespace engine_plugin {
namespace {

const char* TypeName(ObservationType type) {
  switch (type) {
    case ObservationType::kBytes: return "Bytes";
    case ObservationType::kDoubles: return "Doubles";
    case ObservationType::kFloats: return "Floats";
    case ObservationType::kString: return "String";
  }
  return "?";
}

std::string ShapeText(absl::Span<const std::int64_t> shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ", "), "]");
}

// [-0, +0, -] A string field of the table at `index`, or why not.
std::string StringField(lua_State* L, int index, const char* key, std::string* out) {
  lua_api::PushRawField(L, index, key);
  std::string why = lua_api::ReadString(L, -1, out);
  lua_pop(L, 1);
  return why.empty() ? why : absl::StrCat(key, ": ", why);
}

// [-0, +0, -] The optional min= and max= of the spec table at `entry`:
// both or neither, numbers, not NaN, min <= max.
std::string ReadBounds(lua_State* L, int entry, ObservationSpec* spec) {
  lua_api::PushRawField(L, entry, "min");
  lua_api::PushRawField(L, entry, "max");
  const bool has_min = !lua_isnil(L, -2), has_max = !lua_isnil(L, -1);
  std::string why;
  if (has_min != has_max) {
    why = absl::StrCat("min and max: give both or neither, got only ", has_min ? "min" : "max");
  } else if (has_min) {
    ObservationBounds bounds;
    for (auto [index, key, out] : {std::tuple(-2, "min", &bounds.min),
                                   std::tuple(-1, "max", &bounds.max)}) {
      if (lua_type(L, index) != LUA_TNUMBER || std::isnan(lua_tonumber(L, index))) {
        why = absl::StrCat(key, ": ", lua_api::Expected(L, index, "a number, not NaN"));
        break;
      }
      *out = lua_tonumber(L, index);
    }
    if (why.empty() && bounds.min > bounds.max) {
      why = absl::StrCat("min ", bounds.min, " is above max ", bounds.max);
    }
    if (why.empty()) spec->bounds = bounds;
  }
  lua_pop(L, 2);
  return why;
}

// [-0, +0, -] Entry -1 of customObservationSpec()'s list, as a spec.
std::string ReadSpec(lua_State* L, ObservationSpec* spec) {
  if (!lua_istable(L, -1)) return lua_api::Expected(L, -1, "table {name=, type=, shape=}");
  const int entry = lua_gettop(L);
  if (std::string why = StringField(L, entry, "name", &spec->name); !why.empty()) return why;
  // A host asks for observations by name: "" could never be asked for.
  if (spec->name.empty()) return "name: must not be empty";
  std::string type;
  if (std::string why = StringField(L, entry, "type", &type); !why.empty()) return why;
  if (type == "Bytes") {
    spec->type = ObservationType::kBytes;
  } else if (type == "Doubles") {
    spec->type = ObservationType::kDoubles;
  } else if (type == "Floats") {
    spec->type = ObservationType::kFloats;
  } else if (type == "String") {
    spec->type = ObservationType::kString;
    lua_api::PushRawField(L, entry, "min");
    lua_api::PushRawField(L, entry, "max");
    const bool bounded = !lua_isnil(L, -2) || !lua_isnil(L, -1);
    lua_pop(L, 2);
    return bounded ? "min and max: a 'String' observation has no bounds" : "";
  } else {
    return absl::StrCat("type: 'Bytes', 'Doubles', 'Floats' or 'String' expected, got '", type,
                        "'");
  }
  lua_api::PushRawField(L, entry, "shape");
  std::string why;
  if (!lua_istable(L, -1)) {
    why = absl::StrCat("shape: ", lua_api::Expected(L, -1, "table of extents"));
  } else {
    const int rank = static_cast<int>(lua_objlen(L, -1));
    for (int i = 1; i <= rank && why.empty(); ++i) {
      lua_rawgeti(L, -1, i);
      std::int64_t extent = 0;
      why = lua_api::ReadInteger(L, -1, &extent);
      if (why.empty() && extent < 0) why = absl::StrCat("extent ", extent, " is negative");
      if (!why.empty()) why = absl::StrCat("shape[", i, "]: ", why);
      spec->shape.push_back(extent);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  if (!why.empty()) return why;
  return ReadBounds(L, entry, spec);
}

// OK when every element of `value` lies in the spec's declared bounds (or
// it declares none); else which extreme does not, and where it should be.
absl::Status WithinBounds(const tensor::Tensor& value, const ObservationSpec& spec) {
  if (!spec.bounds || value.num_elements() == 0) return absl::OkStatus();
  for (tensor::Extreme extreme : {tensor::Extreme::kMin, tensor::Extreme::kMax}) {
    absl::StatusOr<double> found = tensor::ExtremeOf(value, extreme);
    if (!found.ok()) return found.status();
    // NaN is outside every range.
    if (!(*found >= spec.bounds->min && *found <= spec.bounds->max)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a value, ", *found, ", lies outside the declared [", spec.bounds->min, ", ",
          spec.bounds->max, "]"));
    }
  }
  return absl::OkStatus();
}



absl::Status LuaError(const char* what, const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(what, ": ", message));
}

}  // namespace

LevelScript::LevelScript(std::unique_ptr<Sandbox> vm, LevelPaths paths)
    : paths_(std::move(paths)), vm_(std::move(vm)), L_(vm_->state()), api_ref_(LUA_NOREF) {}

absl::StatusOr<std::unique_ptr<LevelScript>> LevelScript::Load(
    absl::string_view source, const std::string& chunk_name, const LevelPaths& paths,
    const LevelLimits& limits, absl::FunctionRef<void(lua_State*)> register_host_modules,
    EventSink* events) {
  const std::vector<std::string> module_directories = paths.ModuleDirectories();
  absl::StatusOr<std::unique_ptr<Sandbox>> vm = Sandbox::Create(limits, module_directories);
  if (!vm.ok()) return vm.status();
  std::unique_ptr<LevelScript> script(new LevelScript(*std::move(vm), paths));
  lua_State* L = script->L_;
  if (limits.restrict_libraries) {
    lua_api::RegisterSandboxedTorchModule(L);
  } else {
    lua_api::RegisterTorchModule(L);
  }
  lua_api::RegisterRandomModule(L);
  RegisterEventsModule(L, events);
  RegisterImageModule(L, &script->paths_);
  RegisterTransformModule(L);
  // A host whose engine has model files registers the module again, over
  // its own (the DeepMind Lab host).
  static model::NoModelFiles no_model_files("this host has no model files (its engine loads no MD3)");
  model::RegisterModelModule(L, &no_model_files);
  register_host_modules(L);
  if (!limits.restrict_libraries) {
    // The same directories first, in the same order, as the sandbox's searcher.
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    for (auto directory = module_directories.rbegin(); directory != module_directories.rend();
         ++directory) {
      lua_pushfstring(L, "%s/?.lua;%s", directory->c_str(), lua_tostring(L, -1));
      lua_replace(L, -2);
    }
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
  }
  // The tensor types' metatables must exist before observeFrame receives
  // its lent frames, even in a level that never requires the module.
  lua_getglobal(L, "require");
  lua_pushstring(L, "dmlab.system.tensor");
  if (lua_api::NResultsOr opened = script->vm_->Call(1, 0); !opened.ok()) {
    return LuaError("cannot load dmlab.system.tensor", opened.error());
  }
  if (absl::Status compiled = script->vm_->Load(source, chunk_name); !compiled.ok()) {
    return compiled;
  }
  lua_api::NResultsOr loaded = script->vm_->Call(0, 1);
  if (!loaded.ok()) return LuaError("the level script failed", loaded.error());
  if (!lua_istable(L, -1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the level script must return its api table, not ", lua_api::TypeNameAt(L, -1)));
  }
  script->api_ref_ = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_settop(L, 0);
  return script;
}

void LevelScript::PushCallbackName(const char* name) {
  const absl::string_view wanted(name);
  for (const auto& [known, ref] : callback_names_) {
    if (known == wanted) {
      lua_rawgeti(L_, LUA_REGISTRYINDEX, ref);
      return;
    }
  }
  lua_pushstring(L_, name);
  // A host names its callbacks from a fixed set; one that makes names up
  // as it goes does not grow the list without end.
  constexpr std::size_t kMaxCallbackNames = 32;
  if (callback_names_.size() == kMaxCallbackNames) return;
  lua_pushvalue(L_, -1);
  callback_names_.emplace_back(name, luaL_ref(L_, LUA_REGISTRYINDEX));
}

bool LevelScript::PushCallback(const char* name) {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, api_ref_);
  PushCallbackName(name);
  lua_rawget(L_, -2);
  if (lua_isnil(L_, -1)) {
    lua_pop(L_, 2);
    return false;
  }
  lua_insert(L_, -2);  // function, api
  return true;
}

bool LevelScript::Defines(const char* name) {
  const StackScope stack(L_);
  return PushCallback(name);
}

absl::Status LevelScript::CallCallback(const char* name, int nargs, int nresults) {
  // No C++ exception leaves a callback: out of memory (a process under a
  // ulimit), building the error's text is what throws.
  try {
    lua_api::NResultsOr result = vm_->Call(nargs + 1, nresults);
    if (result.ok()) return absl::OkStatus();
    return LuaError(absl::StrCat("level callback '", name, "'").c_str(), result.error());
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("a level callback ran the process out of memory");
  }
}

absl::Status LevelScript::Init(const Settings& settings) {
  const StackScope stack(L_);
  if (!PushCallback("init")) return absl::OkStatus();
  lua_createtable(L_, 0, static_cast<int>(settings.size()));
  for (const auto& [key, value] : settings) {
    lua_pushlstring(L_, value.data(), value.size());
    lua_setfield(L_, -2, key.c_str());
  }
  return CallCallback("init", 1, 0);
}

absl::Status LevelScript::Start(int episode, std::uint64_t seed) {
  const StackScope stack(L_);
  // require is the script's global, so this runs under the level's limits.
  lua_pushstring(L_, "require");
  lua_rawget(L_, LUA_GLOBALSINDEX);  // raw: no metamethod of _G runs unprotected
  lua_pushstring(L_, "dmlab.system.random");
  if (lua_api::NResultsOr random = vm_->Call(1, 1); !random.ok()) {
    return LuaError("cannot load dmlab.system.random", random.error());
  }
  // The script may have replaced require or package.loaded's entry.
  lua_api::LuaRandom* generator = lua_api::LuaRandom::Read(L_, -1);
  if (generator == nullptr) {
    std::string got = lua_api::TypeNameAt(L_, -1);
    return absl::InvalidArgumentError(absl::StrCat(
        "require 'dmlab.system.random' gave ", got, ", not the random module: the level "
        "replaced it, so the engine cannot seed it"));
  }
  // As the level's own random:seed(seed) would (mixed with mixerSeed).
  generator->Seed(lua_api::MixSeed(L_, seed));
  if (!PushCallback("start")) return absl::OkStatus();
  lua_pushinteger(L_, episode);
  lua_pushnumber(L_, static_cast<lua_Number>(seed));
  return CallCallback("start", 2, 0);
}

absl::StatusOr<std::optional<EpisodeEnd>> LevelScript::HasEpisodeFinished(double time_seconds) {
  const StackScope stack(L_);
  if (!PushCallback("hasEpisodeFinished")) return std::nullopt;
  lua_pushnumber(L_, time_seconds);
  if (absl::Status status = CallCallback("hasEpisodeFinished", 1, 1); !status.ok()) {
    return status;
  }
  const int result = stack.at(1);
  if (lua_isnil(L_, result)) return std::nullopt;
  if (lua_isboolean(L_, result)) {
    if (!lua_toboolean(L_, result)) return std::nullopt;
    return EpisodeEnd::kTerminated;
  }
  std::string word;
  const bool is_string = lua_api::ReadString(L_, result, &word).empty();
  if (word == "terminated") return EpisodeEnd::kTerminated;
  if (word == "truncated") return EpisodeEnd::kTruncated;
  constexpr absl::string_view kExpected =
      "a boolean, nil, 'terminated' or 'truncated' (a time limit)";
  return absl::InvalidArgumentError(absl::StrCat(
      "level callback 'hasEpisodeFinished': ",
      is_string ? absl::StrCat(kExpected, " expected, got '", word, "'")
                : lua_api::Expected(L_, result, kExpected)));
}

absl::StatusOr<double> LevelScript::EpisodeLengthSeconds() {
  const StackScope stack(L_);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, api_ref_);
  lua_api::PushRawField(L_, -1, "episodeLengthSeconds");
  if (lua_isnil(L_, -1)) return 0.0;
  // Only a number: a string such as '30' is what a setting would be.
  const double seconds = lua_type(L_, -1) == LUA_TNUMBER ? lua_tonumber(L_, -1) : -1;
  if (!(seconds > 0) || seconds > 1e9) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the level's api.episodeLengthSeconds: ",
        lua_api::Expected(L_, -1, "a number of seconds in (0, 1e9] or nil")));
  }
  return seconds;
}

absl::StatusOr<std::vector<ObservationSpec>> LevelScript::CustomObservationSpecs() {
  const StackScope stack(L_);
  std::vector<ObservationSpec> specs;
  if (!PushCallback("customObservationSpec")) return specs;
  if (absl::Status status = CallCallback("customObservationSpec", 0, 1); !status.ok()) {
    return status;
  }
  std::string why;
  if (!lua_istable(L_, stack.at(1))) {
    why = lua_api::Expected(L_, stack.at(1), "list of specs");
  } else {
    const int count = static_cast<int>(lua_objlen(L_, stack.at(1)));
    for (int i = 1; i <= count && why.empty(); ++i) {
      lua_rawgeti(L_, stack.at(1), i);
      ObservationSpec spec;
      why = ReadSpec(L_, &spec);
      if (!why.empty()) why = absl::StrCat("entry ", i, ": ", why);
      specs.push_back(std::move(spec));
      lua_pop(L_, 1);
    }
  }
  if (!why.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("level callback 'customObservationSpec' returned a bad spec: ", why));
  }
  return specs;
}

absl::StatusOr<LevelObservation> LevelScript::CustomObservation(const ObservationSpec& spec) {
  const StackScope stack(L_);
  const std::string what = absl::StrCat("customObservation('", spec.name, "')");
  if (!PushCallback("customObservation")) {
    return absl::InvalidArgumentError(
        absl::StrCat("the level declares '", spec.name, "' but has no customObservation"));
  }
  lua_pushlstring(L_, spec.name.data(), spec.name.size());
  if (absl::Status status = CallCallback("customObservation", 1, 1); !status.ok()) {
    return status;
  }
  LevelObservation result;
  result.value.type = spec.type;
  if (spec.type == ObservationType::kString) {
    std::string why = lua_api::ReadString(L_, stack.at(1), &result.value.text);
    if (!why.empty()) return absl::InvalidArgumentError(absl::StrCat(what, ": ", why));
    return result;
  }
  const tensor::DType expected = ElementType(spec.type);
  lua_api::LuaTensor* returned = lua_api::LuaTensor::Read(L_, stack.at(1));
  if (returned == nullptr) {
    std::string got = lua_api::TypeNameAt(L_, stack.at(1));
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": ", lua_api::LuaTensor::TypeName(expected), " expected, got ", got));
  }
  tensor::Tensor value = returned->tensor();
  if (absl::Status valid = value.CheckValid(); !valid.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", valid.message()));
  }
  const auto& shape = value.layout().shape();
  // An extent of 0 in the spec is dynamic (DeepMind Lab's): any extent.
  const auto extent_fits = [](std::int64_t got, std::int64_t declared) {
    return declared == 0 || got == declared;
  };
  if (value.dtype() != expected ||
      !std::equal(shape.begin(), shape.end(), spec.shape.begin(), spec.shape.end(),
                  extent_fits)) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": ", TypeName(spec.type), " ", ShapeText(spec.shape), " (",
        lua_api::LuaTensor::TypeName(expected), ") expected, got ",
        lua_api::LuaTensor::TypeName(value.dtype()), " ",
        ShapeText({shape.data(), shape.size()})));
  }
  if (absl::Status within = WithinBounds(value, spec); !within.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", within.message()));
  }
  if (value.owns_storage() && value.layout().IsContiguous()) {
    result.value.tensor = std::move(value);
    result.shares_script_storage = true;
    return result;
  }
  // On the tensor's own device: a level that computes an observation on a
  // GPU hands it on there (the C ABI copies it to the host only for hosts
  // that ask for host memory).
  // From the level's tensor allocator: the copy counts against its tensor
  // memory budget, so a declared 16000x16000 observation returned as an
  // expand of one element is refused rather than materialised.
  absl::StatusOr<tensor::Tensor> compacted =
      tensor::ToDevice(value, value.device(), lua_api::TensorAllocator(L_));
  if (!compacted.ok()) return compacted.status();
  result.value.tensor = *std::move(compacted);
  return result;
}

absl::StatusOr<bool> LevelScript::Call(
    const char* name, int num_results, absl::FunctionRef<int(lua_State*)> push_arguments,
    absl::FunctionRef<absl::Status(lua_State*, int)> read_results) {
  const StackScope stack(L_);
  if (!PushCallback(name)) return false;
  const int num_arguments = push_arguments(L_);
  if (absl::Status status = CallCallback(name, num_arguments, num_results); !status.ok()) {
    return status;
  }
  if (absl::Status read = read_results(L_, stack.at(1)); !read.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("level callback '", name, "' ", read.message()));
  }
  return true;
}

absl::StatusOr<bool> LevelScript::CallLending(const char* name,
                                              absl::Span<const LentBuffer> buffers) {
  const StackScope stack(L_);
  if (!PushCallback(name)) return false;
  if (buffers.size() > Level::kMaxLentBuffers) {
    return absl::InvalidArgumentError(absl::StrCat("lending ", buffers.size(), " buffers to '",
                                                   name, "': at most ", Level::kMaxLentBuffers));
  }
  // Each loan ends when this returns, on every path: whatever the level
  // kept of a buffer is an error from then on, until the same buffer is
  // lent again.
  struct Revoking {
    std::optional<lua_api::LentTensorSlot>* slots;
    std::size_t count;
    ~Revoking() {
      for (std::size_t i = 0; i < count; ++i) slots[i]->Revoke();
    }
  } revoking{lent_, 0};
  for (const LentBuffer& buffer : buffers) {
    std::optional<lua_api::LentTensorSlot>& slot = lent_[revoking.count];
    if (!slot.has_value() || slot->lender() != buffer.lender) slot.emplace(buffer.lender);
    ++revoking.count;
    if (absl::Status lent =
            slot->PushContiguous(L_, buffer.dtype, buffer.shape, buffer.data, buffer.bytes);
        !lent.ok()) {
      return lent;
    }
  }
  if (absl::Status status = CallCallback(name, static_cast<int>(buffers.size()), 0);
      !status.ok()) {
    return status;
  }
  return true;
}

}  // namespace engine_plugin
