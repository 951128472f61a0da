// Context: the level runtime's side of DeepMind Lab's engine: the 85 hooks
// the engine calls (dmlab_abi.h's DmlabHooks), answered by the plugin's
// level (engine_plugin::Level) where DeepMind Lab's own context would ask
// its Lua VM. The level's callbacks keep DeepMind Lab's names and
// arguments (api:nextMap(), api:updateSpawnVars(vars), api:createPickup(
// classname), api:canPickup(id, playerId), api:pickup(id, playerId),
// api:rewardOverride{...}, api:modifyControl(actions), api:playerMover{...},
// the texture, trigger, screen and custom action callbacks: docs/dmlab.md)
// and run under the plugin's sandbox, watchdog and budgets, as every
// host's do.
//
// What DeepMind Lab's context does and this one leaves to the plugin:
// api:init, api:start, custom observations, events and properties are the
// plugin's (engine.h), so their hooks answer "none" to the engine.
// api:hasEpisodeFinished is asked by the engine after each frame, so that
// it runs its closing frame, whose rewards count, as under DeepMind's
// context; the plugin does not ask again (Host::AsksEpisodeEnd). Hooks
// without a level (outside the host's calls) answer the engine's defaults.
//
// Maps: a map the level names is a compiled map (.bsp) of the runfiles, a
// pk3 the map maker made in the engine's home, or a source map (.map) in
// baselab/maps/ (the bots' navigation compiled too) or baselab/maps_no_ai/
// of the home or the runfiles, which is compiled as the engine's
// make_pk3_from_map would, but before the engine looks, so that a map that
// fails to compile is an error of the start (context_maps.cc).
//
// Players: game events, inventories, teams, player models and new clients
// go to the level's callbacks of DeepMind Lab's names (context_players.cc).
//
// Models: api:createModel(name) builds one the engine cannot find as a
// file, api:replaceModelName(name) renames any (context_models.cc);
// model:loadMD3 and model:saveMD3 reach the engine's file system through
// model_files().
//
// Entities a level adds: api:extraEntities() at map load,
// pickups_spawn:spawn{...} (pickups_spawn_module.h) during play, each a
// table of spawn variables (spawn_vars.h); api:registerDynamicItems()
// names the pickups the map lacks that spawns may make.
//
// Errors: most hooks have no way to report one to the engine (a void or
// bool result). A failed level callback is recorded (TakeError) and the
// hook answers the engine's default; the host returns the error from the
// start or step in which it happened (dmlab_host.h). The first error wins.
#ifndef HOSTS_DMLAB_CONTEXT_H_
#define HOSTS_DMLAB_CONTEXT_H_

#include <array>
#include <filesystem>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "engine_plugin/host.h"
#include "engine_plugin/model/model.h"
#include "engine_plugin/model/model_module.h"
#include "hosts/dmlab/dmlab_abi.h"
#include "hosts/dmlab/map_compiler.h"
#include "hosts/dmlab/spawn_vars.h"

namespace hosts::dmlab {

// The player's pose the engine reports every frame (player_state), in
// DeepMind Lab's units: game units, degrees, Quake's pitch.
struct PlayerState {
  std::array<float, 3> origin{};
  std::array<float, 3> velocity{};
  std::array<float, 3> angles{};
  std::array<float, 3> angles_velocity{};  // degrees per second
  std::array<float, 3> eye{};
  float height = 0;
  int team_score = 0;
  int other_team_score = 0;
  int player_id = 0;  // the engine's, 0-based
  // The engine's teleport bit, which flips at each teleport; teleported:
  // whether it flipped since the state before (DeepMind Lab's playerInfo).
  bool teleport_flip = false;
  bool teleported = false;
  int timestamp_msec = 0;
};

// A pickup the level defined with api:createPickup (DeepMind Lab's
// common.pickups tables).
struct PickupItem {
  std::string name;
  std::string class_name;
  std::string model_name;
  int quantity = 0;
  int type = 0;
  int tag = 0;
  int move_type = 0;
};

// An entity the engine reports each frame (entities.add), for
// dmlab.system.game_entities.
struct Entity {
  int entity_id = 0;  // the engine's, 0-based
  int user_id = 0;
  int type = 0;
  int flags = 0;
  std::array<float, 3> position{};
  std::string class_name;
};

// The camera of game:renderCustomView, which the engine asks for
// (custom_view) while it renders that view.
struct CustomView {
  int width = 0;
  int height = 0;
  std::array<float, 3> position{};
  std::array<float, 3> angles{};
  bool render_player = true;
};

// A line of text the level draws over the frame (api:screenMessages).
struct ScreenMessage {
  std::string text;
  int x = 0;
  int y = 0;
  int alignment = 0;  // 0 left, 1 right, 2 centre
  bool shadow = true;
  std::array<float, 4> rgba = {1, 1, 1, 1};
};

// A rectangle the level fills over the frame (api:filledRectangles).
struct FilledRectangle {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
  std::array<float, 4> rgba{};
};

// A player's inventory as the engine reports it (update_inventory): the
// amounts and stats the level may change; the lists are the engine's.
struct Inventory {
  bool spawning = false;
  bool bot = false;
  int player_id = 0;  // the engine's, 0-based
  int* amounts = nullptr;
  int amount_count = 0;
  const int* persistents = nullptr;
  int persistent_count = 0;
  int* stats = nullptr;
  int stat_count = 0;
  const int* powerups = nullptr;
  int powerup_count = 0;
  int gadget = 0;  // the engine's, 0-based
  float height = 0;
  const float* position = nullptr;
  const float* velocity = nullptr;
  const float* angles = nullptr;
};

// One of the level's own discrete actions (api:customDiscreteActionSpec).
struct CustomAction {
  std::string name;
  int min = 0;
  int max = 0;
};

struct Actions {
  double look_down_up = 0;
  double look_left_right = 0;
  signed char move_back_forward = 0;
  signed char strafe_left_right = 0;
  signed char crouch_jump = 0;
  int buttons_down = 0;
};

class Context {
 public:
  Context() = default;

