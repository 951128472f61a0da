#include "engine_plugin/transform_module.h"

#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/model/affine.h"
#include "engine_plugin/model/model_lua.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"

namespace engine_plugin {
namespace {

using lua_api::ArgumentError;
using lua_api::NResultsOr;

using model::Affine;

// The list of three numbers at stack `index` (read raw), as floats.
std::string ReadVector(lua_State* L, int index, const char* function, int argument,
                       std::array<float, 3>* v) {
  if (!lua_istable(L, index)) {
    return ArgumentError(function, argument, lua_api::Expected(L, index, "{x, y, z}"));
  }
  for (int i = 0; i < 3; ++i) {
    lua_rawgeti(L, index, i + 1);
    double value = 0;
    std::string why = lua_api::ReadNumber(L, -1, &value);
    lua_pop(L, 1);
    if (!why.empty()) {
      return ArgumentError(function, argument, absl::StrCat("{x, y, z}: entry ", i + 1, ": ", why));
    }
    (*v)[i] = static_cast<float>(value);
  }
  return {};
}

// [-0, +1, e] Pushes `m` as DeepMind Lab does: a {4, 4} FloatTensor over the
// column-major coefficients.
NResultsOr PushMatrix(lua_State* L, const Affine& m, const char* function) {
  if (std::string why = model::PushAffine(L, m); !why.empty()) {
    return absl::StrCat("'", function, "': ", why);
  }
  return 1;
}

// [-0, +1, e]
NResultsOr Translate(lua_State* L) {
  std::array<float, 3> offset;
  if (std::string e = ReadVector(L, 1, "transform.translate", 1, &offset); !e.empty()) return e;
  return PushMatrix(L, Affine::Translation(offset), "transform.translate");
}

// [-0, +1, e]
NResultsOr Scale(lua_State* L) {
  std::array<float, 3> factors;
  if (std::string e = ReadVector(L, 1, "transform.scale", 1, &factors); !e.empty()) return e;
  Affine m = Affine::Identity();
  for (int i = 0; i < 3; ++i) m.at(i, i) = factors[i];
  return PushMatrix(L, m, "transform.scale");
}

// [-0, +1, e] The rotation by `degrees` about the unit `axis` (Rodrigues' formula, as
// Eigen's AngleAxis evaluates it, in float).
NResultsOr Rotate(lua_State* L) {
  constexpr char kName[] = "transform.rotate";
  double degrees = 0;
  if (std::string why = lua_api::ReadNumber(L, 1, &degrees); !why.empty()) {
    return ArgumentError(kName, 1, why);
  }
  std::array<float, 3> a;
  if (std::string e = ReadVector(L, 2, kName, 2, &a); !e.empty()) return e;
  const float angle = static_cast<float>(degrees) * std::numbers::pi_v<float> / 180.0f;
  const float c = std::cos(angle), s = std::sin(angle);
  const float sin_axis[3] = {s * a[0], s * a[1], s * a[2]};
  const float cos1_axis[3] = {(1 - c) * a[0], (1 - c) * a[1], (1 - c) * a[2]};
  Affine m = Affine::Identity();
  auto at = [&m](int row, int col) -> float& { return m.at(row, col); };
  float t = cos1_axis[0] * a[1];
  at(0, 1) = t - sin_axis[2];
  at(1, 0) = t + sin_axis[2];
  t = cos1_axis[0] * a[2];
  at(0, 2) = t + sin_axis[1];
  at(2, 0) = t - sin_axis[1];
  t = cos1_axis[1] * a[2];
  at(1, 2) = t - sin_axis[0];
  at(2, 1) = t + sin_axis[0];
  for (int i = 0; i < 3; ++i) at(i, i) = cos1_axis[i] * a[i] + c;
  return PushMatrix(L, m, kName);
}

// [-0, +1, m] The loader in package.preload.
int Open(lua_State* L) {
  lua_createtable(L, 0, 3);
  lua_pushcfunction(L, &lua_api::Raising<&Translate>);
  lua_setfield(L, -2, "translate");
  lua_pushcfunction(L, &lua_api::Raising<&Rotate>);
  lua_setfield(L, -2, "rotate");
  lua_pushcfunction(L, &lua_api::Raising<&Scale>);
  lua_setfield(L, -2, "scale");
  return 1;
}

}  // namespace

void RegisterTransformModule(lua_State* L) {
  lua_api::SetPreload(L, "dmlab.system.transform", &Open);
}

}  // namespace engine_plugin
