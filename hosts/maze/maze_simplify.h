// DeepMind Lab's maze simplification (randomMazeGeneration's `simplify`),
// on an entity layer of ' ' floor and '*' wall (other characters count as
// neither: rooms' doors are placed afterwards).
//
//   1. Dead ends go: a floor cell with at most one floor neighbour (of its
//      four; outside the layer is wall) is filled with wall, and so on
//      along the corridor it ended, until a junction.
//   2. Horseshoe bends go: where a corridor leaves a straight line and
//      comes back to it in a U of corridor cells (two turns out, two back),
//      and the cells of the line between its two ends are all wall, those
//      cells are opened and the U is filled. Bends whose shortcut is 1
//      cell long go first, then 2, ...; removing a longer one starts again
//      from 1, as it can leave shorter ones.
// Each pass keeps every floor cell that stays reachable from every other.
//
// Example:
//   std::string layer = "*****\n*   *\n* * *\n*****\n";  // rows with '\n'
//   SimplifyMaze(4, 5, &layer);
#ifndef HOSTS_MAZE_MAZE_SIMPLIFY_H_
#define HOSTS_MAZE_MAZE_SIMPLIFY_H_

#include <string>

namespace hosts::maze {

// `entities` holds `height` rows of `width` cells, each row followed by one
// more character (its '\n'), which is left alone.
void SimplifyMaze(int height, int width, std::string* entities);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_MAZE_SIMPLIFY_H_
