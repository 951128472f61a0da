#include "engine_plugin/engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine_plugin/game_module.h"
#include "engine_plugin/level_files.h"
#include "engine_plugin/level_script.h"
#include "engine_plugin/observation_pool.h"
#include "engine_plugin/raycaster.h"
#include "engine_plugin/sandbox.h"
#include "engine_plugin/text_map.h"
#include "levels/builtin_levels.h"
#include "lua_api/tensor_limits.h"
#include "tensor/device_ops.h"
#include "tensor/device_transfer.h"
#include "tensor/loan.h"

namespace engine_plugin {
namespace {

constexpr char kFrameLender[] = "engine frame buffer";
constexpr char kDepthLender[] = "engine depth buffer";
constexpr char kTargetLender[] = "host frame target";

enum BuiltInObservation { kRgb, kRgbd, kPosTrans, kPosRot, kTopDown, kBuiltInCount };

constexpr double kAppleReward = 1;
constexpr double kGoalReward = 10;
constexpr int kMaxFrameExtent = 4096;
// RGBD_INTERLEAVED's depth byte: 1/16 cell per step, saturating at 255
// (16 cells and beyond).
constexpr float kDepthStepsPerCell = 16;

constexpr ActionSpec kActionSpecs[kActionCount] = {
    {"LOOK_LEFT_RIGHT_PIXELS_PER_FRAME", -512, 512},
    {"LOOK_DOWN_UP_PIXELS_PER_FRAME", -512, 512},
    {"STRAFE_LEFT_RIGHT", -1, 1},
    {"MOVE_BACK_FORWARD", -1, 1},
    {"FIRE", 0, 1},
    {"JUMP", 0, 1},
    {"CROUCH", 0, 1},
};

std::vector<ObservationSpec> BuiltInSpecs(int width, int height) {
  return {
      {"RGB_INTERLEAVED", ObservationType::kBytes, {height, width, 3}},
      {"RGBD_INTERLEAVED", ObservationType::kBytes, {height, width, 4}},
      {"DEBUG.POS.TRANS", ObservationType::kDoubles, {3}},
      {"DEBUG.POS.ROT", ObservationType::kDoubles, {3}},
      {"DEBUG.CAMERA.TOP_DOWN", ObservationType::kBytes, {height, width, 3}},
  };
}

template <typename Int>
absl::StatusOr<Int> ParseSettingInt(absl::string_view key, absl::string_view value, Int lowest,
                                    Int highest) {
  Int parsed = 0;
  if (!absl::SimpleAtoi(value, &parsed) || parsed < lowest || parsed > highest) {
    return absl::InvalidArgumentError(absl::StrCat("setting '", key, "': an integer in [", lowest,
                                                   ", ", highest, "] expected, got '", value,
                                                   "'"));
  }
  return parsed;
}

// observationDevice: "cpu" or "cuda:N".
absl::StatusOr<tensor::Device> ParseObservationDevice(absl::string_view value) {
  if (value == "cpu") return tensor::Device::Cpu();
  absl::string_view index = value;
  int parsed = 0;
  if (absl::ConsumePrefix(&index, "cuda:") && !index.empty() &&
      std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      absl::SimpleAtoi(index, &parsed)) {
    return tensor::Device::Cuda(parsed);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "setting 'observationDevice': 'cpu' or 'cuda:N' (N a device index) expected, got '", value,
      "'"));
}

struct LevelSource {
  std::string source;
  std::string chunk_name;
  std::string directory;  // empty for a built-in level
};

bool IsPath(absl::string_view level) {
  return absl::StrContains(level, '/') || absl::EndsWith(level, ".lua");
}

absl::StatusOr<LevelSource> FindLevel(const std::string& level) {
  if (IsPath(level)) {
    absl::StatusOr<std::string> source = ReadLevelFile(level);
    if (!source.ok()) return source.status();
    const std::size_t slash = level.rfind('/');
    return LevelSource{*std::move(source), "@" + level,
                       slash == std::string::npos ? "." : level.substr(0, slash)};
  }
  std::optional<absl::string_view> builtin = levels::FindBuiltinLevelFile(level + ".lua");
  if (!builtin) {
    return absl::NotFoundError(absl::StrCat("no built-in level '", level,
                                            "' (levels/", level, ".lua); give a path to load a "
                                            "level script from a file"));
  }
  return LevelSource{std::string(*builtin), absl::StrCat("@levels/", level, ".lua"), ""};
}

// A map name is a file name in maps/, never a path.
bool IsMapName(absl::string_view name) {
  if (name.empty() || name[0] == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

// maps/<name>.txt (and <name>.variations.txt, if present) beside the level
// script, or else among the built-in maps.
absl::StatusOr<MapText> FindMap(const std::string& directory, const std::string& name) {
  if (!IsMapName(name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "nextMap returned '", name, "': a map name (letters, digits, '_', '-', '.') or a text "
        "map with at least one newline expected"));
  }
  MapText map;
  if (!directory.empty()) {
    const std::string stem = absl::StrCat(directory, "/maps/", name);
    if (absl::StatusOr<std::string> entity = ReadLevelFile(stem + ".txt"); entity.ok()) {
      map.entity = *std::move(entity);
      if (absl::StatusOr<std::string> v = ReadLevelFile(stem + ".variations.txt"); v.ok()) {
        map.variations = *std::move(v);
      }
      return map;
    }
  }
  std::optional<absl::string_view> entity =
      levels::FindBuiltinLevelFile(absl::StrCat("maps/", name, ".txt"));
  if (!entity) return absl::NotFoundError(absl::StrCat("no map named '", name, "'"));
  map.entity = std::string(*entity);
  if (std::optional<absl::string_view> v =
          levels::FindBuiltinLevelFile(absl::StrCat("maps/", name, ".variations.txt"))) {
    map.variations = std::string(*v);
  }
  return map;
}

absl::Status Annotate(const absl::Status& status, absl::string_view context) {
  return absl::Status(status.code(), absl::StrCat(context, ": ", status.message()));
}

}  // namespace

absl::Span<const ActionSpec> ActionSpecs() { return kActionSpecs; }

struct Engine::State final : GameHost {
  // Configuration, fixed by Init.
  LevelSource level;
  Settings settings;
  int width = 84;
  int height = 84;
  int fps = 60;
  double episode_length_seconds = 0;       // 0: no limit
  LimitSettings limit_settings;
  std::int64_t episode_length_frames = 0;  // the same, in frames at fps
  // Where RGB_INTERLEAVED is handed out, and whether its frames are
  // rendered into page-locked memory to be uploaded from there.
  tensor::Device observation_device;
  bool pinned_staging = false;
  std::vector<ObservationSpec> specs;

