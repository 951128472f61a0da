/* env_c_api.h: the plugin's instances as a plain C ABI, for agents and
 * hosts in any language (the Python binding, C programs, other engines).
 *
 * Modelled on DeepMind Lab's EnvCApi: env_connect() creates one plugin
 * instance (a "context") and fills a table of function pointers; every
 * function takes that context first. It compiles as C (C99) and C++.
 *
 * LIFECYCLE (Engine's, see engine.h):
 *   env_connect -> setting* -> init ->
 *     { start -> { act_discrete ; advance ; observation* ; event* }* }* ->
 *   release_context
 *
 * ERRORS. A function that can fail returns an int status (0 OK, non-zero
 * error), EnvCApi_EnvironmentStatus_Error, EnvCApi_PropertyResult other
 * than Success, NULL (names) or -1 (counts); the context then holds a
 * message, returned by error_message(). Bad arguments (null pointers,
 * indices out of range, a setting after init, advance before start or after
 * the episode ended) are errors, never crashes. After an error in start or
 * advance the context is usable again from the next start.
 *
 * OWNERSHIP CONTRACT.
 *   - Strings the API returns (names, error_message, read_property values)
 *     belong to the context. Names stay valid until release_context;
 *     error_message and read_property values until the next call on that
 *     context.
 *   - observation(): the payload, shape and strides belong to the context
 *     and stay valid and unchanged until the next start, advance or
 *     release_context on that context. Calling observation() again for the
 *     same index in the same step returns the same pointer.
 *   - retain_observation(): the payload, shape and strides belong to the
 *     returned handle. They stay valid and unchanged, through any number of
 *     later steps and even after release_context, until
 *     env_release_observation(handle). The engine never writes a buffer
 *     that a handle holds; it renders later frames into other buffers, and
 *     reuses this one only once the handle is released.
 *   - event(): the event's observations belong to the context and stay
 *     valid until the next start, advance or release_context.
 *   - Payloads are host memory. With the setting observationDevice=cuda:N
 *     the engine's RGB_INTERLEAVED is on a GPU (as is a level observation
 *     that the level computes there); observation() and
 *     retain_observation() hand out a host copy of it (one per call), and
 *     retain_observation_on_device() the device buffer itself, under the
 *     same handle contract.
 *   - Observations are contiguous and row-major: strides are the row-major
 *     strides of shape. They are exported anyway so that a host never has
 *     to assume it.
 *
 * FRAME TARGETS. While set_frame_target has given memory of the host's:
 *   - the engine writes each new frame there during start and advance, so
 *     the host must keep it valid and leave it alone during those calls,
 *     until it clears the target or releases the context;
 *   - observation(RGB_INTERLEAVED) points into the target, valid until the
 *     next start or advance (which overwrites it), as for any observation;
 *   - retain_observation(RGB_INTERLEAVED) returns a copy in an engine
 *     buffer, as the next frame overwrites the target;
 *   - the level's observeFrame draws on the target, which the host sees.
 *
 * THREADS. Contexts share nothing: any number may run at once, each used
 * by one thread at a time. env_release_observation may be called from any
 * thread, with or without the context alive.
 *
 * Example:
 *   EnvCApi api;
 *   void* context;
 *   char error[256];
 *   if (env_connect("demo_maze", &api, &context, error, sizeof(error)) != 0) {
 *     fprintf(stderr, "%s\n", error);
 *     return 1;
 *   }
 *   api.setting(context, "width", "84");
 *   if (api.init(context) != 0 || api.start(context, 0, 1) != 0) {
 *     fprintf(stderr, "%s\n", api.error_message(context));
 *   }
 *   int forward[7] = {0, 0, 0, 1, 0, 0, 0};
 *   api.act_discrete(context, forward);
 *   double reward;
 *   EnvCApi_EnvironmentStatus status = api.advance(context, 4, &reward);
 *   EnvCApi_Observation rgb;
 *   api.observation(context, 0, &rgb);  // rgb.payload.bytes: H x W x 3
 *   api.release_context(context);
 */
