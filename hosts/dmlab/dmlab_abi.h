/* dmlab_abi.h: the binary interface of DeepMind Lab's engine, as this
 * project's DeepMind Lab host meets it. Declared here, from the interface,
 * so that the host builds and is tested without a DeepMind Lab checkout;
 * tools/dmlab/abi_check.cc, compiled by `./lab dmlab` against the user's
 * checkout, asserts that every size and offset below equals theirs.
 *
 * Three tables cross the line (docs/dmlab.md):
 *   - DmlabEnvApi: the engine as a whole (DeepMind Lab's EnvCApi 2.0),
 *     filled by dmlab_connect(). The host drives the engine through it.
 *   - DmlabCalls (18): the engine's services to the level runtime
 *     (deepmind_calls.h): scores, rays, console, models, textures.
 *   - DmlabHooks (85): what the engine asks of the level runtime
 *     (deepmind_hooks.h): the map to load, pickups, rewards, the player's
 *     pose, textures, screen messages. The engine never checks a hook for
 *     NULL, so every one is filled.
 * The engine calls dmlab_create_context() from dmlab_connect(); the
 * library `./lab dmlab` builds defines it (context_link.c) to hand over the
 * hooks the host bound with dmlab_context_bind() just before.
 *
 * C99 and C++. */
#ifndef HOSTS_DMLAB_DMLAB_ABI_H_
#define HOSTS_DMLAB_DMLAB_ABI_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- EnvCApi 2.0 (the engine as a whole) ---- */

typedef enum DmlabStatus_enum {
  DmlabStatus_Running,
  DmlabStatus_Interrupted,
  DmlabStatus_Error,
  DmlabStatus_Terminated,
} DmlabStatus;

typedef enum DmlabObservationType_enum {
  DmlabObservation_Doubles,
  DmlabObservation_Bytes,
  DmlabObservation_String,
} DmlabObservationType;

typedef struct DmlabObservationSpec_s {
  DmlabObservationType type;
  int dims;
  const int* shape;
} DmlabObservationSpec;

typedef struct DmlabObservation_s {
  DmlabObservationSpec spec;
  union {
    const double* doubles;
    const unsigned char* bytes;
    const char* string;
  } payload;
} DmlabObservation;

typedef struct DmlabEvent_s {
  int id;
  int observation_count;
  const DmlabObservation* observations;
} DmlabEvent;

typedef struct DmlabTextAction_s {
  const char* data;
  uint64_t len;
} DmlabTextAction;

typedef enum DmlabPropertyAttributes_enum {
  DmlabProperty_Readable = 1,
  DmlabProperty_Writable = 2,
  DmlabProperty_Listable = 4,
} DmlabPropertyAttributes;

typedef enum DmlabPropertyResult_enum {
  DmlabProperty_Success = 0,
  DmlabProperty_NotFound = 1,
  DmlabProperty_PermissionDenied = 2,
  DmlabProperty_InvalidArgument = 3,
} DmlabPropertyResult;

typedef void (*DmlabPropertyVisitor)(void* userdata, const char* key,
                                     DmlabPropertyAttributes attributes);

typedef struct DmlabEnvApi_s {
  int (*setting)(void* context, const char* key, const char* value);
  int (*init)(void* context);
  int (*start)(void* context, int episode, int seed);
  void (*release_context)(void* context);
  const char* (*error_message)(void* context);
  DmlabPropertyResult (*write_property)(void* context, const char* key, const char* value);
  DmlabPropertyResult (*read_property)(void* context, const char* key, const char** value);
  DmlabPropertyResult (*list_property)(void* context, void* userdata, const char* key,
                                       DmlabPropertyVisitor visitor);
  const char* (*environment_name)(void* context);
  int (*action_discrete_count)(void* context);
  int (*action_continuous_count)(void* context);
  int (*action_text_count)(void* context);
  const char* (*action_discrete_name)(void* context, int index);
  const char* (*action_continuous_name)(void* context, int index);
  const char* (*action_text_name)(void* context, int index);
  void (*action_discrete_bounds)(void* context, int index, int* min_value, int* max_value);
  void (*action_continuous_bounds)(void* context, int index, double* min_value,
                                   double* max_value);
  int (*observation_count)(void* context);
  const char* (*observation_name)(void* context, int index);
  void (*observation_spec)(void* context, int index, DmlabObservationSpec* spec);
  int (*event_type_count)(void* context);
  const char* (*event_type_name)(void* context, int index);
  void (*observation)(void* context, int index, DmlabObservation* observation);
  int (*event_count)(void* context);
  void (*event)(void* context, int index, DmlabEvent* event);
  void (*act_discrete)(void* context, const int* actions);
  void (*act_continuous)(void* context, const double* actions);
  void (*act_text)(void* context, const DmlabTextAction* actions);
  DmlabStatus (*advance)(void* context, int num_steps, double* reward);
} DmlabEnvApi;

