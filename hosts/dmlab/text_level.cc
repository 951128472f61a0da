#include "hosts/dmlab/text_level.h"

#include <cmath>
#include <map>
#include <numbers>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hosts/maze/text_map.h"

namespace hosts::dmlab {
namespace {

using map::Vec3;

constexpr double kHeightScale = 0.2;    // a unit of height, in cells
constexpr double kSpawnHeight = 0.3;    // entities above the floor, in cells
constexpr double kTexelSize = 100;      // game units a texture of scale 1 spans
constexpr double kLightHeight = 0.7;    // in cells
constexpr double kDoorThickness = 0.01;
constexpr double kDoorSurround = 0.01;
constexpr double kFenceThickness = 0.04;
constexpr int kFencePosts = 4;
constexpr int kPlatformThickness = 2;   // units of height
constexpr double kPlatformBorder = 0.075;
constexpr double kSkyBoxSize = 12;      // world units
constexpr int kSkyTextureSize = 1024;
constexpr double kUnit = 1 / map::kGameUnits;  // one game unit, in world units

map::Texture MapTexture(const ThemeTexture& t) {
  map::Texture texture{t.name};
  texture.angle = t.angle;
  texture.scale[0] = kTexelSize / t.width * t.scale;
  texture.scale[1] = kTexelSize / t.height * t.scale;
  return texture;
}

// The layer's lines, empty ones dropped.
std::string NonEmptyLines(const std::string& layer) {
  return absl::StrJoin(absl::StrSplit(layer, '\n', absl::SkipEmpty()), "\n");
}

class Exporter final : public MapMaker {
 public:
  Exporter(int rows, const TextLevelSettings& settings, Theme& theme)
      : rows_(rows), settings_(settings), theme_(theme),
        cell_(settings.cell_size / map::kGameUnits) {
    world_.Set("light", "100");
    world_.Set("worldtype", "2");
  }

  absl::Status status() const { return status_; }

  // The walls, floor, ceiling and light of floor cell (i, j).
  void AddCell(int i, int j, int variation, bool open[4], lua_api::LuaRandom* random) {
    const double x = j, y = rows_ - i - 1;
    const int row = i + 1, col = j + 1;
    if (!open[0]) AddWall({x, y + 1, 0}, {x + 1, y + 1, 1}, {0, -1, 0}, row, col, variation);
    if (!open[1]) AddWall({x + 1, y, 0}, {x + 1, y + 1, 1}, {-1, 0, 0}, row, col, variation);
    if (!open[2]) AddWall({x, y, 0}, {x + 1, y, 1}, {0, 1, 0}, row, col, variation);
    if (!open[3]) AddWall({x, y, 0}, {x, y + 1, 1}, {1, 0, 0}, row, col, variation);
    AddFloor({x, y, 0}, {x + 1, y + 1, 0}, row, col, variation);
    if ((rows_ - i - 1 + j) % 2 == 0) {
      map::Entity light("light", Vec3{x + 0.5, y + 0.5, kLightHeight} * cell_);
      light.Set("light", absl::StrCat(random->UniformInt(10, 19) * 5.0));
      light.Set("spawnflags", "0");
      light.Set("style", "0");
      entities_.push_back(std::move(light));
    }
  }

