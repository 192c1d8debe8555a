// GlTextureProvider: the plot library's texture interface on OpenGL.
// Views and the plot library never call GL; the app hands them this object.
#pragma once

#include "views/plot/texture.h"

#include <cstdint>
#include <unordered_map>

namespace cilab {

class GlTextureProvider : public plot::TextureProvider {
 public:
  ~GlTextureProvider() override;
  ImTextureID Update(uint64_t key, int w, int h, const uint32_t* rgba) override;
  ImTextureID UpdateFiltered(uint64_t key, int w, int h, const uint32_t* rgba, bool linear) override;
  void Release(uint64_t key) override;

 private:
  struct Tex {
    unsigned int id = 0;
    int w = 0, h = 0;
    bool linear = false;
  };
  std::unordered_map<uint64_t, Tex> textures_;
};

}  // namespace cilab
