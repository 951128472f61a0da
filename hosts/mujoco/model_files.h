// LoadModel: a level's MuJoCo model, confined to the level's folder and
// bounded in memory.
//
// A level names an MJCF file beside it, or returns MJCF text. Before
// MuJoCo sees a byte, the host reads the model and every file it refers
// to itself (ScanMjcf): an <include>, a mesh, skin, height field or
// texture file (each `file*` attribute), under the <compiler>'s meshdir
// and texturedir. Each must be a relative path without '..' that stays
// inside the level's folder once symbolic links are resolved, a regular
// file (engine_plugin::ReadLevelFile), and all of them together at most
// the memory the level may use. MuJoCo then reads only those bytes, from
// a virtual file system (mjVFS) that holds exactly them: MuJoCo looks
// files up there by name first, so two files of one name in different
// folders are refused as ambiguous. A built-in level's model lives in the
// binary and may refer to no file.
//
// Sizes that make MuJoCo allocate while compiling (a height field's
// nrow x ncol, a texture's width x height, <size>'s counts) are checked
// against the memory the level may use before compiling; the compiled
// model and its mjData arena (mj_sizeModel, and mjData's buffer and
// stack, counted from MuJoCo's own list of its arrays) after, before
// mjData is made. LoadedModel::bytes is what the host then charges to the
// level's budget (lua_api::ChargeTensorMemory).
//
// Errors carry MuJoCo's own message, with the file and line it gives.
//
// Example:
//   absl::StatusOr<LoadedModel> loaded =
//       LoadModel({.file = "cartpole.xml"}, level.directory(), 256 << 20);
#ifndef HOSTS_MUJOCO_MODEL_FILES_H_
#define HOSTS_MUJOCO_MODEL_FILES_H_

#include <mujoco/mujoco.h>

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace hosts::mujoco {

struct ModelDeleter {
  void operator()(mjModel* model) const { mj_deleteModel(model); }
};
struct DataDeleter {
  void operator()(mjData* data) const { mj_deleteData(data); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// What a level's model() names: a file relative to its folder, or text.
struct ModelRequest {
  std::string file;
  std::string xml;
};

struct LoadedModel {
  ModelPtr model;
  DataPtr data;
  std::size_t bytes = 0;  // the model's and the data's
};

// `directory` is the level's folder, "" for a built-in level (whose
// files are the binary's, levels/).
absl::StatusOr<LoadedModel> LoadModel(const ModelRequest& request, const std::string& directory,
                                      std::size_t memory_bytes);

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_MODEL_FILES_H_