  // The episode.
  bool started = false;
  bool episode_over = false;
  std::optional<World> current_world;
  std::mt19937_64 spawn_random;
  Actions actions{};
  std::int64_t episode_frames = 0;
  std::int64_t steps = 0;
  double pending_reward = 0;
  bool map_finished = false;

  // The current frame's buffers and observations.
  ObservationPool pool;
  // With a device observationDevice (from Init): its backend, the device
  // buffers RGB_INTERLEAVED is uploaded into, and with pinnedStaging the
  // page-locked buffers frames are rendered into. Pools, like `pool`, so a
  // device frame a host keeps is never overwritten, and a step that keeps
  // nothing allocates nothing.
  const tensor::DeviceOps* device_ops = nullptr;
  std::optional<ObservationPool> device_pool;
  std::optional<ObservationPool> staging_pool;
  tensor::Tensor frame;
  // SetFrameTarget's memory, or null for pool buffers. While it is set,
  // `frame` is lent over it under `target_loan`, which ends with the frame.
  std::uint8_t* frame_target = nullptr;
  std::shared_ptr<tensor::Loan> target_loan;
  std::vector<float> depth;
  std::vector<std::optional<LevelObservation>> observations;
  // A step's events may hold as much as the level's tensors (from Init).
  EventLog event_log;

  // Last, so it is destroyed first: its Lua VM refers to this State.
  std::unique_ptr<LevelScript> script;

