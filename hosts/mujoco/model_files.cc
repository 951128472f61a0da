#include "hosts/mujoco/model_files.h"

#include <mujoco/mjxmacro.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "engine_plugin/level_files.h"
#include "hosts/mujoco/mjcf_scan.h"
#include "hosts/mujoco/mujoco_errors.h"
#include "levels/builtin_levels.h"

namespace hosts::mujoco {
namespace {

// Deep enough for any real model, shallow enough that a cycle of
// includes (which MuJoCo itself refuses) ends here first.
constexpr int kMaxIncludeDepth = 8;
constexpr int kMaxFiles = 256;
// MuJoCo 2.2's default <size njmax>.
constexpr double kDefaultNjmax = 500;
// What MuJoCo's compiler takes per MJCF element, generously: its
// objects, their names and defaults, and the model's arrays.
constexpr double kCompilerBytesPerElement = 4096;
// What one point of a <composite> becomes: a body, a geom, three joints,
// a site, and two tendons or equalities to its neighbours.
constexpr std::int64_t kElementsPerCompositePoint = 8;
// The VFS name of MJCF text a level returns.
constexpr char kTextModelName[] = "level_model.xml";

std::string Basename(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string Join(const std::string& directory, const std::string& file) {
  if (directory.empty()) return file;
  return absl::EndsWith(directory, "/") ? directory + file : absl::StrCat(directory, "/", file);
}

// "" when `path` (an attribute's value) may name something inside the
// level's folder: relative, without '..' or backslashes.
std::string CheckRelative(const std::string& path) {
  if (absl::StartsWith(path, "/")) return "an absolute path";
  if (absl::StrContains(path, '\\')) return "a backslash";
  for (absl::string_view part : absl::StrSplit(path, '/')) {
    if (part == "..") return "'..'";
  }
  return {};
}

// `path` resolved, when it is `root` or inside it.
bool Inside(const std::string& root, const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return false;
  const std::string real(resolved);
  std::free(resolved);
  return real == root || absl::StartsWith(real, root + "/");
}

// The number `text` starts with, as MuJoCo's parser reads an attribute:
// it takes "20000000>00" as 20000000 (a strict parse skipped that count,
// and MuJoCo made a 160 MB mjData under a 16 MiB budget: a fuzz finding).
bool LeadingNumber(absl::string_view text, double* number) {
  const std::string copy(text);
  char* end = nullptr;
  *number = std::strtod(copy.c_str(), &end);
  return end != copy.c_str() && !std::isnan(*number);
}

// Which compiler directory an element's files are under.
enum class FileKind { kInclude, kMesh, kTexture };

std::optional<FileKind> KindOf(const std::string& element) {
  if (element == "include") return FileKind::kInclude;
  if (element == "mesh" || element == "skin" || element == "hfield") return FileKind::kMesh;
  if (element == "texture") return FileKind::kTexture;
  return std::nullopt;
}

// Reads the model and what it refers to into `files` (VFS name -> bytes),
// checking the rules of model_files.h.
class ModelReader {
 public:
  // Files resolve against `directory` (the main model's), and must stay
  // inside `root` (the level's folder).
  ModelReader(std::string root, std::size_t memory_bytes)
      : directory_(root), level_folder_(std::move(root)), memory_bytes_(memory_bytes) {}

  void set_directory(std::string directory) { directory_ = std::move(directory); }

  // Whether `path`, once links are resolved, lies inside the level's folder.
  bool Contains(const std::string& path) const { return Inside(root_, path); }

  absl::Status Init() {
    if (level_folder_.empty()) return absl::OkStatus();
    char* resolved = realpath(level_folder_.c_str(), nullptr);
    if (resolved == nullptr) {
      return absl::NotFoundError(absl::StrCat("the level's folder '", level_folder_, "' is gone"));
    }
    root_ = resolved;
    std::free(resolved);
    return absl::OkStatus();
  }

  // Scans `xml`, from `name` (for messages), and the files it includes.
  absl::Status Scan(const std::string& name, absl::string_view xml, int depth) {
    absl::Status scanned = ScanMjcf(xml, [&](const MjcfElement& element) {
      return Visit(element, depth);
    });
    if (scanned.ok()) return scanned;
    return absl::Status(scanned.code(), absl::StrCat("model '", name, "' ", scanned.message()));
  }

  absl::Status Add(const std::string& vfs_name, const std::string& path, std::string bytes) {
    auto [it, inserted] = files_.try_emplace(vfs_name, path, std::move(bytes));
    if (!inserted && it->second.first != path) {
      return absl::InvalidArgumentError(absl::StrCat(
          "model files '", it->second.first, "' and '", path,
          "' share the name '", vfs_name, "': MuJoCo finds files by name, so rename one"));
    }
    if (inserted) {
      total_bytes_ += it->second.second.size();
      if (files_.size() > kMaxFiles) {
        return absl::ResourceExhaustedError(
            absl::StrCat("the model refers to more than ", kMaxFiles, " files"));
      }
      if (total_bytes_ > memory_bytes_) return TooLarge("its files", total_bytes_);
    }
    return absl::OkStatus();
  }

  // MuJoCo's compiler builds the whole model, and an mjData to check it,
  // before LoadModel can measure either: their sizes are bounded here
  // from what the scan counted. A joint has at most 6 degrees of freedom;
  // mjData holds njmax x njmax and 2 x njmax x nv doubles of constraint
  // matrices besides its stack; each element costs the compiler about
  // kCompilerBytesPerElement.
  absl::Status CheckCompilation() const {
    const double nv = 6.0 * joints_;
    const double data = sizeof(mjtNum) * (njmax_ * njmax_ + 2 * njmax_ * nv + nstack_);
    if (data > memory_bytes_) return TooLarge("mjData (while compiling)", data);
    const double compiler = static_cast<double>(elements_) * kCompilerBytesPerElement;
    if (compiler > memory_bytes_) return TooLarge("compilation", compiler);
    return absl::OkStatus();
  }

  const std::map<std::string, std::pair<std::string, std::string>>& files() const {
    return files_;
  }

  absl::Status TooLarge(absl::string_view what, double bytes) const {
    return absl::ResourceExhaustedError(absl::StrCat(
        // Printed as a double: a count of 10^70 is no long long (a fuzz
        // finding, mujoco_model).
        "the model's ", what, " would take ", absl::StrFormat("%.0f", bytes / 1e6),
        " MB, more than the ", memory_bytes_ >> 20, " MiB the level may use "
        "(tensorMemoryLimitMegabytes)"));
  }

 private:
  absl::Status Visit(const MjcfElement& element, int depth) {
    const std::string where = absl::StrCat("line ", element.line, ": <", element.name, "> ");
    ++elements_;
    if (element.name == "joint" || element.name == "freejoint") ++joints_;
    if (element.name == "composite") CountComposite(element);
    if (absl::Status sized = CheckSizes(element, where); !sized.ok()) return sized;
    for (const auto& [name, value] : element.attributes) {
      const bool is_directory = absl::EndsWith(name, "dir");
      if (!is_directory && !absl::StartsWith(name, "file")) continue;
      if (value.empty()) continue;
      if (level_folder_.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, name, "='", value, "': a built-in level's model refers to no file"));
      }
      if (std::string why = CheckRelative(value); !why.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, name, "='", value, "' must stay inside the level's folder, not hold ", why));
      }
      if (is_directory) {
        if (name == "meshdir") mesh_directory_ = value;
        if (name == "texturedir") texture_directory_ = value;
        continue;
      }
      const std::optional<FileKind> kind = KindOf(element.name);
      if (!kind) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, name, "='", value, "': a file attribute MuJoCo 2.2 has no use for"));
      }
      if (absl::Status read = ReadReference(*kind, value, where, depth); !read.ok()) return read;
    }
    return absl::OkStatus();
  }

  absl::Status ReadReference(FileKind kind, const std::string& file, const std::string& where,
                             int depth) {
    const std::string& under = kind == FileKind::kMesh      ? mesh_directory_
                               : kind == FileKind::kTexture ? texture_directory_
                                                            : kNone;
    const std::string path = Join(Join(directory_, under), file);
    if (!Contains(path)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, "file '", file, "': ", path, " is missing or outside the level's folder"));
    }
    absl::StatusOr<std::string> bytes = engine_plugin::ReadLevelFile(path);
    if (!bytes.ok()) return absl::Status(bytes.status().code(),
                                         absl::StrCat(where, bytes.status().message()));
    if (kind == FileKind::kInclude) {
      // Each file is scanned once: a file included from several places
      // would be read and scanned again at each (twelve includes of
      // twelve, eight deep, is 12^8 scans), and MuJoCo would expand it
      // again at each too.
      if (!included_.insert(path).second) {
        return absl::InvalidArgumentError(absl::StrCat(
            where, "file '", file, "' is included more than once; include it in one place"));
      }
      if (depth >= kMaxIncludeDepth) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, "includes nest deeper than ", kMaxIncludeDepth));
      }
      if (absl::Status scanned = Scan(file, *bytes, depth + 1); !scanned.ok()) return scanned;
    }
    return Add(Basename(file), path, *std::move(bytes));
  }

  // A <composite> is one element that MuJoCo's compiler expands into a
  // body per point of its count="x y z" grid, each with a geom, up to three
  // joints, a site, and tendons or equalities that tie it to its
  // neighbours: counted here as what it becomes, so that CheckCompilation
  // bounds it (count="25 25 25" took 19.6 s and 701 MB to compile).
  void CountComposite(const MjcfElement& element) {
    for (const auto& [name, value] : element.attributes) {
      if (name != "count") continue;
      double points = 1;
      for (absl::string_view part : absl::StrSplit(value, ' ', absl::SkipWhitespace())) {
        double count = 0;
        if (LeadingNumber(part, &count) && count > 1) points *= count;
      }
      elements_ += static_cast<std::int64_t>(std::min(points, 1e15)) * kElementsPerCompositePoint;
      joints_ += static_cast<std::int64_t>(std::min(points, 1e15)) * 3;
    }
  }

  // Counts that make the compiler allocate, before it does.
  absl::Status CheckSizes(const MjcfElement& element, const std::string& where) {
    double product = 1;
    bool has_product = false;
    for (const auto& [name, value] : element.attributes) {
      const bool counted = (element.name == "size" && absl::StartsWith(name, "n")) ||
                           ((element.name == "hfield") && (name == "nrow" || name == "ncol")) ||
                           ((element.name == "texture") && (name == "width" || name == "height"));
      if (!counted) continue;
      double count = 0;
      if (!LeadingNumber(value, &count)) continue;  // MuJoCo's error
      if (element.name == "size" && name == "njmax") njmax_ = count;
      if (element.name == "size" && name == "nstack") nstack_ = count;
      if (element.name == "size") {
        if (count * sizeof(mjtNum) > memory_bytes_) {
          return TooLarge(absl::StrCat("<size ", name, "=", value, ">"), count * sizeof(mjtNum));
        }
      } else {
        product *= count;
        has_product = true;
      }
    }
    // Floats per height-field sample; a cube texture's six RGB faces.
    const double bytes = product * (element.name == "hfield" ? sizeof(float) : 6 * 3);
    if (has_product && bytes > memory_bytes_) {
      return TooLarge(absl::StrCat(where, "size"), bytes);
    }
    return absl::OkStatus();
  }

  static inline const std::string kNone;
  std::string directory_;
  std::string level_folder_;
  std::string root_;  // level_folder_, resolved
  std::size_t memory_bytes_;
  std::string mesh_directory_;
  std::string texture_directory_;
  std::size_t total_bytes_ = 0;
  std::int64_t elements_ = 0;
  std::int64_t joints_ = 0;
  double njmax_ = kDefaultNjmax;
  double nstack_ = 0;
  std::set<std::string> included_;  // paths of the <include>d files
  // VFS name -> (path, bytes)
  std::map<std::string, std::pair<std::string, std::string>> files_;
};