  // Floor models, wall decals and the sky, once the layout is done.
  void Finalize(double width) {
    if (!status_.ok()) return;
    absl::StatusOr<std::vector<std::pair<int, ThemeModel>>> models = theme_.FloorModels(floors_);
    if (!Check(models.status())) return;
    for (const auto& [index, model] : *models) {
      if (model.name.empty()) continue;
      map::Entity entity("misc_model", floors_[index].centre * cell_ + Vec3{0, 0, 1});
      entity.Set("model", model.name);
      entity.Set("angle", absl::StrCat(model.angle));
      entity.Set("modelscale", absl::StrCat(model.scale));
      entities_.push_back(std::move(entity));
    }
    absl::StatusOr<std::vector<std::pair<int, ThemeTexture>>> decals = theme_.WallDecals(walls_);
    if (!Check(decals.status())) return;
    for (const auto& [index, texture] : *decals) {
      if (!texture.name.empty()) world_.AddPatch(Decal(texture, walls_[index]));
    }
    if (!settings_.skybox.empty()) {
      const Vec3 size = Vec3{width, static_cast<double>(rows_), Height()} * cell_ +
                        Vec3{cell_, cell_, cell_};
      const Vec3 centre = (size - Vec3{cell_, cell_, cell_}) * 0.5;
      for (map::Brush& brush : map::HollowBox(centre + size * 0.5, centre - size * 0.5, 1,
                                              {settings_.skybox})) {
        world_.AddBrush(std::move(brush));
      }
      const Vec3 sky{centre.x - size.x * 0.5 - kSkyBoxSize, centre.y - size.y * 0.5 - kSkyBoxSize,
                     0};
      entities_.emplace_back("_skybox", sky);
      for (map::Brush& brush : map::SkyBox(sky, {kSkyBoxSize, kSkyBoxSize, kSkyBoxSize}, 1,
                                           settings_.skybox, kSkyTextureSize)) {
        world_.AddBrush(std::move(brush));
      }
    }
  }

  std::string ToString() const {
    std::string text = world_.ToString();
    for (const map::Entity& entity : entities_) absl::StrAppend(&text, "\n\n", entity.ToString());
    return text + "\n";
  }

  // MapMaker.
  std::string Entity(double i, double j, double height, const std::string& classname,
                     const std::vector<std::pair<std::string, std::string>>& attributes) override {
    map::Entity entity(classname, CellPoint(i, j, height) * cell_);
    for (const auto& [key, value] : attributes) entity.Set(key, value);
    return entity.ToString();
  }

  std::string SpawnPoint(double i, double j, double height, double angle_radians) override {
    map::Entity spawn("info_player_start", CellPoint(i, j, height) * cell_);
    if (angle_radians != 0) spawn.Set("angle", absl::StrCat(angle_radians * 180 / std::numbers::pi));
    return spawn.ToString();
  }

  std::string Door(double i, double j, char direction) override {
    return DoorText(i, j, direction, false);
  }
  std::string FenceDoor(double i, double j, char direction) override {
    return DoorText(i, j, direction, true);
  }

  void Platform(double i, double j, double height_units) override {
    const int height = static_cast<int>(height_units);
    const double x = j, y = rows_ - i - 1;
    const ThemeTexture* floor = FloorTexture(height);
    if (riser_.path.empty()) riser_ = MapTextureOf(theme_.Riser());
    if (tread_.path.empty()) tread_ = MapTextureOf(theme_.Tread());
    if (floor == nullptr || !status_.ok()) return;
    // In cells, as DeepMind Lab's are: its "unit" of thickness here is a
    // 32nd of a cell.
    const double thin = kUnit, top = height * kHeightScale - thin;
    Box({x, y, top - kPlatformThickness * kHeightScale}, {x + 1, y + 1, top - kPlatformBorder},
        riser_);
    Box({x, y, top - kPlatformBorder}, {x + 1, y + 1, top}, tread_);
    Box({x, y, top}, {x + 1, y + 1, top + thin}, MapTexture(*floor));
  }

  void GlassColumn(double i, double j, double height) override {
    const double x = j, y = rows_ - i - 1;
    Box({x, y, 0}, {x + 1, y + 1, static_cast<int>(height) * kHeightScale},
        map::Texture{"map/poltergeist"});
  }

 private:
  double Height() const { return settings_.ceiling_height; }

  bool Check(const absl::Status& status) {
    if (status_.ok()) status_ = status;
    return status_.ok();
  }

  map::Texture MapTextureOf(const absl::StatusOr<ThemeTexture>& texture) {
    return Check(texture.status()) ? MapTexture(*texture) : map::Texture{"map/poltergeist"};
  }