  // GameHost
  const World* world() const override {
    return current_world ? &*current_world : nullptr;
  }
  void AddScore(double reward) override { pending_reward += reward; }
  void FinishMap() override { map_finished = true; }
  double EpisodeTimeSeconds() const override {
    return static_cast<double>(episode_frames) / fps;
  }
  int frame_width() const override { return width; }
  int frame_height() const override { return height; }


  // Drops the previous frame's buffers, so the pool can recycle those that
  // nobody retained.
  void BeginStep() {
    frame = tensor::Tensor();
    // The next frame overwrites the target: whatever a host kept of this
    // one becomes an error instead of silently changing.
    if (target_loan != nullptr) target_loan->Revoke();
    target_loan = nullptr;
    observations.assign(specs.size(), std::nullopt);
    event_log.NewStep();
  }

  absl::Status LoadMap() {
    absl::StatusOr<MapText> text = script->NextMap();
    if (!text.ok()) return text.status();
    if (!text->name.empty()) {
      text = FindMap(level.directory, text->name);
      if (!text.ok()) return text.status();
    }
    absl::StatusOr<TextMap> map = TextMap::Parse(text->entity, text->variations);
    if (!map.ok()) return Annotate(map.status(), "the level's map");
    // mt19937_64's output is fixed by the standard, so the spawn point is
    // the same on every platform (the modulo bias is below 2^-50).
    const int spawn = static_cast<int>(spawn_random() % map->spawns().size());
    current_world.emplace(*std::move(map), spawn);
    return absl::OkStatus();
  }

  // The buffer the next frame is rendered into: the host's target, lent
  // until the next BeginStep, or else a fresh pool buffer.
  absl::StatusOr<tensor::Tensor> FrameBuffer() {
    if (frame_target == nullptr) {
      return (staging_pool ? *staging_pool : pool).Acquire(tensor::DType::kUInt8,
                                                           {height, width, 3});
    }
    absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous({height, width, 3});
    if (!layout.ok()) return layout.status();
    target_loan = tensor::Loan::Create(kTargetLender);
    return tensor::Tensor::Lend(tensor::DType::kUInt8, *std::move(layout), frame_target,
                                static_cast<std::size_t>(height) * width * 3, target_loan);
  }

  // Renders into FrameBuffer(), then lends it and the depth buffer to
  // observeFrame for the duration of that call.
  absl::Status RenderFrame() {
    absl::StatusOr<tensor::Tensor> rgb = FrameBuffer();
    if (!rgb.ok()) return rgb.status();
    frame = *std::move(rgb);
    depth.resize(static_cast<std::size_t>(width) * height);
    auto* pixels = reinterpret_cast<std::uint8_t*>(*frame.data());
    RenderFirstPerson(current_world->map(), current_world->pickups(),
                      Camera::Of(current_world->pose()), Frame{pixels, depth.data(), width, height});
    if (!script->has_observe_frame()) return absl::OkStatus();

    tensor::ScopedLoan frame_loan(kFrameLender);
    tensor::ScopedLoan depth_loan(kDepthLender);
    absl::StatusOr<tensor::Tensor> lent_rgb = tensor::Tensor::Lend(
        tensor::DType::kUInt8, frame.layout(), pixels,
        static_cast<std::size_t>(frame.layout().num_elements()), frame_loan.token());
    absl::StatusOr<tensor::Layout> depth_layout = tensor::Layout::Contiguous({height, width});
    if (!lent_rgb.ok()) return lent_rgb.status();
    if (!depth_layout.ok()) return depth_layout.status();
    absl::StatusOr<tensor::Tensor> lent_depth =
        tensor::Tensor::Lend(tensor::DType::kFloat32, *std::move(depth_layout), depth.data(),
                             depth.size() * sizeof(float), depth_loan.token());
    if (!lent_depth.ok()) return lent_depth.status();
    return script->ObserveFrame(*lent_rgb, *lent_depth);
  }  // Both loans end here, whatever observeFrame kept.

  absl::StatusOr<tensor::Tensor> Pooled(tensor::DType dtype, const ObservationSpec& spec) {
    return pool.Acquire(dtype, spec.shape);
  }

