#include "engine_plugin/engine.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/host_registry.h"
#include "engine_plugin/level_files.h"
#include "engine_plugin/level_script.h"
#include "engine_plugin/level_source.h"
#include "engine_plugin/observation_specs.h"
#include "engine_plugin/observations.h"
#include "engine_plugin/players_module.h"
#include "engine_plugin/plugin_settings.h"
#include "engine_plugin/sandbox.h"
#include "lua_api/tensor/random.h"

namespace engine_plugin {

struct Engine::State final : Level, Observations::Sources, PlayerRoster {
  // Configuration, fixed by Init.
  LevelSource level;
  std::unique_ptr<Host> host;
  // Whether a setting has gone to the host: the host setting must come first.
  bool host_configured = false;
  Settings settings;
  PluginSettings plugin;
  std::int64_t episode_length_frames = 0;  // episodeLengthSeconds in steps
  std::vector<DiscreteActionSpec> discrete_specs;
  std::vector<ContinuousActionSpec> continuous_specs;
  LevelCache level_cache;  // the caller's, if given: the host holds its address

  // The episode.
  bool started = false;
  bool episode_over = false;
  std::vector<int> discrete;
  std::vector<double> continuous;
  std::int64_t episode_frames = 0;
  std::int64_t steps = 0;
  // Per player: scored and not yet counted, and the last Advance's.
  std::vector<double> pending_rewards = {0.0};
  std::vector<double> rewards = {0.0};
  std::vector<PlayerStatus> statuses = {PlayerStatus::kRunning};
  std::optional<EpisodeEnd> ended_by_host;  // EndEpisode, in this step
  std::int64_t clamped_actions = 0;

  Observations observations;
  // A step's events may hold as much as the level's tensors (from Init).
  EventLog event_log;

  // Last, so it is destroyed first: its Lua VM refers to this State and
  // to the host.
  std::unique_ptr<LevelScript> script;

  // Level
  absl::StatusOr<bool> Call(
      const char* name, int num_results, absl::FunctionRef<int(lua_State*)> push_arguments,
      absl::FunctionRef<absl::Status(lua_State*, int)> read_results) override {
    return script->Call(name, num_results, push_arguments, read_results);
  }
  bool Defines(const char* name) override { return script->Defines(name); }
  absl::StatusOr<bool> CallLending(const char* name,
                                   absl::Span<const LentBuffer> buffers) override {
    return script->CallLending(name, buffers);
  }
  void AddReward(int player, double reward) override { pending_rewards[player] += reward; }
  void EndEpisode(EpisodeEnd end) override { ended_by_host = end; }
  double EpisodeTimeSeconds() const override {
    return static_cast<double>(episode_frames) / host->fps();
  }
  const std::string& directory() const override { return level.directory; }
  absl::StatusOr<std::string> ReadFile(const std::string& name) const override {
    return ReadNamedLevelFile(paths(), name);
  }
  LevelPaths paths() const { return {level.directory, plugin.game_scripts_directory}; }

  // Observations::Sources
  absl::StatusOr<LevelObservation> FromLevel(const ObservationSpec& spec) override {
    return script->CustomObservation(spec);
  }
  absl::StatusOr<ObservationValue> FromHost(int index, ObservationBuffers& buffers) override {
    return host->Observe(index, buffers);
  }
  double PlayerReward(int player) const override { return rewards[player]; }

  // PlayerRoster
  int players() const override { return plugin.players; }
  PlayerStatus player_status(int player) const override { return statuses[player]; }
  void FinishPlayer(int player, EpisodeEnd end) override {
    if (statuses[player] != PlayerStatus::kRunning) return;
    statuses[player] =
        end == EpisodeEnd::kTerminated ? PlayerStatus::kTerminated : PlayerStatus::kTruncated;
  }

  // The episode's end once every player's part has ended: terminated if
  // any player's was; none while a player runs.
  std::optional<EpisodeEnd> EveryPlayerFinished() const {
    bool terminated = false;
    for (PlayerStatus status : statuses) {
      if (status == PlayerStatus::kRunning) return std::nullopt;
      terminated = terminated || status == PlayerStatus::kTerminated;
    }
    return terminated ? EpisodeEnd::kTerminated : EpisodeEnd::kTruncated;
  }