#ifndef ENGINE_PLUGIN_ENV_C_API_H_
#define ENGINE_PLUGIN_ENV_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum EnvCApi_EnvironmentStatus_enum {
  EnvCApi_EnvironmentStatus_Running,     /* the episode goes on */
  EnvCApi_EnvironmentStatus_Interrupted, /* cut short by episodeLengthSeconds */
  EnvCApi_EnvironmentStatus_Error,       /* see error_message(); start again */
  EnvCApi_EnvironmentStatus_Terminated,  /* the level ended the episode */
} EnvCApi_EnvironmentStatus;

typedef enum EnvCApi_ObservationType_enum {
  EnvCApi_ObservationBytes,   /* uint8_t elements */
  EnvCApi_ObservationDoubles, /* double elements */
  EnvCApi_ObservationString,  /* char, dims 1 */
  EnvCApi_ObservationFloats,  /* float (32-bit) elements */
} EnvCApi_ObservationType;

/* Shape and strides (in elements) of `dims` extents each. A string's spec
 * has dims 1 and shape[0] -1, as its length varies; a string observation
 * has shape[0] = its length in bytes. */
typedef struct EnvCApi_ObservationSpec_s {
  EnvCApi_ObservationType type;
  int dims;
  const int64_t* shape;
  const int64_t* strides;
} EnvCApi_ObservationSpec;

typedef struct EnvCApi_Observation_s {
  EnvCApi_ObservationSpec spec;
  union {
    const uint8_t* bytes;
    const double* doubles;
    const float* floats;
    const char* string; /* NUL-terminated; shape[0] bytes before the NUL */
  } payload;
} EnvCApi_Observation;

/* An event raised by the level (events:add in Lua) during the last start
 * or advance. `id` indexes event_type_name. */
typedef struct EnvCApi_Event_s {
  int id;
  int observation_count;
  const EnvCApi_Observation* observations;
} EnvCApi_Event;

typedef enum EnvCApi_PropertyResult_enum {
  EnvCApi_PropertyResult_Success,
  EnvCApi_PropertyResult_NotFound,
  EnvCApi_PropertyResult_PermissionDenied, /* e.g. writing a read-only key */
  EnvCApi_PropertyResult_InvalidArgument,  /* null arguments, a bad value */
  EnvCApi_PropertyResult_Error,            /* the level's callback failed */
} EnvCApi_PropertyResult;

/* Bit flags. */
typedef enum EnvCApi_PropertyAttributes_enum {
  EnvCApi_PropertyAttributes_Readable = 1,
  EnvCApi_PropertyAttributes_Writable = 2,
  EnvCApi_PropertyAttributes_Listable = 4,
} EnvCApi_PropertyAttributes;

/* Where a payload lives: host memory, or the memory of CUDA device
 * `index`, which only device code (cudaMemcpy, a kernel, a DLPack
 * consumer such as torch) may read. */
typedef enum EnvCApi_DeviceType_enum {
  EnvCApi_DeviceCpu,
  EnvCApi_DeviceCuda,
} EnvCApi_DeviceType;

typedef struct EnvCApi_Device_s {
  EnvCApi_DeviceType type;
  int index; /* 0 for the CPU */
} EnvCApi_Device;

/* A retained observation; see the ownership contract above. */
typedef struct EnvCApi_RetainedObservation_s EnvCApi_RetainedObservation;