  // The hook table: every entry set; each takes the Context as userdata.
  static const DmlabHooks& Hooks();

  // The level whose callbacks the hooks run; null outside the host's
  // calls into the engine (a hook then answers the engine's default).
  void Attach(engine_plugin::Level* level) { level_ = level; }
  // The engine's context record, once dmlab_create_context has run.
  void Connected(DmlabContext* engine) { engine_ = engine; }
  const DmlabCalls* calls() const { return engine_ == nullptr ? nullptr : &engine_->calls; }
  void* engine_context() const { return engine_ == nullptr ? nullptr : engine_->engine; }

  // The first error a hook recorded since the last TakeError, cleared.
  absl::Status TakeError();
  // The engine's own error (set_error_message), for a failed EnvCApi call.
  const std::string& engine_error() const { return engine_error_; }

  const PlayerState& player() const { return player_; }
  bool has_player() const { return has_player_; }
  // game:finishMap(): the engine loads api:nextMap() before the next frame.
  void FinishMap() { map_finished_ = true; }
  // game:console(command): checked (console_commands.h) and queued, as
  // DeepMind's context queues it, for the engine's issue_console_commands
  // (its client's input, once a frame): never run from inside a callback.
  // At most kMaxPendingConsoleCommands wait; "" or why not.
  std::string QueueConsoleCommand(const std::string& command);
  void IssueConsoleCommands();
  // The engine's writable folder (its fs_homepath).
  const std::string& temp_folder() const { return temp_folder_; }
  void set_temp_folder(std::string folder) { temp_folder_ = std::move(folder); }
  // The engine's runfiles (baselab/maps/ holds the compiled maps).
  void set_runfiles(std::string runfiles) { runfiles_ = std::move(runfiles); }
  const std::string& runfiles() const { return runfiles_; }
  // Where the engine's q3map2 and bspc are (beside its library).
  void set_tools_folder(std::string folder) { tools_folder_ = std::move(folder); }
  const std::string& tools_folder() const { return tools_folder_; }
  // The engine's q3map2 and bspc, and the runfiles they read.
  MapTools map_tools() const;
  // The first compiled map of the runfiles, by name ("" if none).
  std::string AnyMap() const;