  // The host gets the actions with a finished player's zeroed: it stands
  // still.
  void ActOnHost() {
    const int n = plugin.players;
    if (n > 1) {
      const std::size_t discrete_each = discrete.size() / n;
      const std::size_t continuous_each = continuous.size() / n;
      for (int p = 0; p < n; ++p) {
        if (statuses[p] == PlayerStatus::kRunning) continue;
        std::fill_n(discrete.begin() + p * discrete_each, discrete_each, 0);
        std::fill_n(continuous.begin() + p * continuous_each, continuous_each, 0.0);
      }
    }
    host->Act(discrete, continuous);
  }

  // A new step: the previous one's frame, values, rewards and events go.
  void BeginStep() {
    observations.BeginStep();
    event_log.NewStep();
    std::fill(rewards.begin(), rewards.end(), 0.0);
  }

  // Counts what the players scored since the last call: into each one's
  // reward and, summed, into *reward.
  void CountRewards(double* reward) {
    for (std::size_t p = 0; p < pending_rewards.size(); ++p) {
      rewards[p] += pending_rewards[p];
      *reward += pending_rewards[p];
      pending_rewards[p] = 0;
    }
  }

  absl::Status RenderFrame() {
    absl::StatusOr<tensor::Tensor> frame = observations.NewFrame();
    if (!frame.ok()) return frame.status();
    return host->Render(*this, *frame);
  }

  // Observations before the first start are an error.
  absl::Status CheckStarted() const {
    if (started) return absl::OkStatus();
    return absl::FailedPreconditionError("no observations before start");
  }
};

Engine::Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}
Engine::~Engine() = default;

absl::StatusOr<std::unique_ptr<Engine>> Engine::Create(std::string level) {
  absl::StatusOr<LevelSource> source = FindLevel(level);
  if (!source.ok()) return source.status();
  absl::StatusOr<std::unique_ptr<Host>> host = CreateHost(source->host);
  if (!host.ok()) {
    return absl::Status(host.status().code(),
                        absl::StrCat("level '", level, "': ", host.status().message()));
  }
  auto state = std::make_unique<State>();
  state->level = *std::move(source);
  state->host = *std::move(host);
  // Hosts whose actions do not depend on the level have them before Init.
  state->discrete_specs = state->host->DiscreteActions();
  state->continuous_specs = state->host->ContinuousActions();
  return std::unique_ptr<Engine>(new Engine(std::move(state)));
}

absl::Status Engine::SetSetting(absl::string_view key, absl::string_view value) {
  State& s = *state_;
  if (s.script != nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("setting '", key, "' after init: settings must come before init"));
  }
  if (key == "host") return SetHost(value);
  absl::StatusOr<bool> applied = ApplyPluginSetting(key, value, &s.plugin);
  if (!applied.ok()) return applied.status();
  if (!*applied) {
    applied = s.host->SetSetting(key, value);
    s.host_configured = true;
  }
  if (!applied.ok()) return applied.status();
  // The engine's own settings stay with it, as in DeepMind Lab, whose
  // levels refuse keys they do not know. episodeLengthSeconds is also a
  // level's own parameter there (its factories read it), so it reaches
  // init too.
  if (*applied && key != "episodeLengthSeconds" && key != "players") return absl::OkStatus();
  auto existing = std::find_if(s.settings.begin(), s.settings.end(),
                               [&](const auto& setting) { return setting.first == key; });
  if (existing != s.settings.end()) {
    existing->second = std::string(value);
  } else {
    s.settings.emplace_back(std::string(key), std::string(value));
  }
  return absl::OkStatus();
}

absl::Status Engine::SetLevelCache(LevelCache cache) {
  State& s = *state_;
  if (s.script != nullptr) {
    return absl::FailedPreconditionError("the level cache after init: give it before init");
  }
  s.level_cache = std::move(cache);
  s.host->SetLevelCache(&s.level_cache);
  return absl::OkStatus();
}

