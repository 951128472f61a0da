/* A host written in C: proves env_c_api.h compiles as C and works from it.
 * Called by env_c_api_test.cc. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine_plugin/env_c_api.h"

/* Runs demo_maze at 16 x 12 for `steps` frames going forward, and stores
 * the sum of the last RGB frame's bytes in *checksum. Returns 0, or 1 with
 * a message in `error`. */
int RunDemoMazeFromC(int steps, uint64_t* checksum, char* error, size_t error_size) {
  EnvCApi api;
  void* context = NULL;
  if (env_connect("demo_maze", &api, &context, error, error_size) != 0) return 1;
  int failed = api.setting(context, "width", "16") != 0 ||
               api.setting(context, "height", "12") != 0 || api.init(context) != 0 ||
               api.start(context, 0, 1) != 0;
  const int forward[7] = {0, 0, 0, 1, 0, 0, 0};
  for (int i = 0; i < steps && !failed; ++i) {
    double reward = 0;
    failed = api.act_discrete(context, forward) != 0 ||
             api.advance(context, 1, &reward) == EnvCApi_EnvironmentStatus_Error;
  }
  EnvCApi_Observation rgb;
  if (!failed) failed = api.observation(context, 0, &rgb) != 0;
  if (!failed) {
    size_t size = 1;
    for (int d = 0; d < rgb.spec.dims; ++d) size *= (size_t)rgb.spec.shape[d];
    *checksum = 0;
    for (size_t i = 0; i < size; ++i) *checksum += rgb.payload.bytes[i];
  } else {
    snprintf(error, error_size, "%s", api.error_message(context));
  }
  api.release_context(context);
  return failed;
}