  // The hooks (DmlabHooks' members, by the same names).
  void AddScore(int player_id, double reward);
  const char* ReplaceCommandLine(const char* command_line);
  int GameType();
  const char* NextMap();
  // make_pk3_from_map: compiles `map_path` (relative to the engine's home
  // or runfiles, where its make_map found it) into <home>/baselab/
  // `map_name`.pk3; an error is recorded.
  void MakePk3FromMap(const char* map_path, const char* map_name, bool bots);
  int MapLoaded();
  bool MapFinished() const { return map_finished_; }
  void SetMapFinished(bool finished) { map_finished_ = finished; }
  void SetActions(const Actions& actions) { actions_ = actions; }
  Actions GetActions();
  // The engine's init: reads api:customDiscreteActionSpec; 1 on an error.
  int ReadCustomActions();
  const std::vector<CustomAction>& custom_actions() const { return custom_actions_; }
  // Calls api:customDiscreteActions{...} with the custom actions' values.
  void ApplyCustomActions(const int* actions);
  // api:playerMover{moverId, moverPos, playerPos, playerVel}: the changes
  // to the player's position and velocity a mover makes (zero without).
  void MovePlayer(int mover_id, const float mover_position[3], const float player_position[3],
                  const float player_velocity[3], float position_delta[3],
                  float velocity_delta[3]);
  int UpdateSpawnVars(char* chars, int* num_chars, int offsets[][2], int* num_vars);
  bool FindItem(const char* class_name, int* index);
  int ItemCount() const { return static_cast<int>(items_.size()); }
  bool Item(int index, char* item_name, int max_item_name, char* class_name, int max_class_name,
            char* model_name, int max_model_name, int* quantity, int* type, int* tag,
            int* move_type);
  void ClearItems() { items_.clear(); }
  // api:extraEntities(): the entities it returns, kept for ReadExtraEntity.
  int MakeExtraEntities();
  void ReadExtraEntity(int index, char* chars, int* num_chars, int offsets[][2], int* num_vars);
  // api:registerDynamicItems(): the class names it returns, kept for
  // ReadDynamicItemName, which writes one into the engine's 256 bytes.
  int RegisterDynamicItems();
  void ReadDynamicItemName(int index, char* name);
  // The engine's game module holds 958 entities (1024 slots, less its 64
  // clients' and two of its own) and ends the process when it needs one
  // more. The map's entities it kept, the level's extra entities and the
  // entities it spawned since the map loaded may take kMaxLevelEntities;
  // the rest is the engine's own (doors' triggers, events, bots' bodies).
  static constexpr int kMaxLevelEntities = 768;
  // pickups_spawn:spawn{...}: an entity the engine spawns at its next
  // frame, within kMaxLevelEntities (an error beyond).
  absl::Status SpawnDynamicEntity(SpawnVars vars);
  int DynamicSpawnEntityCount() const { return static_cast<int>(pending_spawns_.size()); }
  void ReadDynamicSpawnEntity(int index, char* chars, int* num_chars, int offsets[][2],
                              int* num_vars);
  void ClearDynamicSpawnEntities() { pending_spawns_.clear(); }
  bool CanPickup(int entity_id, int player_id);
  bool OverridePickup(int entity_id, int* respawn, int player_id);
  bool CanTrigger(int entity_id, const char* target_name, int player_id);
  bool OverrideTrigger(int entity_id, const char* target_name, int player_id);
  void TriggerLookat(int entity_id, bool looked_at, const float position[3], int player_id);
  int RewardOverride(const char* reason, int player_id, int team, const int* other_player_id,
                     const float* origin, int score);
  // The engine's start: seeds the engine's generator with the episode's
  // seed. Its first draw was the level's seed (LevelSeed), as DeepMind
  // Lab's context draws it for api:start; make_random_seed draws the rest.
  void Start(int seed);
  int LevelSeed(int seed) const;
  // DeepMind Lab's mixerSeed: the engine's generator is seeded with
  // seed ^ (mixer << 32).
  void SetMixerSeed(std::uint32_t mixer) { mixer_ = mixer; }
  int MakeRandomSeed();
  bool HasEpisodeFinished(double episode_time_seconds);
  // How the level last said its episode ended (hasEpisodeFinished: true
  // or 'terminated', 'truncated'), cleared; nullopt if it has not.
  std::optional<engine_plugin::EpisodeEnd> TakeEpisodeEnd() {
    return std::exchange(episode_end_, {});
  }
  void AddBots();
  // The engine's player_state: asked more than once a frame, it keeps the
  // first report of a timestamp, as DeepMind Lab's context does. The
  // engine reports again as it renders the frame, stamped with the next
  // frame's time, so the next frame's own report is ignored and the level
  // sees each frame's state one frame late during the frame (in
  // hasEpisodeFinished), as DeepMind Lab's levels do when their frame is
  // read every step (this host reads it every step).
  void PlayerStateUpdate(const PlayerState& state);
  void SetEngineError(const char* message) { engine_error_ = message == nullptr ? "" : message; }
  const char* ErrorMessage();
  int MakeScreenMessages(int width, int height, int line_height, int buffer_size);
  void GetScreenMessage(int id, char* buffer, int* x, int* y, int* alignment, int* shadow,
                        float rgba[4]) const;
  int MakeFilledRectangles(int width, int height);
  void GetFilledRectangle(int id, int* x, int* y, int* width, int* height, float rgba[4]) const;
  bool ReplaceTextureName(const char* name, char* new_name, int max_size);
  bool LoadTexture(const char* name, unsigned char** pixels, int* width, int* height,
                   void* (*allocator)(int size));
  bool ModifyRgbaTexture(const char* name, unsigned char* data, int width, int height);
  void SetCustomView(const CustomView& view) { custom_view_ = view; }
  const CustomView& custom_view() const { return custom_view_; }
  // api:createModel(name): whether the level built a model, kept for the
  // engine's GetModelGetters until ClearModel.
  bool FindModel(const char* name);
  void GetModelGetters(DmlabModelGetters* getters, void** model_data);
  void ClearModel() { model_.reset(); }
  bool ReplaceModelName(const char* name, char* new_name, int new_name_size,
                        char* texture_prefix, int texture_prefix_size);
  // The player hooks (context_players.cc).
  void GameEvent(const char* name, int count, const float* values);
  void UpdateInventory(const Inventory& inventory);
  char TeamSelect(int player_id, const char* player_name);
  bool UpdatePlayerInfo(int player_id, char* info, int info_size);
  void NewClientInfo(int player_id, const char* player_name, const char* player_model);
  // The hasAltCameras setting, as the engine reports it: its server then
  // sends every entity to the client, for the views of other cameras.
  void SetHasAltCameras(bool has) { has_alt_cameras_ = has; }
  bool HasAltCameras() const { return has_alt_cameras_; }
  // The caller's cache of compiled maps, or null (engine_plugin::LevelCache).
  void set_level_cache(const engine_plugin::LevelCache* cache) { level_cache_ = cache; }
  const engine_plugin::LevelCache* level_cache() const { return level_cache_; }
  // dmlab.system.model's loadMD3 and saveMD3: the engine's model files.
  engine_plugin::model::ModelFiles* model_files() { return &model_files_; }
  void ClearEntities() { entities_.clear(); }
  void AddEntity(Entity entity) { entities_.push_back(std::move(entity)); }
  const std::vector<Entity>& entities() const { return entities_; }