// The host setting: the level runs on host `name` rather than the one it
// names, before any setting has gone to a host.
absl::Status Engine::SetHost(absl::string_view name) {
  State& s = *state_;
  if (s.host_configured) {
    return absl::FailedPreconditionError(
        "setting 'host' after settings that went to the host: give it first");
  }
  absl::StatusOr<std::unique_ptr<Host>> host = CreateHost(name);
  if (!host.ok()) return absl::Status(host.status().code(), absl::StrCat("setting 'host': ",
                                                                          host.status().message()));
  s.host = *std::move(host);
  if (s.level_cache.fetch) s.host->SetLevelCache(&s.level_cache);
  s.level.host = std::string(name);
  s.discrete_specs = s.host->DiscreteActions();
  s.continuous_specs = s.host->ContinuousActions();
  return absl::OkStatus();
}

absl::Status Engine::Init() {
  State& s = *state_;
  if (s.script != nullptr) return absl::FailedPreconditionError("init was already called");
  if (absl::Status status = s.observations.OpenDevice(s.plugin); !status.ok()) return status;
  const int players = s.plugin.players;
  if (players > s.host->max_players()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "setting 'players' is ", players, ", but the host '", s.level.host, "' carries at most ",
        s.host->max_players(), s.host->max_players() == 1 ? " player" : " players"));
  }
  s.host->SetPlayers(players);
  s.pending_rewards.assign(players, 0.0);
  s.rewards.assign(players, 0.0);
  s.statuses.assign(players, PlayerStatus::kRunning);
  const LevelLimits limits =
      ResolveLimits(s.plugin.limits, /*from_path=*/!s.level.builtin);
  s.event_log.set_bytes_per_step(limits.tensors.memory_bytes);
  absl::StatusOr<std::unique_ptr<LevelScript>> script = LevelScript::Load(
      s.level.source, s.level.chunk_name, s.paths(), limits,
      [&](lua_State* L) {
        lua_api::SetSeedMixer(L, s.plugin.mixer_seed);
        RegisterPlayersModule(L, &s);
        s.host->RegisterModules(L, s);
      },
      &s.event_log);
  if (!script.ok()) return script.status();
  // The host calls the level through `s` from here on.
  s.script = *std::move(script);
  absl::Status ready = [&] {
    if (absl::Status status = s.script->Init(s.settings); !status.ok()) return status;
    s.host->SetMixerSeed(s.plugin.mixer_seed);
    if (absl::Status status = s.host->Init(s); !status.ok()) return status;
    absl::StatusOr<std::vector<ObservationSpec>> custom = s.script->CustomObservationSpecs();
    if (!custom.ok()) return custom.status();
    const int frame_index = s.host->frame_observation();
    absl::StatusOr<ObservationSpecs> merged =
        ObservationSpecs::Merge(s.host->ObservationSpecs(), frame_index, players, *custom);
    if (!merged.ok()) return merged.status();
    absl::Status specs = s.observations.SetSpecs(*std::move(merged), frame_index, players);
    if (!specs.ok()) return specs;
    s.discrete_specs = s.host->DiscreteActions();
    s.continuous_specs = s.host->ContinuousActions();
    s.discrete.assign(s.discrete_specs.size(), 0);
    s.continuous.assign(s.continuous_specs.size(), 0.0);
    // The setting wins over the level's own length.
    double length_seconds = s.plugin.episode_length_seconds;
    if (length_seconds == 0) {
      absl::StatusOr<double> level_length = s.script->EpisodeLengthSeconds();
      if (!level_length.ok()) return level_length.status();
      length_seconds = *level_length;
    }
    // The last step that starts within the limit ends the episode.
    s.episode_length_frames =
        static_cast<std::int64_t>(std::ceil(length_seconds * s.host->fps() - 1e-9));
    return absl::OkStatus();
  }();
  if (!ready.ok()) s.script = nullptr;
  return ready;
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
  std::fill(s.discrete.begin(), s.discrete.end(), 0);
  std::fill(s.continuous.begin(), s.continuous.end(), 0.0);
  s.episode_frames = 0;
  std::fill(s.pending_rewards.begin(), s.pending_rewards.end(), 0.0);
  std::fill(s.statuses.begin(), s.statuses.end(), PlayerStatus::kRunning);
  s.ended_by_host.reset();
  if (absl::Status status = s.script->Start(episode, s.host->LevelSeed(seed)); !status.ok()) {
    return status;
  }
  if (absl::Status status = s.host->Start(s, seed); !status.ok()) return status;
  s.ActOnHost();
  if (absl::Status status = s.RenderFrame(); !status.ok()) return status;
  s.started = true;
  s.episode_over = false;
  return absl::OkStatus();
}