/* ---- Launch parameters (public/dmlab.h, level_cache_types.h,
 * file_reader_types.h) ---- */

typedef enum DmlabRenderer_enum {
  DmlabRenderer_Software,
  DmlabRenderer_Hardware,
} DmlabRenderer;

typedef struct DmlabLevelCacheParams_s {
  bool (*fetch_level_from_cache)(void* cache_context, const char* const cache_paths[],
                                 int num_cache_paths, const char* key, const char* pk3_path);
  void (*write_level_to_cache)(void* cache_context, const char* const cache_paths[],
                               int num_cache_paths, const char* key, const char* pk3_path);
  void* context;
} DmlabLevelCacheParams;

typedef bool(DmlabFileReader)(const char* file_name, char** buffer, size_t* size);

typedef struct DmlabReadOnlyFileSystem_s {
  bool (*open)(const char* filename, void** handle);
  bool (*get_size)(void* handle, size_t* size);
  bool (*read)(void* handle, size_t offset, size_t size, char* destination);
  const char* (*error)(void* handle);
  void (*close)(void** handle);
} DmlabReadOnlyFileSystem;

typedef struct DmlabLaunchParams_s {
  const char* runfiles_path;
  DmlabRenderer renderer;
  DmlabLevelCacheParams level_cache_params;
  DmlabFileReader* file_reader_override;
  const char* optional_temp_folder;
  const DmlabReadOnlyFileSystem* read_only_file_system;
} DmlabLaunchParams;

typedef int (*DmlabConnect)(const DmlabLaunchParams* params, DmlabEnvApi* api,
                            void** context);

/* ---- Models (deepmind_model_getters.h, deepmind_model_setters.h): how
 * a model crosses the line. The engine reads one the level built through
 * the getters (to make an MD3 of it), and hands one it loaded to the
 * setters, each over the model_data pointer that comes with them. ---- */

typedef struct DmlabModelGetters_s {
  void (*get_name)(const void* model_data, size_t max_length, char* name);
  size_t (*get_surface_count)(const void* model_data);
  void (*get_surface_name)(const void* model_data, size_t surface, size_t max_length,
                           char* name);
  size_t (*get_surface_vertex_count)(const void* model_data, size_t surface);
  void (*get_surface_vertex_location)(const void* model_data, size_t surface, size_t vertex,
                                      float location[3]);
  void (*get_surface_vertex_normal)(const void* model_data, size_t surface, size_t vertex,
                                    float normal[3]);
  void (*get_surface_vertex_st)(const void* model_data, size_t surface, size_t vertex,
                                float st[2]);
  size_t (*get_surface_face_count)(const void* model_data, size_t surface);
  void (*get_surface_face)(const void* model_data, size_t surface, size_t face, int indices[3]);
  size_t (*get_surface_shader_count)(const void* model_data, size_t surface);
  void (*get_surface_shader)(const void* model_data, size_t surface, size_t shader,
                             size_t max_length, char* name);
  size_t (*get_tag_count)(const void* model_data);
  void (*get_tag_name)(const void* model_data, size_t tag, size_t max_length, char* name);
  void (*get_tag_axis)(const void* model_data, size_t tag, size_t axis, float values[3]);
  void (*get_tag_origin)(const void* model_data, size_t tag, float origin[3]);
} DmlabModelGetters;

