#include "hosts/maze/text_map.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace hosts::maze {
namespace {

constexpr char kNoVariation = '.';

// As in DeepMind Lab, any character may stand in the entity layer; the
// ones the maze does not give a meaning are floor. Only printable ASCII is
// taken, so that a tab or a stray byte is an error rather than floor.
bool IsEntity(char c) { return c >= ' ' && c <= '~'; }
// As in DeepMind Lab, a variation is any character, and the letters
// colour their cells; levels mark other things with the rest.
constexpr char kVariationCharacters[] =
    "a printable ASCII character ('A'..'Z' colour a region; '.', ' ' and the rest do not)";
constexpr char kEntityCharacters[] =
    "a printable ASCII character ('*' wall; 'P', 'A', 'G', 'I', 'H' and any other on floor)";
bool IsLetter(char c) { return c >= 'A' && c <= 'Z'; }

// The character as a C literal would spell it, so that a tab or a stray
// '\r' is visible in a message.
std::string Quoted(char c) {
  return absl::StrCat("'", absl::CHexEscape(absl::string_view(&c, 1)), "'");
}

// Calls visit(index, line) for each line of `text`, without its '\n' and
// without a '\r' before it, until visit returns an error. A final '\n'
// ends the last line rather than starting an empty one. Lines are visited
// in place: a huge text costs no memory beyond itself.
template <typename Visit>
absl::Status ForEachLine(absl::string_view text, Visit visit) {
  int index = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    absl::string_view line = text.substr(0, end);
    text = end == absl::string_view::npos ? absl::string_view() : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (absl::Status status = visit(index, line); !status.ok()) return status;
    ++index;
  }
  return absl::OkStatus();
}

absl::Status CellError(absl::string_view layer, int row, int col, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat(layer, " line ", row + 1, ", column ", col + 1, ": ", why));
}

std::string JoinRows(const std::string& cells, int rows, int cols) {
  std::string text;
  text.reserve(static_cast<std::size_t>(rows) * (cols + 1));
  for (int row = 0; row < rows; ++row) {
    text.append(cells, static_cast<std::size_t>(row) * cols, cols);
    text.push_back('\n');
  }
  return text;
}

// floor(v) as an int, clamped far outside any map (whose size is at most
// MapLayers::kMaxSize), so that the cell arithmetic after it cannot
// overflow. NaN lies outside every map too.
int FloorClamped(double v) {
  constexpr double kFar = 1 << 30;
  if (!(v > -kFar)) return -(1 << 30);
  if (v >= kFar) return 1 << 30;
  return static_cast<int>(std::floor(v));
}

}  // namespace