  // The floor texture of `variation`, asked of the theme once (with the
  // ceiling's); null after an error.
  const ThemeTexture* FloorTexture(int variation) {
    auto found = floors_of_.find(variation);
    if (found == floors_of_.end()) {
      absl::StatusOr<ThemeTexture> floor = theme_.Floor(variation);
      if (!Check(floor.status())) return nullptr;
      found = floors_of_.emplace(variation, *floor).first;
    }
    return &found->second;
  }

  // Corners in cells; the box in world units.
  void Box(Vec3 a, Vec3 b, const map::Texture& texture) {
    world_.AddBrush(map::BoxBrush(a * cell_, b * cell_, texture));
  }

  Vec3 CellPoint(double i, double j, double height) const {
    return {j + 0.5, rows_ - i - 1 + 0.5, height * kHeightScale + kSpawnHeight};
  }

  void AddWall(Vec3 a, Vec3 b, Vec3 inward, int row, int col, int variation) {
    const WallSide side = inward.x > 0   ? WallSide::kWest
                          : inward.x < 0 ? WallSide::kEast
                          : inward.y < 0 ? WallSide::kNorth
                                         : WallSide::kSouth;
    auto key = std::pair{static_cast<int>(side), variation};
    auto found = wall_textures_.find(key);
    if (found == wall_textures_.end()) {
      found = wall_textures_.emplace(key, MapTextureOf(theme_.Wall(variation, side))).first;
    }
    world_.AddBrush(map::BoxBrush(a * cell_ + map::Min({}, inward) * kUnit,
                                  b * cell_ + map::Max({}, inward) * kUnit, found->second));
    walls_.push_back({a, b, inward, row, col, variation, side});
  }

  void AddFloor(Vec3 a, Vec3 b, int row, int col, int variation) {
    const ThemeTexture* floor = FloorTexture(variation);
    auto ceiling = ceilings_.find(variation);
    if (ceiling == ceilings_.end()) {
      ceiling = ceilings_.emplace(variation, MapTextureOf(theme_.Ceiling(variation))).first;
    }
    if (floor == nullptr) return;
    const Vec3 thick{0, 0, kUnit};
    world_.AddBrush(map::BoxBrush(a * cell_, b * cell_ + thick, MapTexture(*floor)));
    if (settings_.skybox.empty()) {
      const Vec3 up{0, 0, Height()};
      world_.AddBrush(map::BoxBrush((a + up) * cell_ - thick, (b + up) * cell_, ceiling->second));
    }
    floors_.push_back({(a + b) * 0.5, row, col, variation});
  }

  map::Patch Decal(const ThemeTexture& texture, const WallSpot& spot) const {
    double scale_x = texture.scale, scale_y = texture.scale;
    if (texture.width > texture.height) scale_y *= static_cast<double>(texture.height) / texture.width;
    if (texture.width < texture.height) scale_x *= static_cast<double>(texture.width) / texture.height;
    // Two units off the wall, so it never fights the wall's own surface.
    const Vec3 centre = (spot.a + spot.b) * (0.5 * cell_) + spot.inward * (2 * kUnit);
    const Vec3 up = map::Rotated({0, 0, 1}, spot.inward, texture.angle);
    return map::GridPatch(centre, -spot.inward, up, scale_x, scale_y, 3, 3, texture.name);
  }

