#include "hosts/dmlab/dmlab_host.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/host_registry.h"
#include "engine_plugin/observation.h"
#include "tensor/tensor.h"

namespace hosts::dmlab {
namespace {

using engine_plugin::Level;
using engine_plugin::ObservationSpec;
using engine_plugin::ObservationValue;

constexpr char kFrameName[] = "RGB_INTERLEAVED";

// The plugin's spec of an engine observation: bytes or doubles of a fixed
// shape (the engine's strings and dynamic extents are not served), at most
// 2^31 elements.
absl::StatusOr<ObservationSpec> PluginSpec(absl::string_view name,
                                           const DmlabObservationSpec& spec) {
  const auto refuse = [&](absl::string_view why) {
    return absl::InternalError(
        absl::StrCat("DeepMind Lab's observation ", name, ": ", why, " (not served)"));
  };
  if (spec.type != DmlabObservation_Bytes && spec.type != DmlabObservation_Doubles) {
    return refuse("neither bytes nor doubles");
  }
  if (spec.dims < 0 || spec.dims > 8 || (spec.dims > 0 && spec.shape == nullptr)) {
    return refuse(absl::StrCat("a shape of ", spec.dims, " extents"));
  }
  ObservationSpec ours{std::string(name),
                       spec.type == DmlabObservation_Bytes ? engine_plugin::ObservationType::kBytes
                                                           : engine_plugin::ObservationType::kDoubles,
                       {}};
  std::int64_t elements = 1;
  for (int d = 0; d < spec.dims; ++d) {
    if (spec.shape[d] < 0) return refuse("a dynamic extent");
    elements *= spec.shape[d];
    if (elements > (std::int64_t{1} << 31)) return refuse("over 2^31 elements");
    ours.shape.push_back(spec.shape[d]);
  }
  return ours;
}
// DeepMind Lab's engine renders frames up to this size (its framebuffer).
constexpr int kMaxExtent = 4096;

absl::StatusOr<int> ParseExtent(absl::string_view key, absl::string_view value, int max) {
  int parsed = 0;
  if (!absl::SimpleAtoi(value, &parsed) || parsed < 1 || parsed > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("setting '", key, "': expected an integer in [1, ", max, "], got '", value,
                     "'"));
  }
  return parsed;
}

// A fresh folder under the system's temporary folder.
absl::StatusOr<std::string> MakeTempFolder() {
  std::error_code error;
  std::string pattern =
      (std::filesystem::temp_directory_path(error) / "labenv_dmlab.XXXXXX").string();
  if (error || mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cannot make a folder for the engine under ",
                                            std::filesystem::temp_directory_path(error).string()));
  }
  return pattern;
}

// DeepMind Lab's engine settings that the engine consumes itself (its
// dmlab_connect.c), which the host hands it as they are: its console to
// stderr, its HUD, its virtual machines' mode, extra console commands.
const absl::flat_hash_set<std::string> kEngineSettings = {
    "logToStdErr", "minimalUI", "reducedUI", "vmMode", "appendCommand", "playerName", "use_pbos",
    "hasAltCameras", "maxAltCameraWidth", "maxAltCameraHeight"};

// EnvCApi's seeds are non-negative ints.
int EngineSeed(std::uint64_t seed) { return static_cast<int>(seed & 0x7fffffffu); }

}  // namespace

// A private copy of the engine library, loaded: dlopen of one path twice
// gives the same copy, and the engine's globals would be shared.
struct DmlabHost::Library {
  std::string copy_path;
  void* handle = nullptr;
  DmlabConnect connect = nullptr;
  DmlabContextBind bind = nullptr;

  ~Library() {
    if (handle != nullptr) dlclose(handle);
    if (!copy_path.empty()) unlink(copy_path.c_str());
  }

  static absl::StatusOr<std::unique_ptr<Library>> Load(const std::string& path,
                                                       const std::string& folder) {
    auto library = std::make_unique<Library>();
    library->copy_path = folder + "/libdmlab_engine.so";
    std::error_code error;
    std::filesystem::copy_file(path, library->copy_path,
                               std::filesystem::copy_options::overwrite_existing, error);
    if (error) {
      library->copy_path.clear();
      return absl::NotFoundError(absl::StrCat("setting 'dmlabLibrary': cannot read '", path,
                                              "': ", error.message(),
                                              " (build it with ./lab dmlab --lab=DIR)"));
    }
    library->handle = dlopen(library->copy_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library->handle == nullptr) {
      return absl::FailedPreconditionError(
          absl::StrCat("setting 'dmlabLibrary': cannot load '", path, "': ", dlerror()));
    }
    library->connect = reinterpret_cast<DmlabConnect>(dlsym(library->handle, "dmlab_connect"));
    library->bind =
        reinterpret_cast<DmlabContextBind>(dlsym(library->handle, "dmlab_context_bind"));
    if (library->connect == nullptr || library->bind == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat(
          "setting 'dmlabLibrary': '", path,
          "' is not an engine library built by ./lab dmlab (it lacks dmlab_connect or "
          "dmlab_context_bind)"));
    }
    return library;
  }
};

