// Context::Hooks(): the 85 entries of DmlabHooks, each a function of the
// engine's signature over the Context in its userdata. Those the plugin
// answers (init, start's level call, episode ends, custom observations,
// events, properties) and those with nothing to do here (run_lua_snippet,
// which the engine never calls; native_app, as this host renders off
// screen) answer what DeepMind Lab's engine takes for "the level has no
// such callback".

#include "hosts/dmlab/context.h"

namespace hosts::dmlab {
namespace {

Context& Of(void* userdata) { return *static_cast<Context*>(userdata); }

DmlabHooks MakeHooks() {
  DmlabHooks h{};
  // Configuration: the plugin holds the settings and the level's name.
  h.add_setting = [](void*, const char*, const char*) {};
  h.set_level_cache_settings = [](void*, bool, bool, DmlabLevelCacheParams) {};
  h.set_level_name = [](void*, const char*) {};
  h.set_level_directory = [](void*, const char*) {};
  h.set_executable_runfiles = [](void*, const char*) {};
  h.get_temporary_folder = [](void* u) { return Of(u).temp_folder().c_str(); };
  // The plugin loaded the level and ran its init before the engine's init;
  // the engine's reads the level's own actions.
  h.init = [](void* u) { return Of(u).ReadCustomActions(); };
  // The plugin called api:start; the engine's generator is seeded here.
  h.start = [](void* u, int, int seed) {
    Of(u).Start(seed);
    return 0;
  };
  h.map_loaded = [](void* u) { return Of(u).MapLoaded(); };
  h.replace_command_line = [](void* u, const char* line) { return Of(u).ReplaceCommandLine(line); };
  h.next_map = [](void* u) { return Of(u).NextMap(); };
  h.game_type = [](void* u) { return Of(u).GameType(); };
  h.run_lua_snippet = [](void*, const char*) { return 0; };
  h.set_native_app = [](void*, bool) {};
  h.get_native_app = [](void*) { return false; };
  h.set_mixer_seed = [](void* u, int mixer) { Of(u).SetMixerSeed(static_cast<std::uint32_t>(mixer)); };
  h.set_actions = [](void* u, double look_down_up, double look_left_right, signed char move,
                     signed char strafe, signed char crouch_jump, int buttons) {
    Of(u).SetActions({look_down_up, look_left_right, move, strafe, crouch_jump, buttons});
  };
  h.get_actions = [](void* u, double* look_down_up, double* look_left_right, signed char* move,
                     signed char* strafe, signed char* crouch_jump, int* buttons) {
    const Actions a = Of(u).GetActions();
    *look_down_up = a.look_down_up;
    *look_left_right = a.look_left_right;
    *move = a.move_back_forward;
    *strafe = a.strafe_left_right;
    *crouch_jump = a.crouch_jump;
    *buttons = a.buttons_down;
  };
  h.issue_console_commands = [](void* u) { Of(u).IssueConsoleCommands(); };
  h.find_model = [](void* u, const char* name) { return Of(u).FindModel(name); };
  h.model_getters = [](void* u, DmlabModelGetters* getters, void** model_data) {
    Of(u).GetModelGetters(getters, model_data);
  };
  h.clear_model = [](void* u) { Of(u).ClearModel(); };
  h.map_finished = [](void* u) { return Of(u).MapFinished(); };
  h.set_map_finished = [](void* u, bool finished) { Of(u).SetMapFinished(finished); };
  h.can_pickup = [](void* u, int id, int player) { return Of(u).CanPickup(id, player); };
  h.override_pickup = [](void* u, int id, int* respawn, int player) {
    return Of(u).OverridePickup(id, respawn, player);
  };
  h.can_trigger = [](void* u, int id, const char* target, int player) {
    return Of(u).CanTrigger(id, target, player);
  };
  h.override_trigger = [](void* u, int id, const char* target, int player) {
    return Of(u).OverrideTrigger(id, target, player);
  };
  h.trigger_lookat = [](void* u, int id, bool looked_at, const float position[3], int player) {
    Of(u).TriggerLookat(id, looked_at, position, player);
  };
  h.reward_override = [](void* u, const char* reason, int player, int team, const int* other,
                         const float* origin, int score) {
    return Of(u).RewardOverride(reason, player, team, other, origin, score);
  };
  h.add_score = [](void* u, int player, double reward) { Of(u).AddScore(player, reward); };
  h.make_random_seed = [](void* u) { return Of(u).MakeRandomSeed(); };
  h.has_episode_finished = [](void* u, double seconds) {
    return Of(u).HasEpisodeFinished(seconds) ? 1.0 : 0.0;
  };
  h.add_bots = [](void* u) { Of(u).AddBots(); };
  h.replace_texture_name = [](void* u, const char* name, char* new_name, int max_size) {
    return Of(u).ReplaceTextureName(name, new_name, max_size);
  };
  h.load_texture = [](void* u, const char* name, unsigned char** pixels, int* width, int* height,
                      void* (*allocator)(int)) {
    return Of(u).LoadTexture(name, pixels, width, height, allocator);
  };
  h.modify_rgba_texture = [](void* u, const char* name, unsigned char* data, int width,
                             int height) {
    return Of(u).ModifyRgbaTexture(name, data, width, height);
  };
  h.replace_model_name = [](void* u, const char* name, char* new_name, int new_name_size,
                            char* prefix, int prefix_size) {
    return Of(u).ReplaceModelName(name, new_name, new_name_size, prefix, prefix_size);
  };
  h.custom_action_discrete_count = [](void* u) {
    return static_cast<int>(Of(u).custom_actions().size());
  };
  h.custom_action_discrete_name = [](void* u, int i) {
    const auto& actions = Of(u).custom_actions();
    return i >= 0 && i < static_cast<int>(actions.size()) ? actions[i].name.c_str() : "";
  };
  h.custom_action_discrete_bounds = [](void* u, int i, int* min, int* max) {
    const auto& actions = Of(u).custom_actions();
    const bool known = i >= 0 && i < static_cast<int>(actions.size());
    *min = known ? actions[i].min : 0;
    *max = known ? actions[i].max : 0;
  };
  h.custom_action_discrete_apply = [](void* u, const int* actions) {
    Of(u).ApplyCustomActions(actions);
  };
  // The level's observations are the plugin's (observation_specs.h).
  h.custom_observation_count = [](void*) { return 0; };
  h.custom_observation_name = [](void*, int) { return ""; };
  h.custom_observation_spec = [](void*, int, DmlabObservationSpec* spec) { *spec = {}; };
  h.custom_observation = [](void*, int, DmlabObservation* observation) { *observation = {}; };
  h.player_state = [](void* u, const float origin[3], const float velocity[3],
                      const float view_angles[3], float height, const float eye[3],
                      int team_score, int other_team_score, int player_id, bool teleport_flip,
                      int timestamp_msec) {
    PlayerState s;
    for (int i = 0; i < 3; ++i) {
      s.origin[i] = origin[i];
      s.velocity[i] = velocity[i];
      s.angles[i] = view_angles[i];
      s.eye[i] = eye[i];
    }
    s.height = height;
    s.team_score = team_score;
    s.other_team_score = other_team_score;
    s.player_id = player_id;
    s.teleport_flip = teleport_flip;
    s.timestamp_msec = timestamp_msec;
    Of(u).PlayerStateUpdate(s);
  };
  h.make_screen_messages = [](void* u, int width, int height, int line_height, int bytes) {
    return Of(u).MakeScreenMessages(width, height, line_height, bytes);
  };
  h.get_screen_message = [](void* u, int id, char* buffer, int* x, int* y, int* alignment,
                            int* shadow, float rgba[4]) {
    Of(u).GetScreenMessage(id, buffer, x, y, alignment, shadow, rgba);
  };
  h.make_filled_rectangles = [](void* u, int width, int height) {
    return Of(u).MakeFilledRectangles(width, height);
  };
  h.get_filled_rectangle = [](void* u, int id, int* x, int* y, int* width, int* height,
                              float rgba[4]) {
    Of(u).GetFilledRectangle(id, x, y, width, height, rgba);
  };
  h.make_pk3_from_map = [](void* u, const char* map_path, const char* map_name, bool bots) {
    Of(u).MakePk3FromMap(map_path, map_name, bots);
  };
  h.lua_mover = [](void* u, int mover_id, const float mover_position[3],
                   const float player_position[3], const float player_velocity[3],
                   float position_delta[3], float velocity_delta[3]) {
    Of(u).MovePlayer(mover_id, mover_position, player_position, player_velocity, position_delta,
                     velocity_delta);
  };
  h.game_event = [](void* u, const char* name, int count, const float* values) {
    Of(u).GameEvent(name, count, values);
  };
  h.update_inventory = [](void* u, bool spawning, bool bot, int player, int amount_count,
                          int* amounts, int persistent_count, int* persistents, int stat_count,
                          int* stats, int powerup_count, int* powerups, int gadget, float height,
                          float* position, float* velocity, float* angles) {
    Of(u).UpdateInventory({spawning, bot, player, amounts, amount_count, persistents,
                           persistent_count, stats, stat_count, powerups, powerup_count, gadget,
                           height, position, velocity, angles});
  };
  h.team_select = [](void* u, int player, const char* name) { return Of(u).TeamSelect(player, name); };
  h.update_player_info = [](void* u, int player, char* info, int size) {
    return Of(u).UpdatePlayerInfo(player, info, size);
  };
  h.set_has_alt_cameras = [](void* u, bool has) { Of(u).SetHasAltCameras(has); };
  h.has_alt_cameras = [](void* u) { return Of(u).HasAltCameras(); };
  h.custom_view = [](void* u, int* width, int* height, float position[3], float angles[3],
                     bool* render_player) {
    const CustomView& view = Of(u).custom_view();
    *width = view.width;
    *height = view.height;
    for (int i = 0; i < 3; ++i) {
      position[i] = view.position[i];
      angles[i] = view.angles[i];
    }
    *render_player = view.render_player;
  };
  h.new_client_info = [](void* u, int player, const char* name, const char* model) {
    Of(u).NewClientInfo(player, name, model);
  };
  h.set_error_message = [](void* u, const char* message) { Of(u).SetEngineError(message); };
  h.error_message = [](void* u) { return Of(u).ErrorMessage(); };
  // Events are the plugin's (events_module.h).
  h.events.type_count = [](void*) { return 0; };
  h.events.type_name = [](void*, int) { return ""; };
  h.events.clear = [](void*) {};
  h.events.count = [](void*) { return 0; };
  h.events.export_event = [](void*, int, DmlabEvent* event) { *event = {}; };
  h.entities.clear = [](void* u) { Of(u).ClearEntities(); };
  h.entities.add = [](void* u, int entity_id, int user_id, int type, int flags,
                      float position[3], const char* class_name) {
    Of(u).AddEntity({entity_id, user_id, type, flags, {position[0], position[1], position[2]},
                     class_name == nullptr ? "" : class_name});
  };
  h.pickups.update_spawn_vars = [](void* u, char* chars, int* num_chars, int offsets[][2],
                                   int* num_vars) {
    return Of(u).UpdateSpawnVars(chars, num_chars, offsets, num_vars);
  };
  h.pickups.make_extra_entities = [](void* u) { return Of(u).MakeExtraEntities(); };
  h.pickups.read_extra_entity = [](void* u, int index, char* chars, int* num_chars,
                                   int offsets[][2], int* num_vars) {
    Of(u).ReadExtraEntity(index, chars, num_chars, offsets, num_vars);
  };
  h.pickups.find_item = [](void* u, const char* class_name, int* index) {
    return Of(u).FindItem(class_name, index);
  };
  h.pickups.item_count = [](void* u) { return Of(u).ItemCount(); };
  h.pickups.item = [](void* u, int index, char* name, int max_name, char* class_name,
                      int max_class_name, char* model, int max_model, int* quantity, int* type,
                      int* tag, int* move_type) {
    return Of(u).Item(index, name, max_name, class_name, max_class_name, model, max_model,
                      quantity, type, tag, move_type);
  };
  h.pickups.clear_items = [](void* u) { Of(u).ClearItems(); };
  h.pickups.dynamic_spawn_entity_count = [](void* u) { return Of(u).DynamicSpawnEntityCount(); };
  h.pickups.read_dynamic_spawn_entity = [](void* u, int index, char* chars, int* num_chars,
                                           int offsets[][2], int* num_vars) {
    Of(u).ReadDynamicSpawnEntity(index, chars, num_chars, offsets, num_vars);
  };
  h.pickups.clear_dynamic_spawn_entities = [](void* u) { Of(u).ClearDynamicSpawnEntities(); };
  h.pickups.register_dynamic_items = [](void* u) { return Of(u).RegisterDynamicItems(); };
  h.pickups.read_dynamic_item_name = [](void* u, int index, char* name) {
    Of(u).ReadDynamicItemName(index, name);
  };
  // Properties are the plugin's (level_properties.cc).
  h.properties.write = [](void*, const char*, const char*) { return DmlabProperty_NotFound; };
  h.properties.read = [](void*, const char*, const char**) { return DmlabProperty_NotFound; };
  h.properties.list = [](void*, void*, const char*, DmlabPropertyVisitor) {
    return DmlabProperty_NotFound;
  };
  return h;
}

}  // namespace

const DmlabHooks& Context::Hooks() {
  static const DmlabHooks hooks = MakeHooks();
  return hooks;
}

}  // namespace hosts::dmlab
