#include "hosts/mujoco/renderer.h"

#include <GL/osmesa.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "hosts/mujoco/mujoco_errors.h"

// Under AddressSanitizer: Mesa's OSMesa keeps a few hundred bytes per
// process and thread (its dispatch tables) that it never frees, the same
// however many contexts and frames; LeakSanitizer would fail every
// program that renders. Its own leaks stay reported.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __lsan_default_suppressions() { return "leak:libOSMesa.so\n"; }
#endif

namespace hosts::mujoco {

namespace {

// MuJoCo 2.2 loads GL's entry points into process-wide pointers in every
// mjr_makeContext: contexts are made one at a time.
std::mutex making_contexts;

// Leaves no context current on this thread. A context current on two
// threads at once is undefined in GL, and an instance of a VectorLab
// steps on whichever worker is free: each render binds its context and
// lets it go.
void ReleaseCurrent() { OSMesaMakeCurrent(nullptr, nullptr, 0, 0, 0); }

// MuJoCo's GL loader takes the first GetProcAddress among the process's
// global symbols: EGL's, then OSMesa's, then GLX's. A library loaded with
// global symbols before the first render (importing PyTorch brings libGL)
// would win with GLX, whose entry points do nothing without a GLX context,
// and every render would fail ("gladLoadGL error"). OSMesa is loaded
// already (this code links it), but with local symbols when it came with
// a Python extension; making them global puts it ahead of GLX.
void MakeOsMesaGlobal() {
  static const bool done = [] {
    // RTLD_NOLOAD: only promotes the library loaded already; the handle is
    // kept for the life of the process, as the library is.
    dlopen("libOSMesa.so.8", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    return true;
  }();
  (void)done;
}

}  // namespace

struct Renderer::Gl {
  OSMesaContext context = nullptr;
  // OSMesa wants a default framebuffer; MuJoCo draws into its own FBO.
  std::uint8_t surface[4] = {};
  mjvScene scene;
  mjvCamera camera;
  mjvOption option;
  mjrContext render_context;
  bool made = false;
};

absl::StatusOr<std::unique_ptr<Renderer>> Renderer::Create(mjModel* model, int width,
                                                           int height) {
  std::unique_ptr<Renderer> renderer(new Renderer);
  renderer->width_ = width;
  renderer->height_ = height;
  renderer->gl_ = std::make_unique<Gl>();
  Gl& gl = *renderer->gl_;
  gl.context = OSMesaCreateContextExt(OSMESA_RGBA, 24, 8, 0, nullptr);
  if (gl.context == nullptr) {
    return absl::UnavailableError("OSMesa could not create a GL context");
  }
  const std::lock_guard<std::mutex> one_at_a_time(making_contexts);
  MakeOsMesaGlobal();
  if (absl::Status current = renderer->MakeCurrent(); !current.ok()) return current;
  model->vis.global.offwidth = width;
  model->vis.global.offheight = height;
  model->vis.quality.offsamples = 0;
  mjv_defaultScene(&gl.scene);
  mjv_defaultFreeCamera(model, &gl.camera);
  mjv_defaultOption(&gl.option);
  mjr_defaultContext(&gl.render_context);
  absl::Status made = Guarded("making the renderer", [&] {
    mjv_makeScene(model, &gl.scene, 2000);
    mjr_makeContext(model, &gl.render_context, mjFONTSCALE_100);
    mjr_setBuffer(mjFB_OFFSCREEN, &gl.render_context);
  });
  gl.made = true;
  ReleaseCurrent();
  if (!made.ok()) return made;
  if (gl.render_context.currentBuffer != mjFB_OFFSCREEN) {
    return absl::UnavailableError("MuJoCo's offscreen buffer is not available under OSMesa");
  }
  gl.scene.flags[mjRND_SHADOW] = 0;
  gl.scene.flags[mjRND_REFLECTION] = 0;
  const std::size_t pixels = static_cast<std::size_t>(width) * height;
  renderer->rows_.resize(pixels * 3);
  renderer->depth_rows_.resize(pixels);
  return renderer;
}

Renderer::~Renderer() {
  if (gl_ == nullptr || gl_->context == nullptr) return;
  if (gl_->made && MakeCurrent().ok()) {
    mjr_freeContext(&gl_->render_context);
    mjv_freeScene(&gl_->scene);
    ReleaseCurrent();
  }
  OSMesaDestroyContext(gl_->context);
}

absl::Status Renderer::MakeCurrent() {
  if (!OSMesaMakeCurrent(gl_->context, gl_->surface, GL_UNSIGNED_BYTE, 1, 1)) {
    return absl::UnavailableError("OSMesa could not make the renderer's GL context current");
  }
  return absl::OkStatus();
}

absl::Status Renderer::Render(const mjModel* model, mjData* data, int camera, std::uint8_t* rgb,
                              float* depth) {
  if (absl::Status current = MakeCurrent(); !current.ok()) return current;
  Gl& gl = *gl_;
  if (camera >= 0) {
    gl.camera.type = mjCAMERA_FIXED;
    gl.camera.fixedcamid = camera;
  } else {
    gl.camera.type = mjCAMERA_FREE;  // looking at the model's centre
  }
  const mjrRect viewport = {0, 0, width_, height_};
  absl::Status drawn = Guarded("rendering", [&] {
    mjv_updateScene(model, data, &gl.option, nullptr, &gl.camera, mjCAT_ALL, &gl.scene);
    mjr_render(viewport, &gl.scene, &gl.render_context);
    mjr_readPixels(rgb != nullptr ? rows_.data() : nullptr,
                   depth != nullptr ? depth_rows_.data() : nullptr, viewport,
                   &gl.render_context);
  });
  ReleaseCurrent();
  if (!drawn.ok()) return drawn;
  const std::size_t row = static_cast<std::size_t>(width_);
  for (int y = 0; y < height_; ++y) {
    const std::size_t from = static_cast<std::size_t>(height_ - 1 - y) * row;
    const std::size_t to = static_cast<std::size_t>(y) * row;
    if (rgb != nullptr) std::memcpy(rgb + to * 3, rows_.data() + from * 3, row * 3);
    if (depth != nullptr) {
      // GL's depth is non-linear in [0, 1]: back to metres from the near
      // and far planes MuJoCo drew with.
      const float extent = static_cast<float>(model->stat.extent);
      const float near = static_cast<float>(model->vis.map.znear) * extent;
      const float far = static_cast<float>(model->vis.map.zfar) * extent;
      for (std::size_t x = 0; x < row; ++x) {
        const float z = depth_rows_[from + x];
        depth[to + x] = near / (1 - z * (1 - near / far));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace hosts::mujoco