typedef struct EnvCApi_s {
  /* Before init. Engine settings are width, height, fps and
   * episodeLengthSeconds, and the level's limits: sandbox ("true" or
   * "false"; "true" by default for a level given as a path),
   * memoryLimitMegabytes, instructionLimit and tensorMemoryLimitMegabytes
   * (engine.h gives their defaults); these stay with the engine, and every
   * other setting (and episodeLengthSeconds) reaches the level's
   * init(settings). Returns 0 or non-zero (bad key/value, after init). A
   * limit the level reaches is an error of the call that ran it. */
  int (*setting)(void* context, const char* key, const char* value);

  /* Loads the level and calls its init(settings). Once. */
  int (*init)(void* context);

  /* Starts episode `episode` with `seed`, rendering its first frame. */
  int (*start)(void* context, int episode, uint64_t seed);

  /* Destroys the context. Retained observations stay valid. */
  void (*release_context)(void* context);

  /* The last error on this context ("" if none). Never NULL. */
  const char* (*error_message)(void* context);

  /* After init: the number of observations (built-in, then the level's),
   * or -1. */
  int (*observation_count)(void* context);

  /* After init: the name of observation `observation_idx`, or NULL. */
  const char* (*observation_name)(void* context, int observation_idx);

  /* After init: fills *spec (shape and strides belong to the context and
   * live until release_context). Returns 0 or non-zero. */
  int (*observation_spec)(void* context, int observation_idx, EnvCApi_ObservationSpec* spec);

  /* After start: fills *observation for the current frame. Valid until the
   * next start, advance or release_context. Returns 0 or non-zero. */
  int (*observation)(void* context, int observation_idx, EnvCApi_Observation* observation);

  /* Like observation, but *observation's pointers belong to *handle, which
   * keeps them valid and unchanged until env_release_observation(*handle).
   * Returns 0 or non-zero (then *handle is NULL). */
  int (*retain_observation)(void* context, int observation_idx, EnvCApi_Observation* observation,
                            EnvCApi_RetainedObservation** handle);

  /* Control steps per second of the host (the maze: the fps setting). */
  int (*fps)(void* context);

  /* Event types registered so far (the count grows as levels add types). */
  int (*event_type_count)(void* context);
  const char* (*event_type_name)(void* context, int event_type_idx);

  /* The events raised during the last start or advance. */
  int (*event_count)(void* context);
  int (*event)(void* context, int event_idx, EnvCApi_Event* event);

  /* The host's discrete actions; the maze's are DeepMind Lab's seven:
   * LOOK_LEFT_RIGHT_PIXELS_PER_FRAME, LOOK_DOWN_UP_PIXELS_PER_FRAME,
   * STRAFE_LEFT_RIGHT, MOVE_BACK_FORWARD, FIRE, JUMP, CROUCH. Available
   * before init, except for a host whose actions depend on its level:
   * then after init. */
  int (*act_discrete_count)(void* context);
  const char* (*act_discrete_name)(void* context, int action_idx);
  int (*act_discrete_bounds)(void* context, int action_idx, int* min_value, int* max_value);

  /* After init: `actions` holds act_discrete_count values, used for the
   * following frames; values beyond the bounds are clamped. */
  int (*act_discrete)(void* context, const int* actions);

  /* Steps `num_steps` >= 1 frames and sets *reward to their total reward.
   * After Terminated, Interrupted or Error, call start before advancing. */
  EnvCApi_EnvironmentStatus (*advance)(void* context, int num_steps, double* reward);

  /* Properties: engine.* keys are the engine's own and read-only
   * (engine.fps, engine.width, engine.height, engine.episodeTimeSeconds,
   * engine.steps, engine.frameBuffersAllocated, engine.clampedActions); other keys go to the
   * level. A read value lives until the next call on the context. list_property calls `callback` with each key
   * listed under `list_key`: "" lists the top level ("engine", listable,
   * and the level's), "engine" the engine's keys. */
  EnvCApi_PropertyResult (*write_property)(void* context, const char* key, const char* value);
  EnvCApi_PropertyResult (*read_property)(void* context, const char* key, const char** value);
  EnvCApi_PropertyResult (*list_property)(void* context, void* userdata, const char* list_key,
                                          void (*callback)(void* userdata, const char* key,
                                                           EnvCApi_PropertyAttributes attributes));

  /* After init: renders the frames of the following start and advance
   * calls into `pixels` (row-major RGB, height x width x 3 bytes, so
   * size_bytes = height * width * 3) instead of the engine's buffers; NULL
   * goes back to them. For hosts that batch instances into one array: each
   * frame is written once, into its slot. See FRAME TARGETS above.
   * Returns 0 or non-zero (a wrong size, before init). */
  int (*set_frame_target)(void* context, uint8_t* pixels, size_t size_bytes);

  /* retain_observation without the copy to the host: *device says where
   * the payload is. With observationDevice=cuda:N, RGB_INTERLEAVED's
   * payload is the engine's buffer on that GPU, and a level observation
   * is wherever the level's tensor is; the rest are on the CPU. The
   * handle keeps device memory valid and unwritten exactly as
   * retain_observation's keeps host memory. Returns 0 or non-zero (then
   * *handle is NULL). */
  int (*retain_observation_on_device)(void* context, int observation_idx,
                                      EnvCApi_Observation* observation, EnvCApi_Device* device,
                                      EnvCApi_RetainedObservation** handle);

  /* Continuous actions, as DeepMind Lab's EnvCApi has them: the host's
   * (the maze has none), available when the discrete ones are. After
   * init, act_continuous takes act_continuous_count values for the
   * following steps; values beyond the bounds are clamped (counted in
   * engine.clampedActions), a NaN or an infinity is an error that
   * changes nothing. Returns 0 or non-zero. */
  int (*act_continuous_count)(void* context);
  const char* (*act_continuous_name)(void* context, int action_idx);
  int (*act_continuous_bounds)(void* context, int action_idx, double* min_value,
                               double* max_value);
  int (*act_continuous)(void* context, const double* actions);

  /* After init: the range every element of observation `observation_idx`
   * lies in, when the level declared one (customObservationSpec's min=
   * and max=; either may be infinite). Returns 1 and fills *min_value and
   * *max_value; 0 for none declared (a byte observation is then in
   * [0, 255], a double or float one unbounded); -1 on an error. */
  int (*observation_bounds)(void* context, int observation_idx, double* min_value,
                            double* max_value);
} EnvCApi;