typedef struct DmlabModelSetters_s {
  void (*set_name)(void* model_data, const char* name);
  void (*set_surface_count)(void* model_data, size_t count);
  void (*set_surface_name)(void* model_data, size_t surface, const char* name);
  void (*set_surface_vertex_count)(void* model_data, size_t surface, size_t count);
  void (*set_surface_vertex_location)(void* model_data, size_t surface, size_t vertex,
                                      float location[3]);
  void (*set_surface_vertex_normal)(void* model_data, size_t surface, size_t vertex,
                                    float normal[3]);
  void (*set_surface_vertex_st)(void* model_data, size_t surface, size_t vertex, float st[2]);
  void (*set_surface_face_count)(void* model_data, size_t surface, size_t count);
  void (*set_surface_face)(void* model_data, size_t surface, size_t face, int indices[3]);
  void (*set_surface_shader_count)(void* model_data, size_t surface, size_t count);
  void (*set_surface_shader)(void* model_data, size_t surface, size_t shader, const char* name);
  void (*set_tag_count)(void* model_data, size_t count);
  void (*set_tag_name)(void* model_data, size_t tag, const char* name);
  void (*set_tag_axis)(void* model_data, size_t tag, size_t axis, float values[3]);
  void (*set_tag_origin)(void* model_data, size_t tag, float origin[3]);
} DmlabModelSetters;

/* ---- The engine's calls (deepmind_calls.h). ---- */

typedef struct DmlabCalls_s {
  void (*add_score)(int player_id, double score);
  void (*screen_shape)(int* width, int* height, int* buffer_width, int* buffer_height);
  void (*execute_console_command)(const char* command);
  int (*engine_frame_period_msec)(void);
  int (*total_engine_time_msec)(void);
  double (*total_time_seconds)(void);
  void (*add_bot)(const char* name, double skill, const char* team);
  int (*player_score)(void* context);
  bool (*deserialise_model)(const void* buffer, const DmlabModelSetters* setters,
                            void* model_data);
  bool (*load_model)(const char* model_path, const DmlabModelSetters* setters,
                     void* model_data);
  size_t (*serialised_model_size)(const DmlabModelGetters* getters, void* model_data);
  void (*serialise_model)(const DmlabModelGetters* getters, void* model_data, void* buffer);
  bool (*save_model)(const DmlabModelGetters* getters, void* model_data,
                     const char* model_path);
  bool (*update_rgba_texture)(const char* name, int width, int height,
                              const unsigned char* data);
  float (*raycast)(const float start[3], const float end[3]);
  bool (*in_fov)(const float start[3], const float end[3], const float angles[3], float fov);
  void (*render_custom_view)(int width, int height, unsigned char* buffer);
  bool (*is_map_loading)(void);
} DmlabCalls;

/* ---- The hooks (deepmind_hooks.h): every one takes the userdata that
 * dmlab_context_bind() gave, first. ---- */

typedef struct DmlabEventsHooks_s {
  int (*type_count)(void* userdata);
  const char* (*type_name)(void* userdata, int type_index);
  void (*clear)(void* userdata);
  int (*count)(void* userdata);
  void (*export_event)(void* userdata, int index, DmlabEvent* event);
} DmlabEventsHooks;

typedef struct DmlabEntitiesHooks_s {
  void (*clear)(void* userdata);
  void (*add)(void* userdata, int entity_id, int user_id, int type, int flags,
              float position[3], const char* classname);
} DmlabEntitiesHooks;

/* Spawn variables travel as chars (NUL-separated keys and values) with
 * [offset of key, offset of value] pairs. */