DmlabHost::DmlabHost() {
  if (const char* path = std::getenv("DMLAB_LIBRARY"); path != nullptr) library_path_ = path;
}

DmlabHost::~DmlabHost() {
  if (env_ != nullptr) api_.release_context(env_);
  library_ = nullptr;
  if (owns_temp_folder_) {
    std::error_code ignored;
    std::filesystem::remove_all(temp_folder_, ignored);
  }
}

absl::StatusOr<bool> DmlabHost::SetSetting(absl::string_view key, absl::string_view value) {
  if (key == "dmlabLibrary") {
    library_path_ = std::string(value);
  } else if (key == "dmlabRunfiles") {
    runfiles_ = std::string(value);
  } else if (key == "dmlabTools") {
    tools_ = std::string(value);
  } else if (key == "dmlabTempFolder") {
    if (value.empty()) return absl::InvalidArgumentError("setting 'dmlabTempFolder': a folder expected, got ''");
    given_temp_folder_ = std::string(value);
  } else if (key == "width" || key == "height") {
    absl::StatusOr<int> extent = ParseExtent(key, value, kMaxExtent);
    if (!extent.ok()) return extent.status();
    (key == "width" ? width_ : height_) = *extent;
  } else if (key == "fps") {
    absl::StatusOr<int> fps = ParseExtent(key, value, 1000);
    if (!fps.ok()) return fps.status();
    fps_ = *fps;
  } else if (kEngineSettings.contains(key)) {
    engine_settings_.emplace_back(std::string(key), std::string(value));
  } else if (key == "renderer") {
    if (value != "software" && value != "hardware") {
      return absl::InvalidArgumentError(absl::StrCat(
          "setting 'renderer': expected 'software' or 'hardware', got '", value, "'"));
    }
    hardware_ = value == "hardware";
  } else {
    return false;
  }
  return true;
}

void DmlabHost::RegisterModules(lua_State* L, Level& level) {
  connected_ = Connect();
  modules_ = {context_.get(), &level};
  RegisterGameModules(L, &modules_);
}

absl::Status DmlabHost::EngineError(const char* call) {
  if (absl::Status hook = context_->TakeError(); !hook.ok()) {
    return absl::Status(hook.code(), absl::StrCat("DeepMind Lab's ", call, ": ", hook.message()));
  }
  return absl::InternalError(
      absl::StrCat("DeepMind Lab's ", call, " failed: ", api_.error_message(env_)));
}

absl::Status DmlabHost::HookError(const char* call) {
  absl::Status hook = context_->TakeError();
  if (hook.ok()) return hook;
  return absl::Status(hook.code(), absl::StrCat("DeepMind Lab's ", call, ": ", hook.message()));
}

