#define GL_GLEXT_PROTOTYPES
#include "app/png_export.h"

#include <GL/gl.h>
#include <GL/glext.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image_write.h>

#include <algorithm>
#include <stdexcept>

namespace cilab {

FramePixels frame_pixels(int scale, int fb_w, int fb_h) {
  FramePixels px;
  scale = std::clamp(scale, 1, 4);
  px.w = fb_w * scale;
  px.h = fb_h * scale;
  px.rgba.resize(static_cast<size_t>(px.w) * px.h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  if (scale == 1) {
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, px.w, px.h, GL_RGBA, GL_UNSIGNED_BYTE, px.rgba.data());
  } else {
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    if (px.w > max_size || px.h > max_size)
      throw std::runtime_error("the window at " + std::to_string(scale) + "x (" + std::to_string(px.w) + " x " +
                               std::to_string(px.h) + ") is larger than the GPU renders offscreen; try 1x");
    GLuint fbo = 0, rbo = 0;
    GLint previous_fbo = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous_fbo);
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rbo);
    glBindRenderbuffer(GL_RENDERBUFFER, rbo);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, px.w, px.h);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbo);
    const bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (ok) {
      glViewport(0, 0, px.w, px.h);
      glClearColor(0.1f, 0.1f, 0.11f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImDrawData* dd = ImGui::GetDrawData();
      const ImVec2 old = dd->FramebufferScale;
      dd->FramebufferScale = ImVec2(old.x * static_cast<float>(scale), old.y * static_cast<float>(scale));
      ImGui_ImplOpenGL3_RenderDrawData(dd);  // the same vertices on a framebuffer `scale` times larger
      dd->FramebufferScale = old;
      glReadBuffer(GL_COLOR_ATTACHMENT0);
      glReadPixels(0, 0, px.w, px.h, GL_RGBA, GL_UNSIGNED_BYTE, px.rgba.data());
    }
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous_fbo));
    glDeleteRenderbuffers(1, &rbo);
    glDeleteFramebuffers(1, &fbo);
    glViewport(0, 0, fb_w, fb_h);
    if (!ok) throw std::runtime_error("cannot render offscreen at " + std::to_string(scale) + "x; try 1x");
  }
  // GL rows run bottom-up: flip, and make every pixel opaque.
  const size_t row = static_cast<size_t>(px.w) * 4;
  for (int y = 0; y < px.h / 2; ++y)
    std::swap_ranges(px.rgba.begin() + static_cast<long>(y * row), px.rgba.begin() + static_cast<long>((y + 1) * row),
                     px.rgba.begin() + static_cast<long>((px.h - 1 - y) * row));
  for (size_t i = 3; i < px.rgba.size(); i += 4) px.rgba[i] = 255;
  return px;
}

FramePixels crop_pixels(const FramePixels& px, int x0, int y0, int x1, int y1) {
  x0 = std::clamp(x0, 0, px.w);
  x1 = std::clamp(x1, 0, px.w);
  y0 = std::clamp(y0, 0, px.h);
  y1 = std::clamp(y1, 0, px.h);
  if (x1 <= x0 || y1 <= y0) throw std::runtime_error("nothing to save: the region is empty");
  FramePixels out;
  out.w = x1 - x0;
  out.h = y1 - y0;
  out.rgba.resize(static_cast<size_t>(out.w) * out.h * 4);
  for (int y = 0; y < out.h; ++y)
    std::copy_n(px.rgba.begin() + static_cast<long>((static_cast<size_t>(y0 + y) * px.w + x0) * 4), out.w * 4,
                out.rgba.begin() + static_cast<long>(static_cast<size_t>(y) * out.w * 4));
  return out;
}

void write_png_region(const std::string& path, const FramePixels& px, int x0, int y0, int x1, int y1) {
  const FramePixels out = crop_pixels(px, x0, y0, x1, y1);
  stbi_flip_vertically_on_write(0);
  if (!stbi_write_png(path.c_str(), out.w, out.h, 4, out.rgba.data(), out.w * 4))
    throw std::runtime_error("cannot write " + path + "; check that the folder exists and is writable");
}

}  // namespace cilab