typedef struct DmlabPickupHooks_s {
  int (*update_spawn_vars)(void* userdata, char* chars, int* num_chars, int offsets[][2],
                           int* num_vars);
  int (*make_extra_entities)(void* userdata);
  void (*read_extra_entity)(void* userdata, int entity_index, char* chars, int* num_chars,
                            int offsets[][2], int* num_vars);
  bool (*find_item)(void* userdata, const char* class_name, int* index);
  int (*item_count)(void* userdata);
  bool (*item)(void* userdata, int index, char* item_name, int max_item_name,
               char* class_name, int max_class_name, char* model_name, int max_model_name,
               int* quantity, int* type, int* tag, int* move_type);
  void (*clear_items)(void* userdata);
  int (*dynamic_spawn_entity_count)(void* userdata);
  void (*read_dynamic_spawn_entity)(void* userdata, int entity_index, char* chars,
                                    int* num_chars, int offsets[][2], int* num_vars);
  void (*clear_dynamic_spawn_entities)(void* userdata);
  int (*register_dynamic_items)(void* userdata);
  void (*read_dynamic_item_name)(void* userdata, int item_index, char* item_name);
} DmlabPickupHooks;

typedef struct DmlabPropertyHooks_s {
  DmlabPropertyResult (*write)(void* userdata, const char* key, const char* value);
  DmlabPropertyResult (*read)(void* userdata, const char* key, const char** value);
  DmlabPropertyResult (*list)(void* userdata, void* visitor_userdata, const char* key,
                              DmlabPropertyVisitor visitor);
} DmlabPropertyHooks;

