// Frame: the caller's buffers a maze view is drawn into (raycaster.h).
#ifndef HOSTS_MAZE_FRAME_H_
#define HOSTS_MAZE_FRAME_H_

#include <cstdint>

namespace hosts::maze {

// rgb is height x width x 3 bytes, row-major, row 0 at the top; depth
// (optional) is height x width floats.
struct Frame {
  std::uint8_t* rgb;  // height * width * 3
  float* depth;       // height * width, or null
  int width;
  int height;
};

}  // namespace hosts::maze

#endif  // HOSTS_MAZE_FRAME_H_