  // A door (or fence door) across cell (i, j), between two triggers that
  // open it.
  std::string DoorText(double i, double j, char direction, bool fence) {
    const double x = j, y = rows_ - i - 1;
    const bool across_x = direction == 'H';  // the door runs along x
    if (!across_x && direction != 'I') return "";
    const std::string target = absl::StrCat("door_", x, "_", y);
    map::Entity door("func_door");
    door.Set("angle", across_x ? "0" : "90");
    door.Set("targetname", target);
    if (fence) {
      const double scale = (1 + 2 * kDoorSurround) / 1024 * kTexelSize;
      map::Texture texture{"door_placeholder:" + target};
      texture.scale[0] = texture.scale[1] = scale;
      for (const auto& [a, b] : FenceBlocks(x, y, across_x)) {
        door.AddBrush(map::BoxBrush(a * cell_, b * cell_, texture));
      }
    } else if (across_x) {
      door.AddBrush(map::FittedBoxBrush(
          Vec3{x + kDoorSurround, y + 0.5 - kDoorThickness, 0} * cell_,
          Vec3{x + 1 - kDoorSurround, y + 0.5 + kDoorThickness, 1} * cell_, "map/fut_door_d",
          1024, 1024));
    } else {
      door.AddBrush(map::FittedBoxBrush(
          Vec3{x + 0.5 - kDoorThickness, y + kDoorSurround, 0} * cell_,
          Vec3{x + 0.5 + kDoorThickness, y + 1 - kDoorSurround, 1} * cell_, "map/fut_door_d",
          1024, 1024));
    }
    const ThemeTexture* floor = FloorTexture(0);
    const map::Texture trigger_texture =
        floor == nullptr ? map::Texture{"map/poltergeist"} : MapTexture(*floor);
    auto trigger = [&](Vec3 a, Vec3 b) {
      map::Entity entity("trigger_multiple");
      entity.Set("target", target);
      entity.Set("wait", "1");
      entity.AddBrush(map::BoxBrush(a * cell_, b * cell_, trigger_texture));
      return entity.ToString();
    };
    const double near = 0.5 - kDoorThickness, far = 0.5 + kDoorThickness;
    const std::string first = across_x ? trigger({x, y, 0}, {x + 1, y + near, 1})
                                       : trigger({x, y, 0}, {x + near, y + 1, 1});
    const std::string second = across_x ? trigger({x, y + far, 0}, {x + 1, y + 1, 1})
                                        : trigger({x + far, y, 0}, {x + 1, y + 1, 1});
    return absl::StrCat(door.ToString(), "\n\n", first, "\n\n", second);
  }

  // A fence door's top and bottom bars and its posts, in cells.
  static std::vector<std::pair<Vec3, Vec3>> FenceBlocks(double x, double y, bool across_x) {
    // Along the door: s; across it: the door's middle line.
    auto block = [&](double s0, double s1, double z0, double z1) {
      return across_x ? std::pair{Vec3{s0, y + 0.5 - kFenceThickness, z0},
                                  Vec3{s1, y + 0.5 + kFenceThickness, z1}}
                      : std::pair{Vec3{x + 0.5 - kFenceThickness, s0, z0},
                                  Vec3{x + 0.5 + kFenceThickness, s1, z1}};
    };
    const double start = across_x ? x : y;
    std::vector<std::pair<Vec3, Vec3>> blocks = {
        block(start + kDoorSurround, start + 1 + kDoorSurround, 1 - 2 * kFenceThickness, 1),
        block(start + kDoorSurround, start + 1 + kDoorSurround, 0, 2 * kFenceThickness),
    };
    // In float, as DeepMind Lab steps them: the same number of posts.
    const float step = (1.0 - 2.0 * kFenceThickness - 2.0 * kDoorSurround) / (kFencePosts - 1);
    for (float s = start + kFenceThickness + kDoorSurround; s < start + 1; s += step) {
      blocks.push_back(block(s - kFenceThickness, s + kFenceThickness, 2 * kFenceThickness,
                             1 - 2 * kFenceThickness));
    }
    return blocks;
  }