struct VfsDeleter {
  void operator()(mjVFS* vfs) const {
    mj_deleteVFS(vfs);
    delete vfs;
  }
};

absl::StatusOr<ModelPtr> Compile(const ModelReader& reader, const std::string& main_path) {
  // About 2 MB of names: on the heap.
  std::unique_ptr<mjVFS, VfsDeleter> vfs(new mjVFS);
  mj_defaultVFS(vfs.get());
  for (const auto& entry : reader.files()) {
    // Named, not bound: clang 14's lambdas cannot capture a binding.
    const std::string& name = entry.first;
    const std::string& bytes = entry.second.second;
    // MuJoCo's VFS takes no empty file, nor a name of mjMAXVFSNAME bytes:
    // a fatal error that ended the process (a fuzz finding: {xml = ''}).
    if (bytes.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("model file '", name, "' is empty"));
    }
    if (name.size() >= mjMAXVFSNAME) {
      return absl::InvalidArgumentError(
          absl::StrCat("model file '", name.substr(0, 64), "...': its name is longer than ",
                       mjMAXVFSNAME - 1, " bytes"));
    }
    int made = -1;
    absl::Status guarded = Guarded("adding a model file", [&] {
      if (bytes.size() <= static_cast<std::size_t>(INT_MAX)) {
        made = mj_makeEmptyFileVFS(vfs.get(), name.c_str(), static_cast<int>(bytes.size()));
      }
    });
    if (!guarded.ok()) return guarded;
    if (made != 0) {
      return absl::ResourceExhaustedError(absl::StrCat("model file '", name, "' does not fit"));
    }
    std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), name.c_str())], bytes.data(),
                bytes.size());
  }
  char error[1024] = "";
  mjModel* model = nullptr;
  absl::Status guarded = Guarded("loading the model", [&] {
    model = mj_loadXML(main_path.c_str(), vfs.get(), error, sizeof(error));
  });
  if (!guarded.ok()) return guarded;
  if (model == nullptr) {
    std::string message(error);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    return absl::InvalidArgumentError(absl::StrCat("MuJoCo could not load the model: ", message));
  }
  return ModelPtr(model);
}

