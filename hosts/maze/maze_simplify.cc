#include "hosts/maze/maze_simplify.h"

#include <array>
#include <utility>
#include <vector>

namespace hosts::maze {
namespace {

constexpr std::array<std::pair<int, int>, 4> kSteps = {{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}};

class Layer {
 public:
  Layer(int height, int width, std::string* cells)
      : height_(height), width_(width), cells_(*cells) {}

  bool Floor(int row, int col) const {
    return row >= 0 && row < height_ && col >= 0 && col < width_ && At(row, col) == ' ';
  }
  bool Wall(int row, int col) const {
    return row < 0 || row >= height_ || col < 0 || col >= width_ || At(row, col) == '*';
  }
  void Set(int row, int col, char c) { cells_[Index(row, col)] = c; }
  int FloorNeighbours(int row, int col) const {
    int n = 0;
    for (const auto& [dr, dc] : kSteps) n += Floor(row + dr, col + dc);
    return n;
  }
  int height() const { return height_; }
  int width() const { return width_; }

 private:
  std::size_t Index(int row, int col) const {
    return static_cast<std::size_t>(row) * (width_ + 1) + col;
  }
  char At(int row, int col) const { return cells_[Index(row, col)]; }

  int height_;
  int width_;
  std::string& cells_;
};

// A floor cell with at most one floor neighbour, of which at least three
// are wall.
bool DeadEnd(const Layer& layer, int row, int col) {
  if (!layer.Floor(row, col)) return false;
  int walls = 0;
  for (const auto& [dr, dc] : kSteps) walls += layer.Wall(row + dr, col + dc);
  return walls >= 3;
}

void RemoveDeadEnds(Layer& layer) {
  for (int row = 0; row < layer.height(); ++row) {
    for (int col = 0; col < layer.width(); ++col) {
      // Fill along the corridor the dead end closes.
      int r = row, c = col;
      while (DeadEnd(layer, r, c)) {
        layer.Set(r, c, '*');
        int next_r = -1, next_c = -1;
        for (const auto& [dr, dc] : kSteps) {
          if (layer.Floor(r + dr, c + dc)) next_r = r + dr, next_c = c + dc;
        }
        if (next_r < 0) break;
        r = next_r;
        c = next_c;
      }
    }
  }
}

// The corridor from `from`, first stepping `first` (a step of kSteps),
// through cells of exactly two floor neighbours, to `to`: its inner cells,
// if it reaches `to` after at most two turns; else empty.
std::vector<std::pair<int, int>> UPath(const Layer& layer, std::pair<int, int> from, int first,
                                       std::pair<int, int> to) {
  std::vector<std::pair<int, int>> path;
  int direction = first;
  int turns = 0;
  int r = from.first + kSteps[first].first, c = from.second + kSteps[first].second;
  const int limit = 4 * (layer.height() + layer.width());
  while (static_cast<int>(path.size()) < limit) {
    if (std::pair{r, c} == to) return path;
    if (!layer.Floor(r, c) || layer.FloorNeighbours(r, c) != 2) return {};
    path.push_back({r, c});
    // Onwards: the neighbour that is not where it came from.
    const int back = (direction + 2) % 4;
    int next = -1;
    for (int d = 0; d < 4; ++d) {
      if (d != back && layer.Floor(r + kSteps[d].first, c + kSteps[d].second)) next = d;
    }
    if (next != direction && (turns += 1) > 2) return {};
    direction = next;
    r += kSteps[direction].first;
    c += kSteps[direction].second;
  }
  return {};
}

// Removes the bends whose shortcut is `size` wall cells: whether it did.
bool RemoveBends(Layer& layer, int size) {
  bool removed = false;
  for (int row = 0; row < layer.height(); ++row) {
    for (int col = 0; col < layer.width(); ++col) {
      if (!layer.Floor(row, col)) continue;
      // Along each axis, towards larger indices: kSteps[1] east, [2] south.
      for (const int along : {1, 2}) {
        const auto [dr, dc] = kSteps[along];
        const std::pair<int, int> end = {row + dr * (size + 1), col + dc * (size + 1)};
        if (!layer.Floor(end.first, end.second)) continue;
        bool walled = true;
        for (int k = 1; k <= size && walled; ++k) walled = layer.Wall(row + dr * k, col + dc * k);
        if (!walled) continue;
        // The U leaves sideways, on either side of the line.
        for (const int side : {(along + 1) % 4, (along + 3) % 4}) {
          std::vector<std::pair<int, int>> u = UPath(layer, {row, col}, side, end);
          if (u.empty()) continue;
          for (const auto& [r, c] : u) layer.Set(r, c, '*');
          for (int k = 1; k <= size; ++k) layer.Set(row + dr * k, col + dc * k, ' ');
          removed = true;
          break;
        }
      }
    }
  }
  return removed;
}

}  // namespace

void SimplifyMaze(int height, int width, std::string* entities) {
  Layer layer(height, width, entities);
  RemoveDeadEnds(layer);
  for (int size = 1; size + 3 < width || size + 3 < height;) {
    const bool removed = RemoveBends(layer, size);
    size = removed && size != 1 ? 1 : size + 1;
  }
}

}  // namespace hosts::maze