  absl::StatusOr<LevelObservation> Compute(int index) {
    const ObservationSpec& spec = specs[index];
    LevelObservation result;
    result.value.type = spec.type;
    const Pose& pose = current_world->pose();
    switch (index) {
      case kRgb: {
        if (!device_pool) {
          result.value.tensor = frame;
          return result;
        }
        absl::StatusOr<tensor::Tensor> uploaded =
            device_pool->Acquire(tensor::DType::kUInt8, spec.shape);
        if (!uploaded.ok()) return uploaded.status();
        // Synchronous: the device holds the frame before the host sees it.
        if (absl::Status s = device_ops->copy(*uploaded, frame); !s.ok()) {
          return Annotate(s, absl::StrCat("uploading the frame to ", observation_device.ToString()));
        }
        result.value.tensor = *std::move(uploaded);
        return result;
      }
      case kRgbd: {
        absl::StatusOr<tensor::Tensor> rgbd = Pooled(tensor::DType::kUInt8, spec);
        if (!rgbd.ok()) return rgbd.status();
        const auto* rgb = reinterpret_cast<const std::uint8_t*>(*frame.data());
        auto* out = reinterpret_cast<std::uint8_t*>(*rgbd->data());
        for (std::size_t i = 0; i < depth.size(); ++i) {
          std::memcpy(out + 4 * i, rgb + 3 * i, 3);
          out[4 * i + 3] = static_cast<std::uint8_t>(
              std::min(255.0f, std::round(depth[i] * kDepthStepsPerCell)));
        }
        result.value.tensor = *std::move(rgbd);
        return result;
      }
      case kPosTrans:
      case kPosRot: {
        absl::StatusOr<tensor::Tensor> triple = Pooled(tensor::DType::kFloat64, spec);
        if (!triple.ok()) return triple.status();
        const double values[3] = {index == kPosTrans ? pose.position.x : pose.pitch,
                                  index == kPosTrans ? pose.position.y : pose.yaw, 0.0};
        std::memcpy(*triple->data(), values, sizeof(values));
        result.value.tensor = *std::move(triple);
        return result;
      }
      case kTopDown: {
        absl::StatusOr<tensor::Tensor> view = Pooled(tensor::DType::kUInt8, spec);
        if (!view.ok()) return view.status();
        RenderTopDown(current_world->map(), current_world->pickups(), pose,
                      Frame{reinterpret_cast<std::uint8_t*>(*view->data()), nullptr, width,
                            height});
        result.value.tensor = *std::move(view);
        return result;
      }
      default:
        return script->CustomObservation(spec);
    }
  }

  // A copy of `value` that nothing else holds.
  absl::StatusOr<ObservationValue> CopyOf(const ObservationValue& value);

  absl::StatusOr<const LevelObservation*> Observe(int index) {
    if (!started) return absl::FailedPreconditionError("no observations before start");
    if (index < 0 || index >= static_cast<int>(specs.size())) {
      return absl::OutOfRangeError(absl::StrCat("observation index ", index, " is not in [0, ",
                                                specs.size(), ")"));
    }
    if (!observations[index]) {
      absl::StatusOr<LevelObservation> computed = Compute(index);
      if (!computed.ok()) return computed.status();
      observations[index] = *std::move(computed);
    }
    return &*observations[index];
  }