/* VERSIONS. EnvCApi grows by slots appended at its end (25 slots became
 * 30, then 31), and a client built against an older header has a smaller struct,
 * which the library must never write past. So, as zlib's deflateInit
 * passes sizeof(z_stream), env_connect is a macro that passes the size of
 * the caller's EnvCApi to the library's env_connect_sized:
 *   - a client compiled against this header passes its sizeof(EnvCApi),
 *     and env_connect_sized refuses, with a message saying both sizes, a
 *     size other than its own, before it writes a byte of *api;
 *   - a client binary from before this header calls the symbol
 *     env_connect, which this library no longer has: it fails to load or
 *     link (dlsym returns NULL) instead of running with a short struct;
 *   - a client may also compare env_c_api_version() with
 *     ENV_C_API_VERSION at run time (the library it loaded against the
 *     header it was built with).
 * ENV_C_API_VERSION counts incompatible changes of this header. */
#define ENV_C_API_VERSION 2

/* The ENV_C_API_VERSION the library was built with. */
int env_c_api_version(void);

/* Creates an engine instance for `level` (a built-in name such as
 * "demo_maze" or "random_maze", or a path to a .lua level script) on the
 * host the level names, which this library must link, stores
 * it in *context and fills *api. Returns 0, or non-zero with *context set
 * to NULL and, when `error` is not NULL, a NUL-terminated message of at
 * most error_size bytes written there. Called through env_connect, which
 * passes api_size (see VERSIONS). */
int env_connect_sized(const char* level, EnvCApi* api, size_t api_size, void** context,
                      char* error, size_t error_size);
#define env_connect(level, api, context, error, error_size) \
  env_connect_sized((level), (api), sizeof(*(api)), (context), (error), (error_size))

/* The built-in levels this library can run (their hosts are linked in),
 * sorted by name: env_level_count() of them, each a name for env_connect
 * and the host it runs on. Out of range is NULL. The strings live as long
 * as the library. */
int env_level_count(void);
const char* env_level_name(int level_idx);
const char* env_level_host(int level_idx);

/* DeepMind Lab's level cache (engine_plugin/level_cache.h): a host that
 * compiles its levels' maps (the DeepMind Lab host) calls fetch before it
 * compiles one, and write after. fetch copies the compiled map of `key` to
 * `pk3_path` and returns 1, or returns 0 when it has none; write stores the
 * map at `pk3_path` under `key` and returns 0. A return of -1 is the
 * cache's error: the start that asked fails (a client keeps its own
 * account of why; DeepMind Lab's Python module, its pending exception).
 * Both are called on the thread of the start that compiles. */
typedef struct EnvLevelCache_s {
  void* cache_context;
  int (*fetch)(void* cache_context, const char* key, const char* pk3_path);
  int (*write)(void* cache_context, const char* key, const char* pk3_path);
} EnvLevelCache;

/* Sets the level cache of `context` (from env_connect) before init; NULL
 * removes it. `cache` is copied; its cache_context must outlive the
 * context. Returns 0, or non-zero after init (error_message says why). */
int env_set_level_cache(void* context, const EnvLevelCache* cache);

/* Releases a handle from retain_observation. Any thread, any time, also
 * after the context is released. NULL is ignored. */
void env_release_observation(EnvCApi_RetainedObservation* handle);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ENGINE_PLUGIN_ENV_C_API_H_ */
