// A stand-in for DeepMind Lab's engine library, written here, so that the
// DeepMind Lab host is tested where no checkout is (CI): it exports
// dmlab_connect (EnvCApi 2.0) and links hosts/dmlab/context_link.c as the
// real library does, and calls the hooks in the order the real engine's
// dmlab_connect.c does:
//   connect: dmlab_create_context
//   init:    set_level_cache_settings, init
//   start:   events.clear, start(episode, seed); the first time
//            get_temporary_folder, game_type, replace_command_line; then
//            next_map (make_pk3_from_map for a map it finds only as
//            source, .map), make_random_seed, pickups.clear_items,
//            register_dynamic_items (and find_item for each),
//            update_spawn_vars for each of the map's
//            entities and find_item for each pickup kept,
//            make_extra_entities (read_extra_entity and find_item for
//            each), register_dynamic_items again, add_bots (unless the map
//            restarted), player_state, map_loaded
//   advance: events.clear, map_finished (if so: next_map and the map's
//            load again, map_loaded, set_map_finished(false)); a frame:
//            the dynamic spawns (dynamic_spawn_entity_count,
//            read_dynamic_spawn_entity, clear_dynamic_spawn_entities),
//            get_actions, issue_console_commands, the move, can_pickup
//            and override_pickup for a pickup reached (and its
//            reward_override unless overridden), reward_override,
//            player_state, entities; then has_episode_finished
// dmlab_hooks_test.cc's HooksRunInTheRealEnginesOrder pins the order of the
// level callbacks these reach against a trace of the real engine.
// Its world: a corridor along x, the player starting at x = 0; moving
// forward goes 50 units a frame, and a teleporter at x = 2000 takes it back
// to 0 (flipping the teleport bit player_state reports, as the real one). Its maps: "corridor" (empty),
// "corridor_apple" (an apple_reward at x = 100) and "corridor_pickups"
// (apple_reward, lemon_reward and goal at x = 100, 200, 300).
// A pickup's quantity is the score it gives. game:addScore's points reach
// the score through reward_override, as in the real engine. The top-right
// pixel shows the wall texture's first texel (red) and the low byte of the
// game module's seed (green).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hosts/dmlab/dmlab_abi.h"
#include "tests/hosts/dmlab/test_engine_models.h"
#include "tests/hosts/dmlab/test_engine_players.h"

extern "C" int dmlab_create_context(const char* runfiles_path, DmlabContext* context,
                                    DmlabFileReader* file_reader_override,
                                    const DmlabReadOnlyFileSystem* read_only_file_system,
                                    const char* temp_folder);