  // Finds observationDevice's backend and allocators, so that a build or a
  // machine without that device fails here rather than at the first step.
  absl::Status OpenObservationDevice() {
    device_ops = nullptr;
    device_pool.reset();
    staging_pool.reset();
    if (observation_device.is_cpu()) return absl::OkStatus();
    const std::string setting =
        absl::StrCat("setting 'observationDevice' is '", observation_device.ToString(), "'");
    absl::StatusOr<const tensor::DeviceOps*> ops =
        tensor::DeviceOpsFor(observation_device, "observationDevice");
    if (!ops.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          setting, ", but this build has no backend for that device (build with --config=cuda)"));
    }
    if ((*ops)->allocator == nullptr || (*ops)->copy == nullptr) {
      return absl::UnimplementedError(
          absl::StrCat(setting, ", but its backend cannot allocate and copy tensors"));
    }
    absl::StatusOr<tensor::Allocator*> allocator = (*ops)->allocator(observation_device.index);
    if (!allocator.ok()) return Annotate(allocator.status(), setting);
    if (pinned_staging) {
      if ((*ops)->pinned_host_allocator == nullptr) {
        return absl::UnimplementedError(absl::StrCat(
            "setting 'pinnedStaging' is 'true', but the backend of ",
            observation_device.ToString(), " has no page-locked host memory"));
      }
      absl::StatusOr<tensor::Allocator*> pinned = (*ops)->pinned_host_allocator();
      if (!pinned.ok()) return Annotate(pinned.status(), "setting 'pinnedStaging' is 'true'");
      staging_pool.emplace(**pinned);
    }
    device_ops = *ops;
    device_pool.emplace(**allocator);
    return absl::OkStatus();
  }

  absl::Status CheckCustomSpecs(const std::vector<ObservationSpec>& custom) {
    for (const ObservationSpec& spec : custom) {
      const auto same_name = [&](const ObservationSpec& other) { return other.name == spec.name; };
      if (std::count_if(specs.begin(), specs.end(), same_name) > 0 ||
          std::count_if(custom.begin(), custom.end(), same_name) > 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("customObservationSpec: the name '", spec.name, "' is taken"));
      }
    }
    return absl::OkStatus();
  }
};

Engine::Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}
Engine::~Engine() = default;

absl::StatusOr<std::unique_ptr<Engine>> Engine::Create(std::string level) {
  absl::StatusOr<LevelSource> source = FindLevel(level);
  if (!source.ok()) return source.status();
  auto state = std::make_unique<State>();
  state->level = *std::move(source);
  return std::unique_ptr<Engine>(new Engine(std::move(state)));
}

absl::Status Engine::SetSetting(absl::string_view key, absl::string_view value) {
  State& s = *state_;
  if (s.script != nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("setting '", key, "' after init: settings must come before init"));
  }
  if (key == "width" || key == "height") {
    absl::StatusOr<int> extent = ParseSettingInt(key, value, 1, kMaxFrameExtent);
    if (!extent.ok()) return extent.status();
    (key == "width" ? s.width : s.height) = *extent;
  } else if (key == "fps") {
    absl::StatusOr<int> fps = ParseSettingInt(key, value, 1, 1000);
    if (!fps.ok()) return fps.status();
    s.fps = *fps;
  } else if (key == "episodeLengthSeconds") {
    double seconds = 0;
    if (!absl::SimpleAtod(value, &seconds) || !(seconds > 0) || seconds > 1e9) {
      return absl::InvalidArgumentError(absl::StrCat(
          "setting 'episodeLengthSeconds': a number of seconds > 0 expected, got '", value, "'"));
    }
    s.episode_length_seconds = seconds;
  } else if (key == "sandbox") {
    if (value != "true" && value != "false") {
      return absl::InvalidArgumentError(
          absl::StrCat("setting 'sandbox': 'true' or 'false' expected, got '", value, "'"));
    }
    s.limit_settings.sandbox = value == "true";
  } else if (key == "memoryLimitMegabytes" || key == "tensorMemoryLimitMegabytes") {
    // No Lua heap cap is 0; tensors always have a limit.
    const std::int64_t lowest = key == "memoryLimitMegabytes" ? 0 : 1;
    absl::StatusOr<std::int64_t> megabytes = ParseSettingInt(key, value, lowest, kMaxLimitMegabytes);
    if (!megabytes.ok()) return megabytes.status();
    (key == "memoryLimitMegabytes" ? s.limit_settings.memory_megabytes
                                   : s.limit_settings.tensor_memory_megabytes) = *megabytes;
  } else if (key == "instructionLimit") {
    absl::StatusOr<std::int64_t> limit =
        ParseSettingInt<std::int64_t>(key, value, 0, std::int64_t{1} << 53);
    if (!limit.ok()) return limit.status();
    s.limit_settings.instruction_limit = *limit;
  } else if (key == "observationDevice") {
    absl::StatusOr<tensor::Device> device = ParseObservationDevice(value);
    if (!device.ok()) return device.status();
    s.observation_device = *device;
  } else if (key == "pinnedStaging") {
    if (value != "true" && value != "false") {
      return absl::InvalidArgumentError(
          absl::StrCat("setting 'pinnedStaging': 'true' or 'false' expected, got '", value, "'"));
    }
    s.pinned_staging = value == "true";
  }
  auto existing = std::find_if(s.settings.begin(), s.settings.end(),
                               [&](const auto& setting) { return setting.first == key; });
  if (existing != s.settings.end()) {
    existing->second = std::string(value);
  } else {
    s.settings.emplace_back(std::string(key), std::string(value));
  }
  return absl::OkStatus();
}

