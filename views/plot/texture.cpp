// texture.cpp - TextureProvider key-function and the recording NullTextureProvider.
#include "views/plot/texture.h"

#include <cstdint>

namespace plot {

TextureProvider::~TextureProvider() = default;

ImTextureID NullTextureProvider::Update(uint64_t key, int w, int h, const uint32_t* rgba) {
    Call c;
    c.key = key;
    c.w = w;
    c.h = h;
    calls.push_back(c);
    ++update_count;
    auto it = live.find(key);
    if (it == live.end()) it = live.emplace(key, next_id_++).first;
    if (rgba != nullptr && w > 0 && h > 0)
        pixels[key].assign(rgba, rgba + static_cast<size_t>(w) * static_cast<size_t>(h));
    return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(it->second));
}

void NullTextureProvider::Release(uint64_t key) {
    Call c;
    c.release = true;
    c.key = key;
    calls.push_back(c);
    ++release_count;
    live.erase(key);
    pixels.erase(key);
}

int NullTextureProvider::data_updates() const {
    int n = 0;
    for (const Call& c : calls)
        if (!c.release && c.key != kSpriteTextureKey) ++n;
    return n;
}

}  // namespace plot
