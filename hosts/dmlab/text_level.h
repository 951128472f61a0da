// DeepMind Lab's text levels as Quake III maps (map_writer.h), for its
// engine to compile and load: what map_maker:mapFromTextLevel builds on
// the dmlab host (map_maker_module.h runs it from Lua).
//
// The geometry is DeepMind Lab's, so that a level plays the same under this
// host as under DeepMind's own context: a cell is 100 game units square
// and one cell high (ceilingHeight cells); a floor cell has a wall, one
// unit thick, on each side that borders wall ('*', or past the end of its
// line); floors and ceilings one unit thick; a light above every other
// cell (by x + y) of strength 10 to 19, drawn from the map maker's
// generator; entities and spawn points 30 units above the floor, plus 20 a
// unit of their height; doors ('H', 'I') as func_door brushes between two
// triggers. A theme gives textures, wall decals and floor models.
//
// Example:
//   TextLevelSettings settings;
//   DefaultTheme theme;
//   absl::StatusOr<std::string> map = TranslateTextLevel(
//       "*****\n*P A*\n*****\n", "", settings, theme, &random, callback);
#ifndef HOSTS_DMLAB_TEXT_LEVEL_H_
#define HOSTS_DMLAB_TEXT_LEVEL_H_

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "hosts/dmlab/map_writer.h"
#include "lua_api/tensor/random.h"

namespace hosts::dmlab {

enum class WallSide { kNorth, kEast, kSouth, kWest };

// A texture a theme names: the asset path, its size in texels, a scale
// and a rotation in degrees.
struct ThemeTexture {
  std::string name = "map/poltergeist";
  int width = 1024;
  int height = 1024;
  double scale = 1;
  double angle = 0;
};

struct ThemeModel {
  std::string name;  // an .md3 under the assets; "" places nothing
  double scale = 1;
  double angle = 0;
};

// Where a decal may go: a wall's face, or a floor cell. Cells are counted
// from 1 (row, column), variations as characters ('A'.., 0 for none).
struct WallSpot {
  map::Vec3 a, b;      // the face's corners, in cells
  map::Vec3 inward;    // the face's normal, into the cell
  int row = 0, col = 0;
  int variation = 0;
  WallSide side = WallSide::kNorth;
};

struct FloorSpot {
  map::Vec3 centre;  // in cells
  int row = 0, col = 0;
  int variation = 0;
};

// A level's look. Errors (a Lua theme's) fail the translation.
class Theme {
 public:
  virtual ~Theme() = default;
  virtual absl::StatusOr<ThemeTexture> Floor(int variation) = 0;
  virtual absl::StatusOr<ThemeTexture> Ceiling(int variation) = 0;
  virtual absl::StatusOr<ThemeTexture> Wall(int variation, WallSide side) = 0;
  virtual absl::StatusOr<ThemeTexture> Riser() = 0;
  virtual absl::StatusOr<ThemeTexture> Tread() = 0;
  // Decals for some of `spots`: (index into spots, texture).
  virtual absl::StatusOr<std::vector<std::pair<int, ThemeTexture>>> WallDecals(
      const std::vector<WallSpot>& spots) = 0;
  virtual absl::StatusOr<std::vector<std::pair<int, ThemeModel>>> FloorModels(
      const std::vector<FloorSpot>& spots) = 0;
};

// DeepMind Lab's look without a theme: orange floors, green walls, the
// same decal on every wall, no models.
class DefaultTheme final : public Theme {
 public:
  absl::StatusOr<ThemeTexture> Floor(int) override;
  absl::StatusOr<ThemeTexture> Ceiling(int) override;
  absl::StatusOr<ThemeTexture> Wall(int, WallSide) override;
  absl::StatusOr<ThemeTexture> Riser() override;
  absl::StatusOr<ThemeTexture> Tread() override;
  absl::StatusOr<std::vector<std::pair<int, ThemeTexture>>> WallDecals(
      const std::vector<WallSpot>&) override;
  absl::StatusOr<std::vector<std::pair<int, ThemeModel>>> FloorModels(
      const std::vector<FloorSpot>&) override;
};

struct TextLevelSettings {
  std::string skybox;          // a sky texture; "" closes the map with ceilings
  double ceiling_height = 1;   // in cells
  double cell_size = 100;      // in game units
  bool draw_default_layout = true;  // false: no walls, floors or lights
};

// What a level's callback may add at a cell; the snippets it returns are
// .map text (entities), in the order returned.
class MapMaker {
 public:
  virtual ~MapMaker() = default;
  // Rows and columns from 0, as the callback gets them; height in units of
  // 20 game units.
  virtual std::string Entity(double i, double j, double height, const std::string& classname,
                             const std::vector<std::pair<std::string, std::string>>& attributes) = 0;
  virtual std::string SpawnPoint(double i, double j, double height, double angle_radians) = 0;
  // A door across cell (i, j): 'I' opens east-west, 'H' north-south.
  virtual std::string Door(double i, double j, char direction) = 0;
  virtual std::string FenceDoor(double i, double j, char direction) = 0;
  virtual void Platform(double i, double j, double height) = 0;
  virtual void GlassColumn(double i, double j, double height) = 0;
};

// The level's callback for a floor cell (row i, column j from 0) holding
// `c`: the snippets to add, or nullopt to leave the cell to the defaults
// ('P' a spawn point, 'H' and 'I' doors).
using CellCallback = std::function<absl::StatusOr<std::optional<std::vector<std::string>>>(
    int i, int j, char c, MapMaker& maker)>;

// The .map text of the level. The layers are split into lines, empty ones
// dropped, as DeepMind Lab reads them; lights draw from `random`. Errors:
// a layer MapLayers refuses (hosts/maze/text_map.h), more than
// kMaxTextLevelCells cells, and the theme's or callback's errors.
inline constexpr int kMaxTextLevelCells = 256 * 256;
absl::StatusOr<std::string> TranslateTextLevel(const std::string& entity_layer,
                                               const std::string& variations_layer,
                                               const TextLevelSettings& settings, Theme& theme,
                                               lua_api::LuaRandom* random,
                                               const CellCallback& callback);

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_TEXT_LEVEL_H_
