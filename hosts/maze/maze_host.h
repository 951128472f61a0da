// MazeHost: the maze, the reference host of the plugin (host.h).
//
// A level on the maze host returns its map from nextMap() (a text map, a
// map name, or a maze from dmlab.system.maze_generation); the player moves
// by DeepMind Lab's seven discrete actions, one frame per control step at
// the fps setting; a map's entities, its pickups and doors follow DeepMind
// Lab's spawn-entity model (spawn_entities.h: updateSpawnVars,
// createPickup, canPickup, pickup); each frame is rendered by the
// raycaster and lent, with its depth, to the level's observeFrame(rgb,
// depth).
//
// Settings: width and height (pixels, 1..4096, default 84), fps (1..1000,
// default 60). Observations: RGB_INTERLEAVED (the frame), RGBD_INTERLEAVED,
// DEBUG.POS.TRANS, DEBUG.POS.ROT, DEBUG.CAMERA.TOP_DOWN.
// Players: up to kMaxPlayers (the plugin's players setting), each at a
// spawn point of its own while there are enough, seen by the others as a
// figure in its colour (sprite_shapes.h PlayerColour), blocked by them,
// picking up for itself. With n > 1 the first four observations and the
// actions are each player's, named "1.RGB_INTERLEAVED", ...,
// "n.RGB_INTERLEAVED", "1.RGBD_INTERLEAVED", ... (the frames first, in
// player order), and DEBUG.CAMERA.TOP_DOWN shows them all; observeFrame's
// rgb and depth are then every player's, n x height x width (x 3). Lua modules:
// dmlab.system.game (game_module.h), dmlab.system.game_entities,
// dmlab.system.map_maker (whose maps nextMap() may name),
// dmlab.system.maze_generation. Actions: DeepMind Lab's seven, then the level's own
// (customDiscreteActionSpec); level_callbacks.h lists the other callbacks
// the host makes (pickups, triggers, modifyControl, addBots), and
// screen_overlay.h screenMessages and filledRectangles, texture_hooks.h
// the texture callbacks (replaceTextureName, loadTexture, modifyTexture)
// with which each map's surfaces are loaded.
// Properties: engine.fps, engine.width, engine.height.
//
// Registered as "maze", the host of every level that names none.
#ifndef HOSTS_MAZE_MAZE_HOST_H_
#define HOSTS_MAZE_MAZE_HOST_H_

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine_plugin/host.h"
#include "hosts/maze/game_module.h"
#include "hosts/maze/map_maker_module.h"
#include "hosts/maze/maze_tools.h"
#include "hosts/maze/raycaster.h"
#include "hosts/maze/spawn_entities.h"
#include "hosts/maze/texture_hooks.h"
#include "hosts/maze/world.h"
#include "lua_api/tensor/tensor_limits.h"

namespace hosts::maze {

// What nextMap() returned: the layers of a text map or a maze, or the name
// of a map file; and the entities map_maker's callback made for it.
struct MapText {
  std::string name;    // set when the level named a map file
  std::string entity;  // else the layers themselves
  std::string variations;
  std::vector<SpawnEntity> entities;
};

class MazeHost final : public engine_plugin::Host, public GameHost {
 public:
  // engine_plugin::Host
  absl::StatusOr<bool> SetSetting(absl::string_view key, absl::string_view value) override;
  void RegisterModules(lua_State* L, engine_plugin::Level& level) override;
  absl::Status Init(engine_plugin::Level& level) override;
  std::vector<engine_plugin::ObservationSpec> ObservationSpecs() const override;
  std::vector<engine_plugin::DiscreteActionSpec> DiscreteActions() const override;
  std::vector<engine_plugin::ContinuousActionSpec> ContinuousActions() const override;
  int fps() const override { return fps_; }
  int max_players() const override { return kMaxPlayers; }
  void SetPlayers(int players) override { players_ = players; }
  int frame_observation() const override { return 0; }
  void SetMixerSeed(std::uint32_t mixer) override { mixer_ = mixer; }
  absl::Status Start(engine_plugin::Level& level, std::uint64_t seed) override;
  void Act(absl::Span<const int> discrete, absl::Span<const double> continuous) override;
  absl::Status Step(engine_plugin::Level& level) override;
  absl::Status Render(engine_plugin::Level& level, const tensor::Tensor& frame) override;
  absl::StatusOr<engine_plugin::ObservationValue> Observe(
      int index, engine_plugin::ObservationBuffers& buffers) override;
  void ListProperties(
      absl::FunctionRef<void(absl::string_view, const std::string&)> visit) const override;
  // After Init (the frame rate is fixed by then).
  engine_plugin::HostTools* tools() override;

