// TextMap: a level's map in DeepMind Lab's text format.
//
// Two layers of equal meaning per character cell:
//   entity layer      '*' wall, ' ' floor, 'P' spawn, 'A' apple (+1),
//                     'G' goal (+10), 'I' a door in a wall running north-
//                     south (passage east-west), 'H' one in a wall running
//                     east-west. Any other printable character is floor,
//                     as in DeepMind Lab (where a level's map_maker
//                     callback gives it a meaning); anything else is an
//                     error. A door is closed (solid) until OpenDoor opens
//                     it.
//   variations layer  a letter 'A'..'Z' colours the cell's region (its
//                     walls, in the renderer); '.', ' ', a missing
//                     character or any other printable one (which levels
//                     use as marks, as in DeepMind Lab) colours nothing.
// Rows may differ in length; a missing cell is wall, and so is everything
// outside the map, so an open border can never let the player out.
//
// World coordinates: one cell is one unit. x grows with the column, y grows
// upwards (towards row 0, the map's top line, as in DeepMind Lab). Cell
// (row, col) covers x in [col, col + 1) and y in [rows - row - 1, rows - row).
// Lua sees DeepMind Lab's game units instead, kGameUnitsPerCell to a cell,
// with the same axes.
//
// Example:
//   absl::StatusOr<TextMap> map = TextMap::Parse("*****\n*P A*\n*****\n");
//   map->IsWall(0, 0);                 // true
//   map->spawns()[0];                  // {row 1, col 1}
//   map->CellCentre({1, 3});           // {3.5, 1.5}
#ifndef HOSTS_MAZE_TEXT_MAP_H_
#define HOSTS_MAZE_TEXT_MAP_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace hosts::maze {

// DeepMind Lab's game units (Quake's) in one cell: the units of positions a
// level sees (spawn variables' origins, maze:toWorldPos, game:playerInfo).
inline constexpr double kGameUnitsPerCell = 100;

struct GridCell {
  int row = 0;
  int col = 0;
  friend bool operator==(const GridCell&, const GridCell&) = default;
};

struct WorldPoint {
  double x = 0;
  double y = 0;
};

// MapLayers: a map's two layers as editable grids of characters.
//
// Parse checks characters as TextMap::Parse does but needs no spawn, so a
// script can build a map cell by cell (dmlab.system.maze_generation)
// before it is played; TextMap::FromLayers then makes it playable.
// Cells are 0-based (row 0 is the top line); reading outside the grid
// gives wall and no variation, as TextMap does.
//
// Example:
//   absl::StatusOr<MapLayers> layers = MapLayers::Walls(3, 5);
//   layers->SetEntity(1, 1, 'P');                      // OK
//   layers->SetEntity(1, 2, 'x');                      // InvalidArgument
//   absl::StatusOr<TextMap> map = TextMap::FromLayers(*layers);
class MapLayers {
 public:
  // The largest number of rows, and of columns, of a map.
  static constexpr int kMaxSize = 1024;

  // Errors as TextMap::Parse, except that no spawn is required.
  static absl::StatusOr<MapLayers> Parse(absl::string_view entity_layer,
                                         absl::string_view variations_layer = {});
  // All walls, no variations; 1 <= rows, cols <= kMaxSize.
  static absl::StatusOr<MapLayers> Walls(int rows, int cols);

  int rows() const { return rows_; }
  int cols() const { return cols_; }

  // A printable character: '*' is wall.
  char Entity(int row, int col) const;
  // As set: a printable character, '.' for none.
  char Variation(int row, int col) const;

  // Errors name the cell outside the grid or the character the layer does
  // not allow. SetVariation takes ' ' as '.'.
  absl::Status SetEntity(int row, int col, char entity);
  absl::Status SetVariation(int row, int col, char variation);

  // As TextMap::EntityLayer / VariationsLayer.
  std::string EntityLayer() const;
  std::string VariationsLayer() const;

  // The memory it holds: a Lua maze object charges this to the level's
  // Lua memory cap (lua_api/lua/class.h), since a 1024x1024 maze holds 2 MB.
  std::size_t NativeBytes() const {
    return sizeof(MapLayers) + entities_.capacity() + variations_.capacity();
  }

 private:
  MapLayers() = default;
  bool Inside(int row, int col) const;

  int rows_ = 0;
  int cols_ = 0;
  std::string entities_;    // rows_ * cols_, row-major
  std::string variations_;  // rows_ * cols_, row-major, '.' for none
};

// DeepMind Lab's pickup types that the maze has: a reward adds its
// quantity to the score; a goal does too, and ends the map.
enum class PickupKind { kReward, kGoal };

struct MapPickup {
  PickupKind kind;
  GridCell cell;
};

struct MapDoor {
  GridCell cell;
  char orientation;  // 'I' or 'H', as in the entity layer
};

class TextMap {
 public:
  // Parses an entity layer and an optional variations layer. Errors name
  // the line and column of an unknown character, and a map with no spawn
  // point or larger than 1024 x 1024 cells is an error.
  static absl::StatusOr<TextMap> Parse(absl::string_view entity_layer,
                                       absl::string_view variations_layer = {});
  // The same map from layers already checked; an error only without a spawn.
  static absl::StatusOr<TextMap> FromLayers(const MapLayers& layers);

  int rows() const { return rows_; }
  int cols() const { return cols_; }

  // Walls, closed doors, and every cell outside the map, are solid.
  // Inline, as IsDoor and Variation: the raycaster asks at every cell a ray
  // crosses.
  bool IsWall(int row, int col) const {
    if (!Inside(row, col)) return true;
    return walls_[row * cols_ + col] != 0;
  }
  // Whether the cell holds a door, open or closed.
  bool IsDoor(int row, int col) const {
    if (!Inside(row, col)) return false;
    const char entity = entities_[row * cols_ + col];
    return entity == 'I' || entity == 'H';
  }
  // Opens the door at `cell` (a cell of doors()); the player walks through.
  void OpenDoor(GridCell cell);
  // Closes it again.
  void CloseDoor(GridCell cell);

  // The cell's variation letter 'A'..'Z', or 0 for none (and outside).
  char Variation(int row, int col) const {
    return Inside(row, col) ? variations_[row * cols_ + col] : 0;
  }

  // In reading order (row by row, left to right).
  const std::vector<GridCell>& spawns() const { return spawns_; }
  const std::vector<MapPickup>& pickups() const { return pickups_; }
  const std::vector<MapDoor>& doors() const { return doors_; }

  WorldPoint CellCentre(GridCell cell) const;
  // The cell containing `point` (which may lie outside the map).
  GridCell CellAt(WorldPoint point) const;

  // The layers as text, normalised: every row padded with walls to cols().
  std::string EntityLayer() const;
  std::string VariationsLayer() const;

 private:
  TextMap() = default;

  bool Inside(int row, int col) const { return row >= 0 && row < rows_ && col >= 0 && col < cols_; }

  int rows_ = 0;
  int cols_ = 0;
  std::vector<char> walls_;       // rows_ * cols_, 1 = wall
  std::vector<char> variations_;  // rows_ * cols_, 0 or 'A'..'Z'
  std::vector<char> entities_;    // rows_ * cols_, the entity layer padded
  std::vector<GridCell> spawns_;
  std::vector<MapPickup> pickups_;
  std::vector<MapDoor> doors_;
};

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_TEXT_MAP_H_