typedef struct DmlabHooks_s {
  void (*add_setting)(void* userdata, const char* key, const char* value);
  void (*set_level_cache_settings)(void* userdata, bool local, bool global,
                                   DmlabLevelCacheParams params);
  void (*set_level_name)(void* userdata, const char* level_name);
  void (*set_level_directory)(void* userdata, const char* level_directory);
  void (*set_executable_runfiles)(void* userdata, const char* runfiles);
  const char* (*get_temporary_folder)(void* userdata);
  int (*init)(void* userdata);
  int (*start)(void* userdata, int episode, int seed);
  int (*map_loaded)(void* userdata);
  const char* (*replace_command_line)(void* userdata, const char* command_line);
  const char* (*next_map)(void* userdata);
  int (*game_type)(void* userdata);
  int (*run_lua_snippet)(void* userdata, const char* command);
  void (*set_native_app)(void* userdata, bool native_app);
  bool (*get_native_app)(void* userdata);
  void (*set_mixer_seed)(void* userdata, int mixer_seed);
  void (*set_actions)(void* userdata, double look_down_up, double look_left_right,
                      signed char move_back_forward, signed char strafe_left_right,
                      signed char crouch_jump, int buttons_down);
  void (*get_actions)(void* userdata, double* look_down_up, double* look_left_right,
                      signed char* move_back_forward, signed char* strafe_left_right,
                      signed char* crouch_jump, int* buttons_down);
  void (*issue_console_commands)(void* userdata);
  bool (*find_model)(void* userdata, const char* model_name);
  void (*model_getters)(void* userdata, DmlabModelGetters* getters, void** model_data);
  void (*clear_model)(void* userdata);
  bool (*map_finished)(void* userdata);
  void (*set_map_finished)(void* userdata, bool map_finished);
  bool (*can_pickup)(void* userdata, int entity_id, int player_id);
  bool (*override_pickup)(void* userdata, int entity_id, int* respawn, int player_id);
  bool (*can_trigger)(void* userdata, int entity_id, const char* target_name, int player_id);
  bool (*override_trigger)(void* userdata, int entity_id, const char* target_name,
                           int player_id);
  void (*trigger_lookat)(void* userdata, int entity_id, bool looked_at,
                         const float position[3], int player_id);
  int (*reward_override)(void* userdata, const char* reason, int player_id, int team,
                         const int* other_player_id, const float* origin, int score);
  void (*add_score)(void* userdata, int player_id, double reward);
  int (*make_random_seed)(void* userdata);
  double (*has_episode_finished)(void* userdata, double episode_time_seconds);
  void (*add_bots)(void* userdata);
  bool (*replace_texture_name)(void* userdata, const char* name, char* new_name, int max_size);
  bool (*load_texture)(void* userdata, const char* name, unsigned char** pixels, int* width,
                       int* height, void* (*allocator)(int size));
  bool (*modify_rgba_texture)(void* userdata, const char* name, unsigned char* data,
                              int width, int height);
  bool (*replace_model_name)(void* userdata, const char* name, char* new_name,
                             int new_name_size, char* texture_prefix,
                             int texture_prefix_size);
  int (*custom_action_discrete_count)(void* userdata);
  const char* (*custom_action_discrete_name)(void* userdata, int index);
  void (*custom_action_discrete_bounds)(void* userdata, int index, int* min_value,
                                        int* max_value);
  void (*custom_action_discrete_apply)(void* userdata, const int* actions);
  int (*custom_observation_count)(void* userdata);
  const char* (*custom_observation_name)(void* userdata, int index);
  void (*custom_observation_spec)(void* userdata, int index, DmlabObservationSpec* spec);
  void (*custom_observation)(void* userdata, int index, DmlabObservation* observation);
  void (*player_state)(void* userdata, const float origin[3], const float velocity[3],
                       const float view_angles[3], float height, const float eye_position[3],
                       int team_score, int other_team_score, int player_id,
                       bool teleporter_flip, int timestamp_msec);
  int (*make_screen_messages)(void* userdata, int width, int height, int line_height,
                              int string_buffer_size);
  /* deepmind_hooks.h names the fifth and sixth shadow and align_l0_r1_c2;
   * the engine passes the alignment fifth (its dm_local.c and cg_draw.c). */
  void (*get_screen_message)(void* userdata, int message_id, char* buffer, int* x, int* y,
                             int* align_l0_r1_c2, int* shadow, float rgba[4]);
  int (*make_filled_rectangles)(void* userdata, int screen_width, int screen_height);
  void (*get_filled_rectangle)(void* userdata, int rectangle_id, int* x, int* y, int* width,
                               int* height, float rgba[4]);
  void (*make_pk3_from_map)(void* userdata, const char* map_path, const char* map_name,
                            bool gen_aas);
  void (*lua_mover)(void* userdata, int entity_id, const float entity_position[3],
                    const float player_position[3], const float player_velocity[3],
                    float player_position_delta[3], float player_velocity_delta[3]);
  void (*game_event)(void* userdata, const char* event_name, int count, const float* data);
  void (*update_inventory)(void* userdata, bool is_spawning, bool is_bot, int player_id,
                           int gadget_count, int gadget_inventory[], int persistent_count,
                           int persistents[], int stat_count, int stats_inventory[],
                           int powerups, int powerups_time[], int gadget_held, float height,
                           float position[3], float velocity[3], float view_angles[3]);
  char (*team_select)(void* userdata, int player_id, const char* player_name);
  bool (*update_player_info)(void* userdata, int player_id, char* info, int info_size);
  void (*set_has_alt_cameras)(void* userdata, bool has_alt_cameras);
  bool (*has_alt_cameras)(void* userdata);
  void (*custom_view)(void* userdata, int* width, int* height, float position[3],
                      float view_angles[3], bool* render_player);
  void (*new_client_info)(void* userdata, int player_id, const char* player_name,
                          const char* player_model);
  void (*set_error_message)(void* userdata, const char* error_message);
  const char* (*error_message)(void* userdata);
  DmlabEventsHooks events;
  DmlabEntitiesHooks entities;
  DmlabPickupHooks pickups;
  DmlabPropertyHooks properties;
} DmlabHooks;

/* The engine's context record (deepmind_context.h): the engine fills
 * `calls` and `engine` before dmlab_create_context, which fills `hooks`
 * and `userdata`. */
typedef struct DmlabContext_s {
  DmlabCalls calls;
  void* engine;
  DmlabHooks hooks;
  void* userdata;
} DmlabContext;

/* What the host binds before dmlab_connect: the hooks and their userdata,
 * and where to tell the host the engine's context record (so that it can
 * use the calls). */
typedef struct DmlabBinding_s {
  const DmlabHooks* hooks;
  void* userdata;
  void (*connected)(void* userdata, DmlabContext* context);
} DmlabBinding;

/* Exported by the engine library beside dmlab_connect (context_link.c). */
typedef void (*DmlabContextBind)(const DmlabBinding* binding);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* HOSTS_DMLAB_DMLAB_ABI_H_ */
