// DeepMind Lab's maze simplification (randomMazeGeneration's `simplify`),
// step for step as DeepMind Lab does it, so that a seed gives the same
// maze here as there. It works on an entity layer of ' ' floor and '*'
// wall; other characters (the doors not yet placed) count as neither.
//
//   1. Dead ends go: cells are visited row by row, and a floor cell with at
//      most one neighbour (of those inside the layer) that is not wall
//      becomes wall; then so does its floor neighbour if that is now a
//      dead end, and so on along the corridor.
//   2. Horseshoe bends go: where a corridor runs along a straight line of
//      `size` wall cells, stepping out of it at both ends (a U, with wall
//      on its far side and beyond both ends of the line), the line opens
//      and the U's cells become wall. Sizes 1, 2, ... up to width - 4 are
//      tried in turn, each in one pass over the cells that stops at the
//      first bend it removes; removing a bend of size > 1 starts again
//      from 1, as it can leave smaller ones.
//
// Each pass charges its work to the thread's work meter
// (tensor/work_meter.h) as it goes, and stops with the meter's error.
//
// Example:
//   std::string layer = "*****\n*   *\n* * *\n*****\n";  // rows with '\n'
//   absl::Status done = SimplifyMaze(4, 5, &layer);
#ifndef HOSTS_MAZE_MAZE_SIMPLIFY_H_
#define HOSTS_MAZE_MAZE_SIMPLIFY_H_

#include <string>

#include "absl/status/status.h"

namespace hosts::maze {

// `entities` holds `height` rows of `width` cells, each row followed by one
// more character (its '\n'), which is left alone.
absl::Status SimplifyMaze(int height, int width, std::string* entities);

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_MAZE_SIMPLIFY_H_