// Loads and connects the engine with the settings, before the level
// script runs: DeepMind Lab's levels ask the engine (game:screenShape) as
// they load.
absl::Status DmlabHost::Connect() {
  context_ = std::make_unique<Context>();
  context_->set_level_cache(level_cache_);
  if (library_path_.empty()) {
    return absl::FailedPreconditionError(
        "the dmlab host needs DeepMind Lab's engine: build it with ./lab dmlab --lab=DIR and "
        "give its library as the setting dmlabLibrary (or DMLAB_LIBRARY)");
  }
  if (runfiles_.empty()) {
    runfiles_ = (std::filesystem::path(library_path_).parent_path() / "run").string();
  }
  if (given_temp_folder_.empty()) {
    absl::StatusOr<std::string> folder = MakeTempFolder();
    if (!folder.ok()) return folder.status();
    temp_folder_ = *folder;
    owns_temp_folder_ = true;
  } else {
    std::error_code error;
    std::filesystem::create_directories(given_temp_folder_, error);
    if (error || !std::filesystem::is_directory(given_temp_folder_, error)) {
      return absl::InvalidArgumentError(absl::StrCat("setting 'dmlabTempFolder': cannot make '",
                                                     given_temp_folder_, "' a folder"));
    }
    temp_folder_ = given_temp_folder_;
  }
  context_->set_temp_folder(temp_folder_);
  context_->set_runfiles(runfiles_);
  if (tools_.empty()) tools_ = std::filesystem::path(library_path_).parent_path().string();
  context_->set_tools_folder(tools_);
  absl::StatusOr<std::unique_ptr<Library>> library = Library::Load(library_path_, temp_folder_);
  if (!library.ok()) return library.status();
  library_ = *std::move(library);
  // The engine must always have a map to load, even when a level names
  // one it cannot (context.h): runfiles without any are refused.
  if (context_->AnyMap().empty()) {
    return absl::NotFoundError(absl::StrCat("setting 'dmlabRunfiles': '", runfiles_,
                                            "' has no compiled maps (baselab/maps/*.bsp; ./lab "
                                            "dmlab lays them out)"));
  }
  const DmlabBinding binding{&Context::Hooks(), context_.get(),
                             [](void* userdata, DmlabContext* engine) {
                               static_cast<Context*>(userdata)->Connected(engine);
                             }};
  library_->bind(&binding);
  DmlabLaunchParams params{};
  params.runfiles_path = runfiles_.c_str();
  params.renderer = hardware_ ? DmlabRenderer_Hardware : DmlabRenderer_Software;
  params.optional_temp_folder = temp_folder_.c_str();
  if (library_->connect(&params, &api_, &env_) != 0 || env_ == nullptr) {
    env_ = nullptr;
    return absl::InternalError(
        absl::StrCat("DeepMind Lab's dmlab_connect failed (runfiles '", runfiles_, "')"));
  }
  const std::string width = std::to_string(width_), height = std::to_string(height_),
                    fps = std::to_string(fps_);
  for (const auto& [key, value] : {std::pair{"width", width.c_str()},
                                   std::pair{"height", height.c_str()},
                                   std::pair{"fps", fps.c_str()}}) {
    if (api_.setting(env_, key, value) != 0) return EngineError("setting");
  }
  for (const auto& [key, value] : engine_settings_) {
    if (api_.setting(env_, key.c_str(), value.c_str()) != 0) return EngineError("setting");
  }
  return absl::OkStatus();
}

absl::Status DmlabHost::Init(Level& level) {
  if (!connected_.ok()) return connected_;
  context_->Attach(&level);
  const int initialised = api_.init(env_);
  context_->Attach(nullptr);
  if (initialised != 0) return EngineError("init");
  if (absl::Status s = HookError("init"); !s.ok()) return s;
  rgb_index_ = -1;
  engine_observations_.clear();
  for (int i = 0, n = api_.observation_count(env_); i < n; ++i) {
    const absl::string_view name = api_.observation_name(env_, i);
    if (name == kFrameName) {
      rgb_index_ = i;
      continue;
    }
    // DeepMind Lab's deprecated spellings of RGB(D)_INTERLEAVED.
    if (absl::EndsWith(name, "_INTERLACED")) continue;
    DmlabObservationSpec spec{};
    api_.observation_spec(env_, i, &spec);
    absl::StatusOr<engine_plugin::ObservationSpec> ours = PluginSpec(name, spec);
    if (!ours.ok()) return ours.status();
    engine_observations_.push_back({i, *std::move(ours)});
  }
  if (rgb_index_ < 0) return absl::InternalError("DeepMind Lab's engine offers no RGB_INTERLEAVED");
  actions_.clear();
  for (int i = 0, n = api_.action_discrete_count(env_); i < n; ++i) {
    int min = 0, max = 0;
    api_.action_discrete_bounds(env_, i, &min, &max);
    actions_.push_back({api_.action_discrete_name(env_, i), min, max});
  }
  pending_actions_.assign(actions_.size(), 0);
  return absl::OkStatus();
}

std::vector<ObservationSpec> DmlabHost::ObservationSpecs() const {
  std::vector<ObservationSpec> specs = {
      ObservationSpec{kFrameName, engine_plugin::ObservationType::kBytes, {height_, width_, 3}}};
  for (const EngineObservation& observation : engine_observations_) {
    specs.push_back(observation.spec);
  }
  return specs;
}

std::uint64_t DmlabHost::LevelSeed(std::uint64_t seed) {
  return static_cast<std::uint64_t>(context_->LevelSeed(EngineSeed(seed)));
}

absl::Status DmlabHost::Start(Level& level, std::uint64_t seed) {
  if (env_ == nullptr) return absl::FailedPreconditionError("the engine is not initialised");
  context_->Attach(&level);
  const int started = api_.start(env_, episode_++, EngineSeed(seed));
  context_->Attach(nullptr);
  if (started != 0) return EngineError("start");
  return HookError("start");
}

void DmlabHost::Act(absl::Span<const int> discrete, absl::Span<const double>) {
  const std::size_t n = std::min(discrete.size(), pending_actions_.size());
  for (std::size_t i = 0; i < n; ++i) {
    pending_actions_[i] = std::clamp(discrete[i], actions_[i].min, actions_[i].max);
  }
}