absl::Status Engine::Init() {
  State& s = *state_;
  if (s.script != nullptr) return absl::FailedPreconditionError("init was already called");
  if (absl::Status status = s.OpenObservationDevice(); !status.ok()) return status;
  // The last frame that starts within the limit ends the episode.
  s.episode_length_frames =
      static_cast<std::int64_t>(std::ceil(s.episode_length_seconds * s.fps - 1e-9));
  const LevelLimits limits =
      ResolveLimits(s.limit_settings, /*from_path=*/!s.level.directory.empty());
  s.event_log.set_bytes_per_step(limits.tensors.memory_bytes);
  absl::StatusOr<std::unique_ptr<LevelScript>> script = LevelScript::Load(
      s.level.source, s.level.chunk_name, s.level.directory, limits, &s, &s.event_log);
  if (!script.ok()) return script.status();
  if (absl::Status status = (*script)->Init(s.settings); !status.ok()) return status;
  absl::StatusOr<std::vector<ObservationSpec>> custom = (*script)->CustomObservationSpecs();
  if (!custom.ok()) return custom.status();
  s.specs = BuiltInSpecs(s.width, s.height);
  if (absl::Status status = s.CheckCustomSpecs(*custom); !status.ok()) return status;
  s.specs.insert(s.specs.end(), custom->begin(), custom->end());
  s.script = *std::move(script);
  return absl::OkStatus();
}

// Start and Advance reload maps and step the world under the level's
// feet: never from inside one of its callbacks.
absl::Status Engine::CheckCanStep(const char* what) const {
  const LevelScript* script = state_->script.get();
  if (script == nullptr || !script->in_callback()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      what, " was called from inside a level callback (listProperty's visitor?); call it after "
            "the callback returns"));
}

absl::Status Engine::Start(int episode, std::uint64_t seed) {
  State& s = *state_;
  if (s.script == nullptr) return absl::FailedPreconditionError("call init before start");
  if (absl::Status nested = CheckCanStep("start"); !nested.ok()) return nested;
  s.started = false;
  s.BeginStep();
  s.spawn_random.seed(seed);
  s.actions = {};
  s.episode_frames = 0;
  s.pending_reward = 0;
  s.map_finished = false;
  if (absl::Status status = s.script->Start(episode, seed); !status.ok()) return status;
  if (absl::Status status = s.LoadMap(); !status.ok()) return status;
  if (absl::Status status = s.RenderFrame(); !status.ok()) return status;
  s.started = true;
  s.episode_over = false;
  return absl::OkStatus();
}

const std::vector<ObservationSpec>& Engine::observation_specs() const { return state_->specs; }

absl::StatusOr<ObservationValue> Engine::Observation(int index) {
  absl::StatusOr<const LevelObservation*> observed = state_->Observe(index);
  if (!observed.ok()) return observed.status();
  return (*observed)->value;
}

absl::StatusOr<ObservationValue> Engine::SteadyObservation(int index) {
  absl::StatusOr<const LevelObservation*> observed = state_->Observe(index);
  if (!observed.ok()) return observed.status();
  if (!(*observed)->shares_script_storage) return (*observed)->value;
  return state_->CopyOf((*observed)->value);
}