  // GameHost: the world of the current map; null before the first Start.
  const World* world() const override { return world_ ? &*world_ : nullptr; }
  int players() const override { return players_; }
  void AddScore(int player, double reward) override;
  void FinishMap() override { map_finished_ = true; }
  std::string Console(absl::string_view command) override;
  double EpisodeTimeSeconds() const override;
  int frame_width() const override { return width_; }
  int frame_height() const override { return height_; }
  absl::StatusOr<std::string> ReadLevelFile(const std::string& name) const override {
    return level_->ReadFile(name);
  }
  const Surfaces& surfaces() const override { return textures_.surfaces(); }
  std::string UpdateTexture(lua_State* L, absl::string_view name,
                            const tensor::Tensor& image) override {
    return textures_.Update(L, name, image);
  }

 private:
  absl::Status LoadMap(engine_plugin::Level& level);
  static constexpr int kMaxPlayers = 16;

  absl::Status Collect(engine_plugin::Level& level, Taken taken);
  // Where each player starts the map loaded: one of `spawns` each, apart
  // while there are enough.
  std::vector<WorldPoint> Starts(const std::vector<WorldPoint>& spawns);
  absl::Status FireTriggers(engine_plugin::Level& level);
  absl::Status ColourSkins(engine_plugin::Level& level, std::vector<Pickup>* pickups);
  void CloseDoors();
  void Teleport();

  int width_ = 84;
  int height_ = 84;
  int players_ = 1;
  std::vector<engine_plugin::ObservationSpec> specs_;  // from Init
  // Per spec, what it shows and of which player (from 0).
  struct Served {
    int kind;
    int player;
  };
  std::vector<Served> served_;
  int fps_ = 60;
  engine_plugin::Level* level_ = nullptr;  // from RegisterModules, for the game module
  lua_State* level_state_ = nullptr;       // from RegisterModules: charged for textures

  std::optional<World> world_;
  MadeMaps made_maps_;        // by dmlab.system.map_maker, for nextMap to name
  MapText loaded_;            // the map last loaded, for nextMap's '' (the same again)
  // The spawn variables updateSpawnVars returned for the map loaded last.
  lua_api::TensorMemoryCharge spawn_vars_charge_;
  SurfaceTextures textures_;  // the current map's, from the texture callbacks
  struct ArmedTrigger {
    DoorTrigger trigger;
    double next_time;  // map time (World::time) from which it may fire again
  };
  std::vector<ArmedTrigger> triggers_;   // of the current map's shut doors
  std::vector<Teleporter> teleporters_;  // of the current map
  // Doors open for a while: map time from which each closes, by cell.
  std::map<std::pair<int, int>, double> closing_;
  std::mt19937_64 spawn_random_;
  std::uint32_t mixer_ = 0;  // SetMixerSeed's
  std::vector<Actions> actions_;  // per player
  // The level's own discrete actions (customDiscreteActionSpec), after the
  // seven, and each player's values from the last Act (players x
  // actions), not yet applied if pending.
  std::vector<engine_plugin::DiscreteActionSpec> custom_specs_;
  std::vector<int> custom_values_;
  bool custom_pending_ = false;
  bool map_finished_ = false;
  // Per pickup, whether dm_pickup named it, for the next frame.
  std::vector<bool> console_pickups_;
  // The last frames rendered (every player's, in order): the plugin keeps
  // their buffer until the next step, and a Tensor held here would keep
  // the pool from recycling it.
  const std::uint8_t* frame_pixels_ = nullptr;
  std::vector<float> depth_;  // their depth, in cells
  std::vector<Figure> figures_;  // scratch for Render
  std::optional<MazeTools> tools_;  // made by the first tools()
};

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_MAZE_HOST_H_