namespace {

struct Pickup {
  int id;
  std::string class_name;
  float x;
  int quantity;
  bool taken;
};

// One engine per copy of the library: global, as the real one's is.
struct Engine {
  DmlabContext context{};
  int width = 320, height = 240, fps = 60;
  bool first_start = true;
  std::string map;
  std::string runfiles;
  std::vector<Pickup> pickups;
  // Class name -> find_item's index: the item lists of the engine's game
  // module and of its other module.
  std::map<std::string, int> game_items, other_items;
  float x = 0;
  std::int64_t score = 0;  // the real engine's is an int, which a level can overflow
  int frames = 0;
  std::vector<unsigned char> frame;
  std::vector<std::string> console;
  bool issuing = false;  // in issue_console_commands
  std::vector<std::string> bots;
  std::vector<std::string> models;  // of the map's pickups, for the renderer
  bool teleport_flip = false;  // the real engine's EF_TELEPORT_BIT
  test_engine::Player player;
  bool log = false;  // logToStdErr: the console to stderr
  std::vector<unsigned char> texture;  // the corridor's wall
  int game_seed = 0;  // the game module's, drawn at each map load
  int shape[3] = {0, 0, 3};
  int one = 1;  // MAP_FRAME_NUMBER's shape
  double frame_number = 0;
  std::vector<unsigned char> other;  // RGBD_INTERLEAVED's or RGB's
} engine;

const DmlabHooks& H() { return engine.context.hooks; }

// The low byte of a coordinate, as the frames show it; 0 for one past
// int's range or not a number (a level's mover or view can make those).
unsigned char Byte(double value) {
  if (!(value > -2147483648.0 && value < 2147483648.0)) return 0;
  return static_cast<unsigned char>(static_cast<int>(value) & 0xff);
}
void* U() { return engine.context.userdata; }

// As the renderer loads a map's texture: its name through
// replace_texture_name, the image through load_texture (else the engine's
// own: 2 x 2 texels of 100), then modify_rgba_texture. The wall's first
// texel's red shows in the frame's top-right pixel.
void LoadWallTexture() {
  char name[64] = "textures/corridor_wall";
  char replaced[64];
  if (H().replace_texture_name(U(), name, replaced, sizeof(replaced))) {
    std::memcpy(name, replaced, sizeof(name));
  }
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  auto allocate = [](int bytes) -> void* {
    engine.texture.assign(bytes, 0);
    return engine.texture.data();
  };
  if (!H().load_texture(U(), name, &pixels, &width, &height, allocate)) {
    engine.texture.assign(2 * 2 * 4, 100);
    width = height = 2;
  }
  H().modify_rgba_texture(U(), name, engine.texture.data(), width, height);
}

// Whether the engine's home holds map `name` compiled (baselab/<name>.pk3,
// as map_maker:mapFromTextLevel leaves it): the real engine finds it
// there; this one plays it as an empty corridor.
bool CompiledInHome(const std::string& name) {
  const std::string pk3 = std::string(H().get_temporary_folder(U())) + "/baselab/" + name + ".pk3";
  std::FILE* file = std::fopen(pk3.c_str(), "rb");
  if (file == nullptr) return false;
  std::fclose(file);
  return true;
}

// As the real engine's make_map for a map it has not got compiled: its
// source, baselab/maps/<name>.map (with the bots' navigation) or
// baselab/maps_no_ai/<name>.map, in its home or else its runfiles, goes to
// make_pk3_from_map.
void MakeMap(const std::string& name) {
  for (const auto& [folder, bots] : {std::pair{"maps", true}, std::pair{"maps_no_ai", false}}) {
    const std::string relative = "baselab/" + std::string(folder) + "/" + name + ".map";
    for (const std::string& root : {std::string(H().get_temporary_folder(U())), engine.runfiles}) {
      if (std::FILE* file = std::fopen((root + "/" + relative).c_str(), "rb")) {
        std::fclose(file);
        H().make_pk3_from_map(U(), relative.c_str(), name.c_str(), bots);
        return;
      }
    }
  }
}

// find_item, asked once per class of an item list: the real engine keeps
// one in each of its game modules (bg_itemlist), cleared each map load.
bool FindItem(std::map<std::string, int>& items, const std::string& class_name, int* index) {
  if (auto found = items.find(class_name); found != items.end()) {
    *index = found->second;
    return true;
  }
  if (!H().pickups.find_item(U(), class_name.c_str(), index)) return false;
  items[class_name] = *index;
  return true;
}

// Spawns the entity of these spawn variables (G_SpawnGEntityFromSpawnVars):
// a pickup if find_item knows its class, at its origin's x, with its `id`
// or `default_id`.
void Spawn(const char* chars, const int offsets[][2], int num_vars, int default_id) {
  std::string class_name, id = std::to_string(default_id);
  float x = 0;
  for (int v = 0; v < num_vars; ++v) {
    const std::string key = chars + offsets[v][0], value = chars + offsets[v][1];
    if (key == "classname") class_name = value;
    if (key == "origin") x = std::strtof(value.c_str(), nullptr);
    if (key == "id") id = value;
  }
  int index = 0;
  if (!FindItem(engine.game_items, class_name, &index)) return;
  char name[256], item_class[256], model[256];
  int quantity = 0, type = 0, tag = 0, move_type = 0;
  if (!H().pickups.item(U(), index, name, 256, item_class, 256, model, 256, &quantity, &type, &tag,
                        &move_type)) {
    return;
  }
  engine.pickups.push_back({std::atoi(id.c_str()), class_name, x, quantity, false});
  if (std::find(engine.models.begin(), engine.models.end(), model) == engine.models.end()) {
    engine.models.push_back(model);
  }
}

// The level's dynamic items, each registered in `items`, as the real
// engine does twice a map load, in its two modules' lists (BG_InitItemList
// and G_RegisterDynamicPickups).
void RegisterDynamicItems(std::map<std::string, int>& items) {
  const int count = H().pickups.register_dynamic_items(U());
  for (int i = 0; i < count; ++i) {
    char class_name[256];
    H().pickups.read_dynamic_item_name(U(), i, class_name);
    int index = 0;
    FindItem(items, class_name, &index);
  }
}

// The entities pickups_spawn:spawn queued, at the start of a frame (the
// real engine's G_SpawnDynamicPickups), with ids from 200.
void SpawnDynamicEntities() {
  const int count = H().pickups.dynamic_spawn_entity_count(U());
  for (int i = 0; i < count; ++i) {
    char chars[4096];
    int offsets[64][2];
    int num_chars = 0, num_vars = 0;
    H().pickups.read_dynamic_spawn_entity(U(), i, chars, &num_chars, offsets, &num_vars);
    Spawn(chars, offsets, num_vars, 200 + i);
  }
  if (count > 0) H().pickups.clear_dynamic_spawn_entities(U());
}

// Loads the map the level names: the level's dynamic items, the map's
// entities through update_spawn_vars, its pickups through find_item, the
// level's extra entities, and its dynamic items again.
void LoadMap() {
  const char* next = H().next_map(U());
  const bool restart = next[0] == '\0';
  if (!restart) engine.map = next;
  if (restart && engine.map.empty()) {
    std::fprintf(stderr, "VM_Call with NULL vm\n");  // the real engine's fatal error
    std::abort();
  }
  std::vector<std::string> classes;
  if (engine.map == "corridor_pickups") {
    classes = {"apple_reward", "lemon_reward", "goal"};
  } else if (engine.map == "corridor_apple") {
    classes = {"apple_reward"};
  } else if (engine.map != "corridor" && !CompiledInHome(engine.map) &&
             (MakeMap(engine.map), !CompiledInHome(engine.map))) {
    // As the real engine: it ends the process on a map it cannot find,
    // and on a restart with no map loaded. The host must never ask.
    std::fprintf(stderr, "Didn't find map '%s'\n", engine.map.c_str());
    std::abort();
  }
  // As SV_InitGameVM, for a map loaded or restarted: the game module's
  // seed is the engine's next draw.
  engine.game_seed = H().make_random_seed(U());
  H().pickups.clear_items(U());
  engine.pickups.clear();
  engine.models.clear();
  engine.x = 0;
  engine.game_items.clear();
  engine.other_items.clear();
  RegisterDynamicItems(engine.other_items);  // BG_InitItemList's
  for (std::size_t i = 0; i < classes.size(); ++i) {
    char chars[4096];
    int offsets[64][2];
    const std::string origin = std::to_string(100 * (i + 1)) + " 0 0";
    const std::string kv[] = {"classname", classes[i], "origin", origin};
    int at = 0;
    for (int k = 0; k < 4; ++k) {
      offsets[k / 2][k % 2] = at;
      std::memcpy(chars + at, kv[k].c_str(), kv[k].size() + 1);
      at += static_cast<int>(kv[k].size()) + 1;
    }
    int num_chars = at, num_vars = 2;
    if (!H().pickups.update_spawn_vars(U(), chars, &num_chars, offsets, &num_vars)) continue;
    Spawn(chars, offsets, num_vars, static_cast<int>(i + 1));
  }
  const int extra = H().pickups.make_extra_entities(U());
  for (int i = 0; i < extra; ++i) {
    char chars[4096];
    int offsets[64][2];
    int num_chars = 0, num_vars = 0;
    H().pickups.read_extra_entity(U(), i, chars, &num_chars, offsets, &num_vars);
    Spawn(chars, offsets, num_vars, 100 + i);
  }
  RegisterDynamicItems(engine.game_items);  // G_RegisterDynamicPickups'
  // As dev_map: bots join a map that was loaded, not restarted.
  if (!restart) H().add_bots(U());
  if (!restart) LoadWallTexture();
  // As the client's renderer: the models of the map's pickups.
  if (!restart) {
    for (const std::string& model : engine.models) {
      test_engine::RegisterModel(engine.context, model, H().get_temporary_folder(U()));
    }
  }
  engine.player.Join(engine.context);
}

// player_state, stamped with the engine's time after `frame` frames: the
// real engine's cgame reports it as it draws, during a frame (stamped with
// the frame before's time, the engine's clock moving after it) and again
// when the frame is rendered for its observation (stamped with the
// frame's).
void ReportPlayer(int frame) {
  const float origin[3] = {engine.x, 0, 0}, velocity[3] = {0, 0, 0}, angles[3] = {0, 0, 0},
              eye[3] = {engine.x, 0, 40};
  H().player_state(U(), origin, velocity, angles, 40, eye, 0, 0, 0, engine.teleport_flip,
                   frame * 1000 / engine.fps);
}

void ReportEntities() {
  H().entities.clear(U());
  for (const Pickup& p : engine.pickups) {
    float position[3] = {p.x, 0, 0};
    H().entities.add(U(), p.id, p.id, 2, p.taken ? 0x80 : 0, position, p.class_name.c_str());
  }
}

void Frame() {
  SpawnDynamicEntities();
  double look_down_up, look_left_right;
  signed char move, strafe, crouch_jump;
  int buttons;
  H().get_actions(U(), &look_down_up, &look_left_right, &move, &strafe, &crouch_jump, &buttons);
  // As the client's input (CL_CreateCmd): the level's console commands.
  engine.issuing = true;
  H().issue_console_commands(U());
  engine.issuing = false;
  engine.x += move > 0 ? 50.0f : move < 0 ? -50.0f : 0.0f;
  ++engine.frames;
  for (Pickup& p : engine.pickups) {
    if (p.taken || engine.x < p.x) continue;
    if (!H().can_pickup(U(), p.id, 0)) continue;
    int respawn = 0;
    p.taken = true;
    // As the real game code: a pickup the level overrides gives no score.
    if (H().override_pickup(U(), p.id, &respawn, 0)) continue;
    engine.score += H().reward_override(U(), "PICKUP", 0, 0, nullptr, nullptr, p.quantity);
  }
  engine.score += H().reward_override(U(), nullptr, 0, 0, nullptr, nullptr, 0);
  // On "corridor": a mover, a screen (entity 99) the player looks at from
  // x = 150, and a trigger ("door", entity 98) at x = 250 that the level may
  // refuse or take over.
  if (engine.map == "corridor") {
    // A mover (entity 1) at x = 500, which the level may make carry the
    // player.
    const float mover[3] = {500, 0, 0}, player[3] = {engine.x, 0, 0}, velocity[3] = {0, 0, 0};
    float position_delta[3], velocity_delta[3];
    H().lua_mover(U(), 1, mover, player, velocity, position_delta, velocity_delta);
    engine.x += position_delta[0];
    const float at[3] = {engine.x, 0, 0};
    H().trigger_lookat(U(), 99, engine.x >= 150, at, 0);
    if (engine.x == 250 && H().can_trigger(U(), 98, "door", 0) &&
        !H().override_trigger(U(), 98, "door", 0)) {
      engine.x = 0;  // the door's own effect: back to the start
    }
  }
  // A teleporter at x = 2000 takes the player back to 0.
  if (engine.x >= 2000) {
    engine.x = 0;
    engine.teleport_flip = !engine.teleport_flip;
  }
  ReportPlayer(engine.frames - 1);
  ReportEntities();
  engine.player.Frame(engine.context, engine.frames, engine.x);
  std::fill(engine.frame.begin(), engine.frame.end(),
            Byte(engine.x));
}

// EnvCApi.
int Setting(void*, const char* key, const char* value) {
  if (!std::strcmp(key, "width")) engine.width = std::atoi(value);
  else if (!std::strcmp(key, "height")) engine.height = std::atoi(value);
  else if (!std::strcmp(key, "fps")) engine.fps = std::atoi(value);
  else if (!std::strcmp(key, "logToStdErr")) engine.log = !std::strcmp(value, "true");
  else if (!std::strcmp(key, "hasAltCameras")) H().set_has_alt_cameras(U(), !std::strcmp(value, "true"));
  else H().add_setting(U(), key, value);
  return 0;
}

int Init(void*) {
  if (engine.log) std::fprintf(stderr, "test engine: console to stderr\n");
  engine.frame.assign(static_cast<std::size_t>(engine.width) * engine.height * 3, 0);
  H().set_level_cache_settings(U(), false, false, DmlabLevelCacheParams{});
  return H().init(U());
}

int Start(void*, int episode, int seed) {
  H().events.clear(U());
  engine.score = 0;
  engine.frames = 0;
  if (int err = H().start(U(), episode, seed); err != 0) return err;
  if (engine.first_start) {
    H().get_temporary_folder(U());
    H().game_type(U());
    H().replace_command_line(U(), "+set com_hunkmegs 512");
    engine.first_start = false;
  }
  LoadMap();
  ReportPlayer(0);
  ReportEntities();
  return H().map_loaded(U());
}

DmlabStatus Advance(void*, int num_steps, double* reward) {
  H().events.clear(U());
  *reward = 0;
  for (int i = 0; i < num_steps; ++i) {
    const std::int64_t before = engine.score;
    if (H().map_finished(U())) {
      LoadMap();
      if (H().map_loaded(U()) != 0) return DmlabStatus_Error;
      H().set_map_finished(U(), false);
    }
    Frame();
    *reward += engine.score - before;
    if (H().has_episode_finished(U(), static_cast<double>(engine.frames) / engine.fps) != 0) {
      return DmlabStatus_Terminated;
    }
  }
  return DmlabStatus_Running;
}

const char* kActions[] = {"LOOK_LEFT_RIGHT_PIXELS_PER_FRAME", "LOOK_DOWN_UP_PIXELS_PER_FRAME",
                          "STRAFE_LEFT_RIGHT", "MOVE_BACK_FORWARD", "FIRE", "JUMP", "CROUCH"};

void ActDiscrete(void*, const int* actions) {
  H().set_actions(U(), actions[1], actions[0], static_cast<signed char>(actions[3]),
                  static_cast<signed char>(actions[2]),
                  static_cast<signed char>(actions[5] - actions[6]), actions[4]);
  H().custom_action_discrete_apply(U(), actions + 7);
}

// As the real engine's HUD when it renders a frame: the level's filled
// rectangles over the frame (in its pixels here), and its screen messages
// (each one's first character in the red of the bottom row's pixel i).
void DrawOverlays() {
  const int rectangles = H().make_filled_rectangles(U(), engine.width, engine.height);
  for (int i = 0; i < rectangles; ++i) {
    int x, y, w, h;
    float rgba[4];
    H().get_filled_rectangle(U(), i, &x, &y, &w, &h, rgba);
    for (int row = std::max(y, 0); row < std::min(y + h, engine.height); ++row) {
      for (int col = std::max(x, 0); col < std::min(x + w, engine.width); ++col) {
        for (int c = 0; c < 3; ++c) {
          engine.frame[(static_cast<std::size_t>(row) * engine.width + col) * 3 + c] =
              static_cast<unsigned char>(std::clamp(rgba[c], 0.0f, 1.0f) * 255);
        }
      }
    }
  }
  const int messages = H().make_screen_messages(U(), engine.width, engine.height, 20, 80);
  for (int i = 0; i < messages && i < engine.width; ++i) {
    char text[80];
    int x, y, alignment, shadow;
    float rgba[4];
    H().get_screen_message(U(), i, text, &x, &y, &alignment, &shadow, rgba);
    engine.frame[(static_cast<std::size_t>(engine.height - 1) * engine.width + i) * 3] =
        static_cast<unsigned char>(text[0]);
  }
}

// The real engine's observations (its dmlab_connect.c), in its order:
// the frame, RGBD_INTERLEAVED (depth: x, as the frame's bytes are),
// planar RGB, MAP_FRAME_NUMBER (the frames since the map loaded, as
// doubles), and a deprecated spelling the host must not offer.
constexpr const char* kObservationNames[] = {"RGB_INTERLEAVED", "RGBD_INTERLEAVED", "RGB",
                                             "MAP_FRAME_NUMBER", "RGB_INTERLACED"};

void ObservationSpec(void*, int index, DmlabObservationSpec* spec) {
  const bool planar = index == 2;
  engine.shape[0] = planar ? 3 : engine.height;
  engine.shape[1] = planar ? engine.height : engine.width;
  engine.shape[2] = planar ? engine.width : index == 1 ? 4 : 3;
  spec->type = index == 3 ? DmlabObservation_Doubles : DmlabObservation_Bytes;
  spec->dims = index == 3 ? 1 : 3;
  spec->shape = index == 3 ? &engine.one : engine.shape;
}

void Observation(void* env, int index, DmlabObservation* observation) {
  ObservationSpec(env, index, &observation->spec);
  if (index == 3) {
    engine.frame_number = engine.frames;
    observation->payload.doubles = &engine.frame_number;
    return;
  }
  ReportPlayer(engine.frames);
  DrawOverlays();
  if (!engine.texture.empty()) engine.frame[(engine.width - 1) * 3] = engine.texture[0];
  engine.frame[(engine.width - 1) * 3 + 1] = static_cast<unsigned char>(engine.game_seed & 0xff);
  engine.player.Show(engine.context, &engine.frame, engine.width, engine.height);
  const std::size_t pixels = static_cast<std::size_t>(engine.width) * engine.height;
  if (index == 1 || index == 2) {
    engine.other.assign(pixels * (index == 1 ? 4 : 3), 0);
    for (std::size_t p = 0; p < pixels; ++p) {
      for (int c = 0; c < 3; ++c) {
        (index == 1 ? engine.other[4 * p + c] : engine.other[c * pixels + p]) =
            engine.frame[3 * p + c];
      }
      if (index == 1) engine.other[4 * p + 3] = Byte(engine.x);
    }
    observation->payload.bytes = engine.other.data();
    return;
  }
  observation->payload.bytes = engine.frame.data();
}

// The engine's calls.
void ScreenShape(int* width, int* height, int* buffer_width, int* buffer_height) {
  *width = *buffer_width = engine.width;
  *height = *buffer_height = engine.height;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int dmlab_connect(const DmlabLaunchParams* params,
                                                                   DmlabEnvApi* api,
                                                                   void** context) {
  engine = Engine{};
  DmlabCalls& calls = engine.context.calls;
  calls.add_score = [](int player, double score) { H().add_score(U(), player, score); };
  calls.screen_shape = &ScreenShape;
  calls.execute_console_command = [](const char* command) {
    // The real engine runs a command at once (Cmd_ExecuteString): from
    // inside a level's callback, some would end or corrupt it.
    if (!engine.issuing) {
      std::fprintf(stderr, "console command '%s' from inside a callback\n", command);
      std::abort();
    }
    if (engine.log) std::fprintf(stderr, "test engine: console: %s\n", command);
    engine.console.push_back(command);
  };
  calls.engine_frame_period_msec = [] { return 1000 / engine.fps; };
  calls.total_engine_time_msec = [] { return engine.frames * 1000 / engine.fps; };
  calls.total_time_seconds = [] { return static_cast<double>(engine.frames) / engine.fps; };
  calls.raycast = [](const float start[3], const float end[3]) {
    // A wall across the corridor at x = 1000.
    if ((start[0] < 1000) == (end[0] < 1000) || start[0] == end[0]) return 1.0f;
    return (1000 - start[0]) / (end[0] - start[0]);
  };
  calls.in_fov = [](const float*, const float*, const float*, float) { return true; };
  calls.is_map_loading = [] { return false; };
  calls.add_bot = [](const char* name, double, const char*) { engine.bots.push_back(name); };
  calls.player_score = [](void*) { return static_cast<int>(engine.score); };
  calls.render_custom_view = [](int width, int height, unsigned char* buffer) {
    int w = 0, h = 0;
    float position[3], angles[3];
    bool render_player = true;
    H().custom_view(U(), &w, &h, position, angles, &render_player);
    std::fill(buffer, buffer + static_cast<std::size_t>(width) * height * 3,
              Byte(position[0]));
  };
  test_engine::InstallModelCalls(&calls);
  // One texture, "screen".
  calls.update_rgba_texture = [](const char* name, int, int, const unsigned char*) {
    return std::string(name) == "screen";
  };
  engine.context.engine = &engine;
  engine.runfiles = params->runfiles_path;
  if (dmlab_create_context(params->runfiles_path, &engine.context, nullptr, nullptr,
                           params->optional_temp_folder) != 0) {
    return 1;
  }
  *api = DmlabEnvApi{};
  api->setting = &Setting;
  api->init = &Init;
  api->start = &Start;
  api->release_context = [](void*) {};
  api->error_message = [](void*) { return H().error_message(U()); };
  api->environment_name = [](void*) { return "test_engine"; };
  // The seven, then the level's own (the custom action hooks), as the
  // real engine lists them.
  api->action_discrete_count = [](void*) { return 7 + H().custom_action_discrete_count(U()); };
  api->action_discrete_name = [](void*, int i) {
    return i < 7 ? kActions[i] : H().custom_action_discrete_name(U(), i - 7);
  };
  api->action_discrete_bounds = [](void*, int i, int* min, int* max) {
    if (i >= 7) return H().custom_action_discrete_bounds(U(), i - 7, min, max);
    *min = i < 2 ? -512 : i < 4 ? -1 : 0;
    *max = i < 2 ? 512 : 1;
  };
  api->observation_count = [](void*) { return 5; };
  api->observation_name = [](void*, int i) { return kObservationNames[i]; };
  api->observation_spec = &ObservationSpec;
  api->observation = &Observation;
  api->act_discrete = &ActDiscrete;
  api->advance = &Advance;
  *context = &engine;
  return 0;
}