absl::StatusOr<ObservationValue> Engine::RetainObservation(int index) {
  absl::StatusOr<const LevelObservation*> observed = state_->Observe(index);
  if (!observed.ok()) return observed.status();
  const LevelObservation& observation = **observed;
  if (!observation.shares_script_storage && observation.value.tensor.owns_storage()) {
    return observation.value;
  }
  // The script may write into its tensor after this step, and the next
  // frame overwrites a host's frame target: hold a copy.
  return state_->CopyOf(observation.value);
}

absl::StatusOr<ObservationValue> Engine::State::CopyOf(const ObservationValue& value) {
  // A level's tensor on a GPU is copied there (a device RGB_INTERLEAVED is
  // pool storage, never copied); on the CPU the copy comes from the pool.
  const tensor::Tensor& source = value.tensor;
  if (!source.device().is_cpu()) {
    absl::StatusOr<tensor::Tensor> copy = tensor::ToDevice(source, source.device());
    if (!copy.ok()) return copy.status();
    return ObservationValue{value.type, *std::move(copy), {}};
  }
  absl::StatusOr<tensor::Tensor> copy =
      pool.Acquire(source.dtype(), source.layout().shape());
  if (!copy.ok()) return copy.status();
  std::memcpy(*copy->data(), *source.data(),
              static_cast<std::size_t>(source.layout().num_elements()) * source.item_size());
  return ObservationValue{value.type, *std::move(copy), {}};
}

void Engine::Act(const Actions& actions) {
  for (int i = 0; i < kActionCount; ++i) {
    state_->actions[i] = std::clamp(actions[i], kActionSpecs[i].min, kActionSpecs[i].max);
  }
}

absl::StatusOr<EpisodeStatus> Engine::Advance(int num_steps, double* reward) {
  State& s = *state_;
  if (absl::Status nested = CheckCanStep("advance"); !nested.ok()) return nested;
  if (!s.started) return absl::FailedPreconditionError("call start before advance");
  if (s.episode_over) {
    return absl::FailedPreconditionError("the episode has ended: call start for a new one");
  }
  if (num_steps < 1) {
    return absl::InvalidArgumentError(absl::StrCat("advance: num_steps ", num_steps, " < 1"));
  }
  s.BeginStep();
  // After an error the episode cannot go on; the next Start recovers.
  s.started = false;
  const double seconds = 1.0 / s.fps;
  EpisodeStatus status = EpisodeStatus::kRunning;
  for (int step = 0; step < num_steps && status == EpisodeStatus::kRunning; ++step) {
    for (int id : s.current_world->Step(s.actions, seconds)) {
      const Pickup& pickup = s.current_world->pickup(id);
      absl::StatusOr<double> gained = s.script->PickupReward(
          pickup, pickup.kind == PickupKind::kGoal ? kGoalReward : kAppleReward);
      if (!gained.ok()) return gained.status();
      s.pending_reward += *gained;
    }
    ++s.episode_frames;
    ++s.steps;
    if (s.map_finished) {
      s.map_finished = false;
      if (absl::Status loaded = s.LoadMap(); !loaded.ok()) return loaded;
    }
    absl::StatusOr<bool> finished = s.script->HasEpisodeFinished(s.EpisodeTimeSeconds());
    if (!finished.ok()) return finished.status();
    // Everything the callbacks of this frame scored is its reward.
    *reward += s.pending_reward;
    s.pending_reward = 0;
    if (*finished) {
      status = EpisodeStatus::kTerminated;
    } else if (s.episode_length_frames > 0 && s.episode_frames >= s.episode_length_frames) {
      status = EpisodeStatus::kInterrupted;
    }
  }
  if (absl::Status rendered = s.RenderFrame(); !rendered.ok()) return rendered;
  *reward += s.pending_reward;  // scored by observeFrame
  s.pending_reward = 0;
  s.started = true;
  s.episode_over = status != EpisodeStatus::kRunning;
  return status;
}

const std::vector<std::string>& Engine::event_type_names() const {
  return state_->event_log.type_names();
}
const std::vector<Event>& Engine::events() const { return state_->event_log.events(); }