// mjData's bytes for `model` (its buffer and its stack), before making it.
std::size_t DataBytes(const mjModel& model) {
  const mjModel* m = &model;
  MJDATA_POINTERS_PREAMBLE(m)
  double bytes = 0;
#define X(type, name, nr, nc) bytes += static_cast<double>(sizeof(type)) * m->nr * (nc);
  MJDATA_POINTERS
#undef X
  bytes += static_cast<double>(m->nstack) * sizeof(mjtNum);
  if (bytes >= static_cast<double>(std::numeric_limits<std::size_t>::max() / 2)) {
    return std::numeric_limits<std::size_t>::max() / 2;
  }
  return static_cast<std::size_t>(bytes);
}

}  // namespace

absl::StatusOr<LoadedModel> LoadModel(const ModelRequest& request, const std::string& directory,
                                      std::size_t memory_bytes) {
  ModelReader reader(directory, memory_bytes);
  if (absl::Status ready = reader.Init(); !ready.ok()) return ready;
  std::string main_name = kTextModelName;
  std::string xml = request.xml;
  std::string main_path = Join(directory, main_name);
  if (!request.file.empty()) {
    if (std::string why = CheckRelative(request.file); !why.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "model file '", request.file, "' must stay inside the level's folder, not hold ", why));
    }
    main_name = Basename(request.file);
    if (directory.empty()) {
      std::optional<absl::string_view> builtin = levels::FindBuiltinLevelFile(request.file);
      if (!builtin) {
        return absl::NotFoundError(absl::StrCat("no built-in model file '", request.file, "'"));
      }
      xml = std::string(*builtin);
      main_path = main_name;
    } else {
      main_path = Join(directory, request.file);
      reader.set_directory(main_path.substr(0, main_path.rfind('/')));
      if (!reader.Contains(main_path)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "model file '", request.file, "': ", main_path,
            " is missing or outside the level's folder"));
      }
      absl::StatusOr<std::string> read = engine_plugin::ReadLevelFile(main_path);
      if (!read.ok()) return read.status();
      xml = *std::move(read);
    }
  }
  if (absl::Status scanned = reader.Scan(main_name, xml, 0); !scanned.ok()) return scanned;
  if (absl::Status bounded = reader.CheckCompilation(); !bounded.ok()) return bounded;
  if (absl::Status added = reader.Add(main_name, main_path, std::move(xml)); !added.ok()) {
    return added;
  }
  absl::StatusOr<ModelPtr> model = Compile(reader, main_path);
  if (!model.ok()) return model.status();
  LoadedModel loaded;
  loaded.bytes = static_cast<std::size_t>(mj_sizeModel(model->get())) + DataBytes(**model);
  if (loaded.bytes > memory_bytes) return reader.TooLarge("model and data", loaded.bytes);
  mjData* data = nullptr;
  absl::Status made = Guarded("making mjData", [&] { data = mj_makeData(model->get()); });
  if (!made.ok()) return made;
  if (data == nullptr) return absl::ResourceExhaustedError("MuJoCo could not allocate mjData");
  loaded.model = *std::move(model);
  loaded.data = DataPtr(data);
  return loaded;
}

}  // namespace hosts::mujoco