const std::vector<ObservationSpec>& Engine::observation_specs() const {
  return state_->observations.specs();
}

absl::StatusOr<ObservationValue> Engine::Observation(int index) {
  if (absl::Status started = state_->CheckStarted(); !started.ok()) return started;
  return state_->observations.Read(index, *state_);
}

absl::StatusOr<ObservationValue> Engine::SteadyObservation(int index) {
  if (absl::Status started = state_->CheckStarted(); !started.ok()) return started;
  return state_->observations.Steady(index, *state_);
}

absl::StatusOr<ObservationValue> Engine::RetainObservation(int index) {
  if (absl::Status started = state_->CheckStarted(); !started.ok()) return started;
  return state_->observations.Retain(index, *state_);
}

const std::vector<DiscreteActionSpec>& Engine::discrete_actions() const {
  return state_->discrete_specs;
}
const std::vector<ContinuousActionSpec>& Engine::continuous_actions() const {
  return state_->continuous_specs;
}

void Engine::Act(absl::Span<const int> discrete) {
  State& s = *state_;
  for (std::size_t i = 0; i < s.discrete.size(); ++i) {
    const int value = i < discrete.size() ? discrete[i] : 0;
    s.discrete[i] = std::clamp(value, s.discrete_specs[i].min, s.discrete_specs[i].max);
  }
  s.ActOnHost();
}

absl::Status Engine::ActContinuous(absl::Span<const double> continuous) {
  State& s = *state_;
  for (std::size_t i = 0; i < continuous.size() && i < s.continuous.size(); ++i) {
    if (!std::isfinite(continuous[i])) {
      return absl::InvalidArgumentError(absl::StrCat("continuous action ", i, " ('",
                                                     s.continuous_specs[i].name, "') is ",
                                                     continuous[i], ", not a finite number"));
    }
  }
  for (std::size_t i = 0; i < s.continuous.size(); ++i) {
    const double value = i < continuous.size() ? continuous[i] : 0.0;
    s.continuous[i] = std::clamp(value, s.continuous_specs[i].min, s.continuous_specs[i].max);
    if (s.continuous[i] != value) ++s.clamped_actions;
  }
  s.ActOnHost();
  return absl::OkStatus();
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
  EpisodeStatus status = EpisodeStatus::kRunning;
  for (int step = 0; step < num_steps && status == EpisodeStatus::kRunning; ++step) {
    if (absl::Status stepped = s.host->Step(s); !stepped.ok()) return stepped;
    ++s.episode_frames;
    ++s.steps;
    absl::StatusOr<std::optional<EpisodeEnd>> finished = std::optional<EpisodeEnd>();
    if (!s.host->AsksEpisodeEnd()) finished = s.script->HasEpisodeFinished(s.EpisodeTimeSeconds());
    if (!finished.ok()) return finished.status();
    // Everything the callbacks of this frame scored is its reward.
    s.CountRewards(reward);
    // The host's end first, then the level's, then every player's, then
    // the time limit.
    std::optional<EpisodeEnd> end = s.ended_by_host ? s.ended_by_host : *finished;
    if (!end) end = s.EveryPlayerFinished();
    s.ended_by_host.reset();
    if (end) {
      status = *end == EpisodeEnd::kTerminated ? EpisodeStatus::kTerminated
                                               : EpisodeStatus::kInterrupted;
    } else if (s.episode_length_frames > 0 && s.episode_frames >= s.episode_length_frames) {
      status = EpisodeStatus::kInterrupted;
    }
  }
  if (absl::Status rendered = s.RenderFrame(); !rendered.ok()) return rendered;
  s.CountRewards(reward);  // scored while rendering (observeFrame)
  s.started = true;
  s.episode_over = status != EpisodeStatus::kRunning;
  return status;
}

const std::vector<std::string>& Engine::event_type_names() const {
  return state_->event_log.type_names();
}
const std::vector<Event>& Engine::events() const { return state_->event_log.events(); }