absl::StatusOr<MapLayers> MapLayers::Parse(absl::string_view entity_layer,
                                           absl::string_view variations_layer) {
  // First the extent, so that an oversized map is refused before anything
  // is allocated for it.
  int rows = 0;
  std::size_t cols = 0;
  absl::Status status = ForEachLine(entity_layer, [&](int index, absl::string_view line) {
    if (index >= kMaxSize) {
      return absl::InvalidArgumentError(
          absl::StrCat("entity layer: more than ", kMaxSize, " lines, the limit"));
    }
    if (line.size() > static_cast<std::size_t>(kMaxSize)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "entity layer line ", index + 1, ": ", line.size(), " columns; the limit is ", kMaxSize));
    }
    rows = index + 1;
    cols = std::max(cols, line.size());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;

  MapLayers layers;
  layers.rows_ = rows;
  layers.cols_ = static_cast<int>(cols);
  // Short rows are padded with wall: an open border never lets the player out.
  layers.entities_.assign(static_cast<std::size_t>(rows) * cols, '*');
  layers.variations_.assign(layers.entities_.size(), kNoVariation);

  status = ForEachLine(entity_layer, [&](int row, absl::string_view line) {
    for (std::size_t col = 0; col < line.size(); ++col) {
      if (!IsEntity(line[col])) {
        return CellError("entity layer", row, static_cast<int>(col),
                         absl::StrCat("unknown character ", Quoted(line[col]), "; expected ",
                                      kEntityCharacters));
      }
      layers.entities_[row * cols + col] = line[col];
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;

  status = ForEachLine(variations_layer, [&](int row, absl::string_view line) {
    for (std::size_t col = 0; col < line.size(); ++col) {
      const char c = line[col];
      if (c == '.' || c == ' ') continue;
      if (!IsEntity(c)) {
        return CellError(
            "variations layer", row, static_cast<int>(col),
            absl::StrCat("unknown character ", Quoted(c), "; expected ", kVariationCharacters));
      }
      if (!IsLetter(c) && (row >= rows || col >= cols)) continue;  // marks nothing
      // A letter would colour nothing there; it is a mistake in the map.
      if (row >= rows || col >= cols) {
        return CellError(
            "variations layer", row, static_cast<int>(col),
            absl::StrCat(Quoted(c), " lies outside the entity layer (", rows, " x ", cols, ")"));
      }
      layers.variations_[row * cols + col] = c;
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return layers;
}

absl::StatusOr<MapLayers> MapLayers::Walls(int rows, int cols) {
  if (rows < 1 || rows > kMaxSize || cols < 1 || cols > kMaxSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a map of ", rows, " x ", cols, " cells; each side must be in [1, ", kMaxSize, "]"));
  }
  MapLayers layers;
  layers.rows_ = rows;
  layers.cols_ = cols;
  layers.entities_.assign(static_cast<std::size_t>(rows) * cols, '*');
  layers.variations_.assign(layers.entities_.size(), kNoVariation);
  return layers;
}

bool MapLayers::Inside(int row, int col) const {
  return row >= 0 && row < rows_ && col >= 0 && col < cols_;
}

char MapLayers::Entity(int row, int col) const {
  return Inside(row, col) ? entities_[row * cols_ + col] : '*';
}

char MapLayers::Variation(int row, int col) const {
  return Inside(row, col) ? variations_[row * cols_ + col] : kNoVariation;
}

absl::Status MapLayers::SetEntity(int row, int col, char entity) {
  if (!Inside(row, col)) {
    return absl::OutOfRangeError(
        absl::StrCat("cell (", row, ", ", col, ") is outside the ", rows_, " x ", cols_, " map"));
  }
  if (!IsEntity(entity)) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown entity ", Quoted(entity), "; expected ", kEntityCharacters));
  }
  entities_[row * cols_ + col] = entity;
  return absl::OkStatus();
}

absl::Status MapLayers::SetVariation(int row, int col, char variation) {
  if (!Inside(row, col)) {
    return absl::OutOfRangeError(
        absl::StrCat("cell (", row, ", ", col, ") is outside the ", rows_, " x ", cols_, " map"));
  }
  if (variation == ' ') variation = kNoVariation;
  if (!IsEntity(variation)) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown variation ", Quoted(variation), "; expected ", kVariationCharacters));
  }
  variations_[row * cols_ + col] = variation;
  return absl::OkStatus();
}

std::string MapLayers::EntityLayer() const { return JoinRows(entities_, rows_, cols_); }
std::string MapLayers::VariationsLayer() const { return JoinRows(variations_, rows_, cols_); }

absl::StatusOr<TextMap> TextMap::Parse(absl::string_view entity_layer,
                                       absl::string_view variations_layer) {
  absl::StatusOr<MapLayers> layers = MapLayers::Parse(entity_layer, variations_layer);
  if (!layers.ok()) return layers.status();
  return FromLayers(*layers);
}

absl::StatusOr<TextMap> TextMap::FromLayers(const MapLayers& layers) {
  TextMap map;
  map.rows_ = layers.rows();
  map.cols_ = layers.cols();
  const std::size_t cells = static_cast<std::size_t>(map.rows_) * map.cols_;
  map.walls_.reserve(cells);
  map.variations_.reserve(cells);
  map.entities_.reserve(cells);
  for (int row = 0; row < map.rows_; ++row) {
    for (int col = 0; col < map.cols_; ++col) {
      const char entity = layers.Entity(row, col);
      const char variation = layers.Variation(row, col);
      map.entities_.push_back(entity);
      // A door is closed until its spawn variables open it.
      map.walls_.push_back(entity == '*' || entity == 'I' || entity == 'H');
      map.variations_.push_back(IsLetter(variation) ? variation : 0);
      if (entity == 'P') map.spawns_.push_back({row, col});
      if (entity == 'A') map.pickups_.push_back({PickupKind::kReward, {row, col}});
      if (entity == 'I' || entity == 'H') map.doors_.push_back({{row, col}, entity});
      if (entity == 'G') map.pickups_.push_back({PickupKind::kGoal, {row, col}});
    }
  }
  if (map.spawns_.empty()) {
    return absl::InvalidArgumentError("the map has no spawn point ('P')");
  }
  return map;
}

void TextMap::OpenDoor(GridCell cell) {
  if (IsDoor(cell.row, cell.col)) walls_[cell.row * cols_ + cell.col] = 0;
}

void TextMap::CloseDoor(GridCell cell) {
  if (IsDoor(cell.row, cell.col)) walls_[cell.row * cols_ + cell.col] = 1;
}

WorldPoint TextMap::CellCentre(GridCell cell) const {
  return {cell.col + 0.5, rows_ - cell.row - 0.5};
}

GridCell TextMap::CellAt(WorldPoint point) const {
  // Cell (row, col) covers y in [rows - row - 1, rows - row).
  return {rows_ - 1 - FloorClamped(point.y), FloorClamped(point.x)};
}

std::string TextMap::EntityLayer() const {
  return JoinRows(std::string(entities_.begin(), entities_.end()), rows_, cols_);
}

std::string TextMap::VariationsLayer() const {
  std::string letters(variations_.begin(), variations_.end());
  for (char& c : letters) {
    if (c == 0) c = kNoVariation;
  }
  return JoinRows(letters, rows_, cols_);
}

}  // namespace hosts::maze