 private:
  // The engine's load_model and save_model, on paths of its file system.
  class EngineModelFiles : public engine_plugin::model::ModelFiles {
   public:
    explicit EngineModelFiles(Context* context) : context_(context) {}
    std::string Load(const std::string& path, engine_plugin::model::Model* out) override;
    std::string Save(const engine_plugin::model::Model& model, const std::string& path) override;

   private:
    Context* context_;
  };

  // "" when the engine can load map `name`, else why not: the engine
  // ends the process (exit) on a map it cannot find. A source map (.map)
  // is compiled here (context_maps.cc).
  std::string PrepareMap(const std::string& name);
  // Compiles the source map at `source` into <home>/baselab/`name`.pk3.
  absl::Status CompileSource(const std::filesystem::path& source, const std::string& name,
                             bool bots);
  // Records `status` unless an error is already pending.
  void Record(absl::Status status);
  // Calls api:<name> if the level and the callback exist: Level::Call,
  // with the error recorded. False when nothing was called.
  bool CallLevel(const char* name, int num_results, absl::FunctionRef<int(lua_State*)> push,
                 absl::FunctionRef<absl::Status(lua_State*, int)> read);

  engine_plugin::Level* level_ = nullptr;
  DmlabContext* engine_ = nullptr;
  std::string temp_folder_;
  std::string runfiles_;
  std::string tools_folder_;
  absl::Status error_;
  std::string engine_error_;
  std::string error_message_;  // what ErrorMessage() last returned
  std::string command_line_;
  std::string map_name_;
  // The brush models ("*N") of the loaded map's entities, as the engine
  // reported them (update_spawn_vars): the ones a level's entity may use.
  std::set<std::string> brush_models_;
  // The loaded map's entities the engine kept, and those the level added
  // (extra entities and spawns) since it loaded: within kMaxLevelEntities.
  int map_entities_ = 0;
  int level_entities_ = 0;
  bool map_finished_ = false;
  std::vector<std::string> console_commands_;  // game:console's, not yet issued
  std::optional<engine_plugin::EpisodeEnd> episode_end_;
  bool engine_map_loaded_ = false;  // the engine has a map loaded
  bool level_map_loaded_ = false;   // ... and it is one the level named
  Actions actions_;
  std::vector<PickupItem> items_;
  std::vector<SpawnVars> extra_entities_;
  std::vector<std::string> dynamic_items_;
  std::vector<SpawnVars> pending_spawns_;
  std::vector<CustomAction> custom_actions_;
  std::vector<double> player_rewards_;  // game:addScore's, not yet given
  PlayerState player_;
  bool has_player_ = false;
  std::vector<Entity> entities_;
  CustomView custom_view_;
  std::vector<ScreenMessage> screen_messages_;
  int screen_message_bytes_ = 0;  // the engine's buffer for one message
  std::vector<FilledRectangle> rectangles_;
  std::optional<engine_plugin::model::Model> model_;  // createModel's, until ClearModel
  EngineModelFiles model_files_{this};
  bool has_alt_cameras_ = false;
  const engine_plugin::LevelCache* level_cache_ = nullptr;
  // The engine's generator: make_random_seed, seeded by each start as
  // DeepMind Lab's context seeds its own.
  std::mt19937_64 prbg_;
  std::uint32_t mixer_ = 0;
};

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_CONTEXT_H_