namespace {

// The engine's read-only properties: the plugin's, then the host's.
void ListEngineProperties(const Engine& engine, std::int64_t steps, int buffers,
                          absl::FunctionRef<void(absl::string_view, const std::string&)> visit) {
  visit("engine.host", engine.host_name());
  visit("engine.episodeTimeSeconds", absl::StrCat(engine.episode_time_seconds()));
  visit("engine.steps", absl::StrCat(steps));
  visit("engine.frameBuffersAllocated", absl::StrCat(buffers));
  visit("engine.clampedActions", absl::StrCat(engine.clamped_actions()));
  engine.host().ListProperties([&](absl::string_view key, const std::string& value) {
    visit(absl::StrCat("engine.", key), value);
  });
}

std::optional<std::string> EngineProperty(const Engine& engine, absl::string_view key,
                                          std::int64_t steps) {
  std::optional<std::string> found;
  ListEngineProperties(engine, steps, engine.frame_buffers_allocated(),
                       [&](absl::string_view name, const std::string& value) {
                         if (name == key) found = value;
                       });
  return found;
}

bool IsEngineKey(absl::string_view key) {
  return key == "engine" || absl::StartsWith(key, "engine.");
}

}  // namespace

absl::StatusOr<PropertyResult> Engine::ReadProperty(absl::string_view key, std::string* value) {
  const State& s = *state_;
  if (IsEngineKey(key)) {
    // The list itself is not readable, as in DeepMind Lab.
    if (key == "engine") return PropertyResult::kPermissionDenied;
    std::optional<std::string> found = EngineProperty(*this, key, s.steps);
    if (!found) return PropertyResult::kNotFound;
    *value = *std::move(found);
    return PropertyResult::kSuccess;
  }
  if (s.script == nullptr) return PropertyResult::kNotFound;
  return s.script->ReadProperty(key, value);
}

absl::StatusOr<PropertyResult> Engine::WriteProperty(absl::string_view key,
                                                     absl::string_view value) {
  const State& s = *state_;
  if (IsEngineKey(key)) {
    // Every engine property is read-only, and so is the list of them.
    return key == "engine" || EngineProperty(*this, key, s.steps)
               ? PropertyResult::kPermissionDenied
               : PropertyResult::kNotFound;
  }
  if (s.script == nullptr) return PropertyResult::kNotFound;
  return s.script->WriteProperty(key, value);
}

absl::StatusOr<PropertyResult> Engine::ListProperty(
    absl::string_view key, absl::FunctionRef<void(absl::string_view, int)> visit) {
  const State& s = *state_;
  if (key == "engine") {
    ListEngineProperties(*this, s.steps, frame_buffers_allocated(),
                         [&](absl::string_view name, const std::string&) {
                           visit(name, kReadable);
                         });
    return PropertyResult::kSuccess;
  }
  if (IsEngineKey(key)) {
    // An engine property is a value, not a list.
    return EngineProperty(*this, key, s.steps) ? PropertyResult::kPermissionDenied
                                               : PropertyResult::kNotFound;
  }
  if (key.empty()) visit("engine", kListable);
  if (s.script == nullptr) return key.empty() ? PropertyResult::kSuccess : PropertyResult::kNotFound;
  absl::StatusOr<PropertyResult> listed = s.script->ListProperty(key, visit);
  // The root always lists (the engine's tree at least).
  if (listed.ok() && key.empty()) return PropertyResult::kSuccess;
  return listed;
}

int Engine::fps() const { return state_->host->fps(); }
int Engine::players() const { return state_->plugin.players; }
double Engine::episode_time_seconds() const { return state_->EpisodeTimeSeconds(); }
const Host& Engine::host() const { return *state_->host; }
HostTools* Engine::host_tools() { return state_->host->tools(); }
const std::string& Engine::host_name() const { return state_->level.host; }
std::int64_t Engine::clamped_actions() const { return state_->clamped_actions; }

int Engine::frame_buffers_allocated() const {
  return state_->observations.buffers_allocated();
}

absl::Status Engine::SetFrameTarget(std::uint8_t* pixels, std::size_t bytes) {
  State& s = *state_;
  if (s.script == nullptr) return absl::FailedPreconditionError("call init before SetFrameTarget");
  return s.observations.SetFrameTarget(pixels, bytes, s.level.host);
}

}  // namespace engine_plugin
