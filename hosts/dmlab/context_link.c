/* context_link.c: linked into the engine library that `./lab dmlab` builds,
 * in place of DeepMind Lab's own context. The engine calls
 * dmlab_create_context() from dmlab_connect(); this hands it the hooks that
 * the host bound with dmlab_context_bind() just before, and tells the host
 * the engine's context record (its calls). Nothing of the level runtime is
 * here: the hooks are the host's (hosts/dmlab/context.h), in the process
 * that loaded the library.
 *
 * Each copy of the library the host loads has its own binding: the engine
 * keeps global state, so one copy serves one instance. */
#include <stddef.h>

#include "hosts/dmlab/dmlab_abi.h"

#define DMLAB_EXPORT __attribute__((visibility("default")))

static DmlabBinding binding;

DMLAB_EXPORT void dmlab_context_bind(const DmlabBinding* next) { binding = *next; }

/* The engine's declaration has DeepMind's type names for the same layouts
 * (tools/dmlab/abi_check.cc). A dmlab_connect without a binding fails. */
DMLAB_EXPORT int dmlab_create_context(const char* runfiles_path, DmlabContext* context,
                                      DmlabFileReader* file_reader_override,
                                      const DmlabReadOnlyFileSystem* read_only_file_system,
                                      const char* temp_folder) {
  (void)runfiles_path;
  (void)file_reader_override;
  (void)read_only_file_system;
  (void)temp_folder;
  if (binding.hooks == NULL) return 1;
  context->hooks = *binding.hooks;
  context->userdata = binding.userdata;
  binding.connected(binding.userdata, context);
  binding.hooks = NULL;
  return 0;
}

DMLAB_EXPORT void dmlab_release_context(DmlabContext* context) { (void)context; }