absl::Status DmlabHost::Step(Level& level) {
  if (env_ == nullptr) return absl::FailedPreconditionError("the engine is not initialised");
  double reward = 0;
  context_->Attach(&level);
  // The engine hands the level's own actions to it (customDiscreteActions).
  api_.act_discrete(env_, pending_actions_.data());
  const DmlabStatus status = api_.advance(env_, 1, &reward);
  context_->Attach(nullptr);
  if (status == DmlabStatus_Error) return EngineError("advance");
  if (absl::Status s = HookError("advance"); !s.ok()) return s;
  if (reward != 0) level.AddReward(0, reward);
  // The level's own end (its hasEpisodeFinished, which the engine asked),
  // or the engine's (a map that would not load).
  if (std::optional<engine_plugin::EpisodeEnd> end = context_->TakeEpisodeEnd()) {
    level.EndEpisode(*end);
  } else if (status == DmlabStatus_Terminated) {
    level.EndEpisode(engine_plugin::EpisodeEnd::kTerminated);
  }
  return absl::OkStatus();
}

absl::Status DmlabHost::Render(Level& level, const tensor::Tensor& frame) {
  DmlabObservation observation{};
  // The engine renders the frame now, and its HUD asks the level for its
  // screen messages and rectangles.
  context_->Attach(&level);
  api_.observation(env_, rgb_index_, &observation);
  context_->Attach(nullptr);
  if (absl::Status s = HookError("observation"); !s.ok()) return s;
  const int* shape = observation.spec.shape;
  if (observation.spec.type != DmlabObservation_Bytes || observation.spec.dims != 3 ||
      shape == nullptr || shape[0] != height_ || shape[1] != width_ || shape[2] != 3 ||
      observation.payload.bytes == nullptr) {
    return absl::InternalError("DeepMind Lab's RGB_INTERLEAVED is not the frame it declared");
  }
  std::memcpy(*frame.data(), observation.payload.bytes,
              static_cast<std::size_t>(height_) * width_ * 3);
  return absl::OkStatus();
}

absl::StatusOr<ObservationValue> DmlabHost::Observe(int index,
                                                    engine_plugin::ObservationBuffers& buffers) {
  // Index 0 is the frame, which Render draws.
  if (index < 1 || index > static_cast<int>(engine_observations_.size())) {
    return absl::OutOfRangeError(absl::StrCat("the engine has no observation ", index));
  }
  const EngineObservation& wanted = engine_observations_[index - 1];
  // After Render, the engine has drawn this frame: its HUD asks no hook.
  DmlabObservation observation{};
  api_.observation(env_, wanted.index, &observation);
  if (absl::Status s = HookError("observation"); !s.ok()) return s;
  absl::StatusOr<ObservationSpec> got = PluginSpec(wanted.spec.name, observation.spec);
  if (!got.ok()) return got.status();
  const bool bytes = wanted.spec.type == engine_plugin::ObservationType::kBytes;
  if (got->type != wanted.spec.type || got->shape != wanted.spec.shape ||
      (bytes ? observation.payload.bytes == nullptr : observation.payload.doubles == nullptr)) {
    return absl::InternalError(
        absl::StrCat("DeepMind Lab's ", wanted.spec.name, " is not the observation it declared"));
  }
  absl::StatusOr<tensor::Tensor> value =
      buffers.Acquire(bytes ? tensor::DType::kUInt8 : tensor::DType::kFloat64, wanted.spec.shape);
  if (!value.ok()) return value.status();
  std::memcpy(*value->data(),
              bytes ? static_cast<const void*>(observation.payload.bytes)
                    : static_cast<const void*>(observation.payload.doubles),
              static_cast<std::size_t>(value->num_elements()) * (bytes ? 1 : sizeof(double)));
  ObservationValue result;
  result.type = wanted.spec.type;
  result.tensor = *std::move(value);
  return result;
}

void DmlabHost::ListProperties(
    absl::FunctionRef<void(absl::string_view, const std::string&)> visit) const {
  visit("width", std::to_string(width_));
  visit("height", std::to_string(height_));
  visit("fps", std::to_string(fps_));
  visit("dmlabLibrary", library_path_);
  visit("dmlabRunfiles", runfiles_);
  visit("dmlabTools", tools_);
  visit("dmlabTempFolder", temp_folder_);
}

namespace {
const bool kRegistered = engine_plugin::RegisterHost(
    "dmlab", [] { return std::unique_ptr<engine_plugin::Host>(new DmlabHost); });
}  // namespace

}  // namespace hosts::dmlab
