#include "hosts/maze/maze_simplify.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "tensor/work_meter.h"

namespace hosts::maze {
namespace {

struct Step {
  int row, col;
};

// DeepMind Lab's path directions, in its order: down, up, right, left.
constexpr Step kDirections[] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

class Layer {
 public:
  Layer(int height, int width, std::string* cells)
      : height_(height), width_(width), cells_(*cells) {}

  bool Inside(int row, int col) const {
    return row >= 0 && row < height_ && col >= 0 && col < width_;
  }
  // Outside the layer is neither floor nor wall.
  bool Floor(int row, int col) const { return Inside(row, col) && At(row, col) == ' '; }
  bool Wall(int row, int col) const { return Inside(row, col) && At(row, col) == '*'; }
  char At(int row, int col) const { return cells_[Index(row, col)]; }
  // Writes outside the layer are dropped.
  void Set(int row, int col, char c) {
    if (Inside(row, col)) cells_[Index(row, col)] = c;
  }
  int height() const { return height_; }
  int width() const { return width_; }

 private:
  std::size_t Index(int row, int col) const {
    return static_cast<std::size_t>(row) * (width_ + 1) + col;
  }

  int height_;
  int width_;
  std::string& cells_;
};

void RemoveDeadEnds(Layer& layer) {
  // Neighbours in DeepMind Lab's order: up, down, left, right; the last
  // floor one is where the corridor goes on.
  constexpr Step kNeighbours[] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  for (int row = 0; row < layer.height(); ++row) {
    for (int col = 0; col < layer.width(); ++col) {
      int r = row, c = col;
      while (layer.Floor(r, c)) {
        int floors = 0, walls = 0, neighbours = 0;
        Step next{};
        for (const auto& [dr, dc] : kNeighbours) {
          if (!layer.Inside(r + dr, c + dc)) continue;
          ++neighbours;
          if (layer.Floor(r + dr, c + dc)) {
            ++floors;
            next = {r + dr, c + dc};
          } else if (layer.Wall(r + dr, c + dc)) {
            ++walls;
          }
        }
        if (walls + 1 < neighbours) break;
        layer.Set(r, c, '*');
        if (floors == 0) break;
        r = next.row;
        c = next.col;
      }
    }
  }
}

// Removes the bends of `size` that start at the wall cell (row, col), and
// then those that the removal leaves one cell further from the U: whether
// it removed one.
//
// Along u (v turned a quarter), with (row, col) at u = 0, v = 0:
//     v = 2   ? * * ... * ?        ? * * ... * ?
//     v = 1   *           *   ->   * * * ... * *
//     v = 0   ? * * ... *          ? _ _ ... _ ?   (the line, u in [0, size))
//     v = -1    * * ... *            * * ... *
// with floor at u = -1 and u = size on the line.
bool RemoveBendAt(Layer& layer, int row, int col, int size) {
  bool removed = false;
  bool found;
  do {
    found = false;
    if (!layer.Wall(row, col)) break;
    for (const auto& v : kDirections) {
      const Step u = {v.col, -v.row};
      const auto at = [&](int du, int dv) {
        return Step{row + du * u.row + dv * v.row, col + du * u.col + dv * v.col};
      };
      const auto wall = [&](Step s) { return layer.Wall(s.row, s.col); };
      const auto floor = [&](Step s) { return layer.Floor(s.row, s.col); };
      bool ok = true;
      for (int k = 0; k < size && ok; ++k) ok = wall(at(k, 0)) && wall(at(k, -1));
      for (int k = -1; k <= size && ok; ++k) ok = floor(at(k, 1));
      for (int k = -1; k <= size && ok; ++k) ok = wall(at(k, 2));
      ok = ok && wall(at(-2, 1)) && wall(at(size + 1, 1)) && floor(at(-1, 0)) &&
           floor(at(size, 0));
      if (!ok) continue;
      for (int k = -1; k <= size; ++k) {
        const Step bend = at(k, 1);
        if (k >= 0 && k < size) {
          const Step line = at(k, 0);
          layer.Set(line.row, line.col, layer.At(bend.row, bend.col));
        }
        layer.Set(bend.row, bend.col, '*');
      }
      row -= v.row;
      col -= v.col;
      removed = found = true;
      break;
    }
  } while (found);
  return removed;
}

// One pass over the cells for bends of `size`, up to the first cell where
// one goes: whether one did.
bool RemoveBends(Layer& layer, int size) {
  for (int row = 0; row < layer.height(); ++row) {
    for (int col = 0; col < layer.width(); ++col) {
      if (RemoveBendAt(layer, row, col, size)) return true;
    }
  }
  return false;
}

}  // namespace

absl::Status SimplifyMaze(int height, int width, std::string* entities) {
  Layer layer(height, width, entities);
  // A pass visits each cell at most once, and tests a wall cell's four
  // directions in a few steps each: 10 units (about 14 ns) a cell, as
  // measured over whole passes. DeepMind Lab's order makes many passes:
  // each bend removed can start them again, so a 301 x 301 maze takes
  // about 2 s (as under DeepMind Lab) and larger ones meet the budget.
  const std::int64_t pass_work = 10 * std::int64_t{height} * width;
  if (absl::Status charged = tensor::ChargeWork(pass_work); !charged.ok()) return charged;
  RemoveDeadEnds(layer);
  for (int size = 1; size + 3 < width;) {
    if (absl::Status charged = tensor::ChargeWork(pass_work); !charged.ok()) return charged;
    const bool removed = RemoveBends(layer, size);
    size = removed && size != 1 ? 1 : size + 1;
  }
  return absl::OkStatus();
}

}  // namespace hosts::maze