  const int rows_;
  const TextLevelSettings& settings_;
  Theme& theme_;
  const double cell_;  // a cell, in world units
  absl::Status status_;
  map::Entity world_{"worldspawn"};
  std::vector<map::Entity> entities_;
  std::map<std::pair<int, int>, map::Texture> wall_textures_;  // (side, variation)
  std::map<int, ThemeTexture> floors_of_;
  std::map<int, map::Texture> ceilings_;
  map::Texture riser_, tread_;
  std::vector<WallSpot> walls_;
  std::vector<FloorSpot> floors_;
};

}  // namespace

absl::StatusOr<ThemeTexture> DefaultTheme::Floor(int) {
  return ThemeTexture{"map/lab_games/lg_style_01_floor_orange"};
}
absl::StatusOr<ThemeTexture> DefaultTheme::Ceiling(int) {
  return ThemeTexture{"map/lab_games/fake_sky"};
}
absl::StatusOr<ThemeTexture> DefaultTheme::Wall(int, WallSide) {
  return ThemeTexture{"map/lab_games/lg_style_01_wall_green"};
}
absl::StatusOr<ThemeTexture> DefaultTheme::Riser() {
  return ThemeTexture{"map/lab_games/lg_style_02_wall_blue"};
}
absl::StatusOr<ThemeTexture> DefaultTheme::Tread() { return ThemeTexture{"map/black_d", 64, 64}; }
absl::StatusOr<std::vector<std::pair<int, ThemeTexture>>> DefaultTheme::WallDecals(
    const std::vector<WallSpot>& spots) {
  std::vector<std::pair<int, ThemeTexture>> decals;
  for (int k = 0; k < static_cast<int>(spots.size()); ++k) {
    decals.emplace_back(k, ThemeTexture{"decal/lab_games/dec_img_style01_001", 1024, 1024, 1, 90});
  }
  return decals;
}
absl::StatusOr<std::vector<std::pair<int, ThemeModel>>> DefaultTheme::FloorModels(
    const std::vector<FloorSpot>&) {
  return std::vector<std::pair<int, ThemeModel>>{};
}

absl::StatusOr<std::string> TranslateTextLevel(const std::string& entity_layer,
                                               const std::string& variations_layer,
                                               const TextLevelSettings& settings, Theme& theme,
                                               lua_api::LuaRandom* random,
                                               const CellCallback& callback) {
  absl::StatusOr<maze::MapLayers> layers = maze::MapLayers::Parse(NonEmptyLines(entity_layer));
  if (!layers.ok()) return layers.status();
  const int rows = layers->rows(), cols = layers->cols();
  if (static_cast<long>(rows) * cols > kMaxTextLevelCells) {
    return absl::InvalidArgumentError(absl::StrCat("the map is ", rows, " x ", cols,
                                                   " cells; at most ", kMaxTextLevelCells));
  }
  auto wall = [&](int i, int j) { return layers->Entity(i, j) == '*'; };
  // The variations layer may be any shape, as in DeepMind Lab: a letter
  // past the map is ignored, a missing one is no variation.
  const std::vector<std::string> variations =
      absl::StrSplit(variations_layer, '\n', absl::SkipEmpty());
  auto variation = [&](int i, int j) {
    if (i >= static_cast<int>(variations.size()) || j >= static_cast<int>(variations[i].size())) {
      return 0;
    }
    const char v = variations[i][j];
    return v >= 'A' && v <= 'Z' ? static_cast<int>(v) : 0;
  };
  Exporter exporter(rows, settings, theme);
  if (settings.draw_default_layout) {
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) {
        if (wall(i, j)) continue;
        // Open towards a neighbour that is floor too (north, east, south,
        // west); the map's edge is closed.
        bool open[4] = {i > 0 && !wall(i - 1, j), j + 1 < cols && !wall(i, j + 1),
                        i + 1 < rows && !wall(i + 1, j), j > 0 && !wall(i, j - 1)};
        exporter.AddCell(i, j, variation(i, j), open, random);
      }
    }
  }
  exporter.Finalize(cols);
  if (!exporter.status().ok()) return exporter.status();
  std::vector<std::string> snippets;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      if (wall(i, j)) continue;
      const char c = layers->Entity(i, j);
      absl::StatusOr<std::optional<std::vector<std::string>>> made = callback(i, j, c, exporter);
      if (!made.ok()) return made.status();
      if (!exporter.status().ok()) return exporter.status();
      if (made->has_value()) {
        for (std::string& snippet : **made) {
          if (!snippet.empty()) snippets.push_back(std::move(snippet));
        }
      } else if (c == 'P') {
        snippets.push_back(exporter.SpawnPoint(i, j, 0, 0));
      } else if (c == 'H' || c == 'I') {
        snippets.push_back(exporter.Door(i, j, c));
      }
    }
  }
  return absl::StrCat(exporter.ToString(), "\n", absl::StrJoin(snippets, "\n\n"), "\n\n");
}

}  // namespace hosts::dmlab