namespace {

// The engine's own read-only properties.
std::optional<std::string> EngineProperty(const Engine& engine, absl::string_view key,
                                          std::int64_t steps, int width, int height) {
  if (key == "engine.fps") return absl::StrCat(engine.fps());
  if (key == "engine.width") return absl::StrCat(width);
  if (key == "engine.height") return absl::StrCat(height);
  if (key == "engine.episodeTimeSeconds") return absl::StrCat(engine.episode_time_seconds());
  if (key == "engine.steps") return absl::StrCat(steps);
  if (key == "engine.frameBuffersAllocated") return absl::StrCat(engine.frame_buffers_allocated());
  return std::nullopt;
}

constexpr const char* kEngineProperties[] = {
    "engine.fps",   "engine.width", "engine.height", "engine.episodeTimeSeconds",
    "engine.steps", "engine.frameBuffersAllocated"};

bool IsEngineKey(absl::string_view key) {
  return key == "engine" || absl::StartsWith(key, "engine.");
}

}  // namespace

absl::StatusOr<PropertyResult> Engine::ReadProperty(absl::string_view key, std::string* value) {
  const State& s = *state_;
  if (IsEngineKey(key)) {
    std::optional<std::string> found = EngineProperty(*this, key, s.steps, s.width, s.height);
    if (!found) return PropertyResult::kNotFound;
    *value = *std::move(found);
    return PropertyResult::kSuccess;
  }
  if (s.script == nullptr) return PropertyResult::kNotFound;
  absl::StatusOr<std::optional<std::string>> found = s.script->ReadProperty(key);
  if (!found.ok()) return found.status();
  if (!*found) return PropertyResult::kNotFound;
  *value = **std::move(found);
  return PropertyResult::kSuccess;
}

absl::StatusOr<PropertyResult> Engine::WriteProperty(absl::string_view key,
                                                     absl::string_view value) {
  const State& s = *state_;
  if (IsEngineKey(key)) {
    return EngineProperty(*this, key, s.steps, s.width, s.height) ? PropertyResult::kPermissionDenied
                                                                  : PropertyResult::kNotFound;
  }
  if (s.script == nullptr) return PropertyResult::kNotFound;
  absl::StatusOr<std::optional<bool>> written = s.script->WriteProperty(key, value);
  if (!written.ok()) return written.status();
  return written->value_or(false) ? PropertyResult::kSuccess : PropertyResult::kNotFound;
}

absl::StatusOr<PropertyResult> Engine::ListProperty(
    absl::string_view key, absl::FunctionRef<void(absl::string_view, int)> visit) {
  const State& s = *state_;
  if (key == "engine") {
    for (const char* property : kEngineProperties) visit(property, kReadable);
    return PropertyResult::kSuccess;
  }
  if (IsEngineKey(key)) return PropertyResult::kNotFound;
  if (key.empty()) visit("engine", kListable);
  bool listed = key.empty();
  if (s.script != nullptr) {
    absl::StatusOr<bool> level_listed = s.script->ListProperty(key, visit);
    if (!level_listed.ok()) return level_listed.status();
    listed = listed || *level_listed;
  }
  return listed ? PropertyResult::kSuccess : PropertyResult::kNotFound;
}

int Engine::fps() const { return state_->fps; }
double Engine::episode_time_seconds() const { return state_->EpisodeTimeSeconds(); }
const World* Engine::world() const { return state_->world(); }
int Engine::frame_buffers_allocated() const {
  const State& s = *state_;
  return s.pool.allocations() + (s.device_pool ? s.device_pool->allocations() : 0) +
         (s.staging_pool ? s.staging_pool->allocations() : 0);
}

absl::Status Engine::SetFrameTarget(std::uint8_t* pixels, std::size_t bytes) {
  State& s = *state_;
  if (s.script == nullptr) return absl::FailedPreconditionError("call init before SetFrameTarget");
  const std::size_t frame_bytes = static_cast<std::size_t>(s.width) * s.height * 3;
  if (pixels != nullptr && bytes != frame_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("SetFrameTarget: ", bytes,
                                                   " bytes given, a ", s.height, "x", s.width,
                                                   "x3 frame needs ", frame_bytes));
  }
  s.frame_target = pixels;
  return absl::OkStatus();
}

}  // namespace engine_plugin
