// Renderer: MuJoCo's own renderer for one model, off screen and headless,
// through Mesa's OSMesa (llvmpipe: no display, no GPU).
//
// MuJoCo loads no GL itself: each Renderer creates an OSMesa context and
// makes it current before mjr_makeContext. A context may be current on
// one thread at a time, and an instance may step on any worker thread of
// a VectorLab, so every Render makes its context current and releases it
// after (which costs about a microsecond against a render's hundreds).
//
// Shadows, reflections and multisampling are off: they cost 10x in frame
// rate under llvmpipe and add nothing an agent needs. The offscreen
// buffer is sized to the frame, whatever the model's <global offwidth>.
//
// Rows come out top row first (OpenGL's come bottom-up); depth in metres
// from the camera, from MuJoCo's near and far planes.
//
// Example:
//   absl::StatusOr<std::unique_ptr<Renderer>> renderer = Renderer::Create(model, 84, 84);
//   (*renderer)->Render(model, data, camera_id, rgb, depth);
#ifndef HOSTS_MUJOCO_RENDERER_H_
#define HOSTS_MUJOCO_RENDERER_H_

#include <mujoco/mujoco.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"

namespace hosts::mujoco {

class Renderer {
 public:
  // `model`'s offscreen buffer size is set to width x height.
  static absl::StatusOr<std::unique_ptr<Renderer>> Create(mjModel* model, int width, int height);
  ~Renderer();

  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Draws `data` from camera `camera` (an id, or -1 for the free camera)
  // into `rgb` (height x width x 3 bytes) and `depth` (height x width
  // floats), either of which may be null.
  absl::Status Render(const mjModel* model, mjData* data, int camera, std::uint8_t* rgb,
                      float* depth);

 private:
  Renderer() = default;
  absl::Status MakeCurrent();

  int width_ = 0;
  int height_ = 0;
  struct Gl;
  std::unique_ptr<Gl> gl_;
  std::vector<std::uint8_t> rows_;  // bottom-up, as GL reads them
  std::vector<float> depth_rows_;
};

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_RENDERER_H_
