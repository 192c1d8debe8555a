#include "app/gl_textures.h"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>

namespace cilab {

GlTextureProvider::~GlTextureProvider() {
  for (auto& [key, t] : textures_) glDeleteTextures(1, &t.id);
}

ImTextureID GlTextureProvider::Update(uint64_t key, int w, int h, const uint32_t* rgba) {
  return UpdateFiltered(key, w, h, rgba, false);
}

ImTextureID GlTextureProvider::UpdateFiltered(uint64_t key, int w, int h, const uint32_t* rgba, bool linear) {
  Tex& t = textures_[key];
  GLint last = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last);
  if (t.id == 0) {
    glGenTextures(1, &t.id);
    glBindTexture(GL_TEXTURE_2D, t.id);
    // Data images stay crisp (nearest); marker sprites are smooth (linear).
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, linear ? GL_LINEAR : GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, linear ? GL_LINEAR : GL_NEAREST);
    t.linear = linear;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, t.id);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  if (t.w != w || t.h != h) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    t.w = w;
    t.h = h;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  }
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(last));
  return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(t.id));
}

void GlTextureProvider::Release(uint64_t key) {
  auto it = textures_.find(key);
  if (it == textures_.end()) return;
  glDeleteTextures(1, &it->second.id);
  textures_.erase(it);
}

}  // namespace cilab
