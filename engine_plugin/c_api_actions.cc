#include "engine_plugin/c_api_actions.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/c_api_context.h"

namespace engine_plugin {
namespace c_api {
namespace {

int ActDiscreteCount(void* context) {
  return Guarded(context, -1, [&](Context& ctx) {
    return static_cast<int>(ctx.engine->discrete_actions().size());
  });
}

const char* ActDiscreteName(void* context, int index) {
  return Guarded(context, static_cast<const char*>(nullptr), [&](Context& ctx) -> const char* {
    const std::vector<DiscreteActionSpec>& specs = ctx.engine->discrete_actions();
    if (!InRange(index, specs.size())) {
      return Fail(ctx, nullptr, OutOfRange("act_discrete_name", "action", index, specs.size()));
    }
    return specs[index].name.c_str();
  });
}

int ActDiscreteBounds(void* context, int index, int* min_value, int* max_value) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (min_value == nullptr || max_value == nullptr) {
      return Fail(ctx, 1, "act_discrete_bounds: min_value and max_value must not be null");
    }
    const std::vector<DiscreteActionSpec>& specs = ctx.engine->discrete_actions();
    if (!InRange(index, specs.size())) {
      return Fail(ctx, 1, OutOfRange("act_discrete_bounds", "action", index, specs.size()));
    }
    *min_value = specs[index].min;
    *max_value = specs[index].max;
    return 0;
  });
}

int ActDiscrete(void* context, const int* actions) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (std::string why = NotInitialised(ctx, "act_discrete"); !why.empty()) {
      return Fail(ctx, 1, std::move(why));
    }
    if (actions == nullptr) return Fail(ctx, 1, "act_discrete: actions must not be null");
    ctx.engine->Act({actions, ctx.engine->discrete_actions().size()});
    return 0;
  });
}

// Continuous actions, as DeepMind Lab's EnvCApi has them. A host's
// actions may depend on its level: then they are there after init.
int ActContinuousCount(void* context) {
  return Guarded(context, -1, [&](Context& ctx) {
    return static_cast<int>(ctx.engine->continuous_actions().size());
  });
}

const char* ActContinuousName(void* context, int index) {
  return Guarded(context, static_cast<const char*>(nullptr), [&](Context& ctx) -> const char* {
    const std::vector<ContinuousActionSpec>& specs = ctx.engine->continuous_actions();
    if (!InRange(index, specs.size())) {
      return Fail(ctx, nullptr,
                  OutOfRange("act_continuous_name", "action", index, specs.size()));
    }
    return specs[index].name.c_str();
  });
}

int ActContinuousBounds(void* context, int index, double* min_value, double* max_value) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (min_value == nullptr || max_value == nullptr) {
      return Fail(ctx, 1, "act_continuous_bounds: min_value and max_value must not be null");
    }
    const std::vector<ContinuousActionSpec>& specs = ctx.engine->continuous_actions();
    if (!InRange(index, specs.size())) {
      return Fail(ctx, 1, OutOfRange("act_continuous_bounds", "action", index, specs.size()));
    }
    *min_value = specs[index].min;
    *max_value = specs[index].max;
    return 0;
  });
}

int ActContinuous(void* context, const double* actions) {
  return Guarded(context, 1, [&](Context& ctx) {
    if (std::string why = NotInitialised(ctx, "act_continuous"); !why.empty()) {
      return Fail(ctx, 1, std::move(why));
    }
    const std::size_t count = ctx.engine->continuous_actions().size();
    if (actions == nullptr && count > 0) {
      return Fail(ctx, 1, "act_continuous: actions must not be null");
    }
    absl::Status status = ctx.engine->ActContinuous({actions, count});
    if (!status.ok()) return Fail(ctx, 1, absl::StrCat("act_continuous: ", status.message()));
    return 0;
  });
}

}  // namespace

void FillActionEntries(EnvCApi* api) {
  api->act_discrete_count = ActDiscreteCount;
  api->act_discrete_name = ActDiscreteName;
  api->act_discrete_bounds = ActDiscreteBounds;
  api->act_discrete = ActDiscrete;
  api->act_continuous_count = ActContinuousCount;
  api->act_continuous_name = ActContinuousName;
  api->act_continuous_bounds = ActContinuousBounds;
  api->act_continuous = ActContinuous;
}

}  // namespace c_api
}  // namespace engine_plugin
