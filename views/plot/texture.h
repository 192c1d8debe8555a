// texture.h - how the plot library obtains GPU textures without ever calling GL.
//
// Large scatters (splatted density images), large heatmaps, grayscale/RGB images and the marker
// sprite sheet are uploaded through a TextureProvider that the app implements with OpenGL and
// installs with plot::SetTextureProvider(). Tests use NullTextureProvider, which records calls.
// Pixel format: w*h packed ImU32 values (IM_COL32 layout: R in the low byte), rows top to bottom,
// non-premultiplied alpha (the ImGui OpenGL3 backend blends SRC_ALPHA, ONE_MINUS_SRC_ALPHA).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include <imgui.h>

namespace plot {

// Creates/updates textures on behalf of the plot library (implemented by app/, with GL).
class TextureProvider {
public:
    virtual ~TextureProvider();
    // Create the texture for `key` or replace its pixels (size may change); return its id.
    virtual ImTextureID Update(uint64_t key, int w, int h, const uint32_t* rgba) = 0;
    // Free the texture for `key` (unknown keys are ignored).
    virtual void Release(uint64_t key) = 0;
    // Optional: like Update, with a sampling hint. linear = true for marker sprites (smooth when
    // minified); false (nearest) for data images, so cells stay crisp. Default ignores the hint.
    virtual ImTextureID UpdateFiltered(uint64_t key, int w, int h, const uint32_t* rgba, bool linear) {
        (void)linear;
        return Update(key, w, h, rgba);
    }
};

// Test double: records every call, hands out fake (never dereferenced) texture ids.
class NullTextureProvider : public TextureProvider {
public:
    // One recorded call.
    struct Call {
        bool release = false;
        uint64_t key = 0;
        int w = 0, h = 0;
    };
    ImTextureID Update(uint64_t key, int w, int h, const uint32_t* rgba) override;
    void Release(uint64_t key) override;
    // Number of Update calls whose key is not the marker sprite sheet.
    int data_updates() const;

    std::vector<Call> calls;                 // every call in order
    std::map<uint64_t, int> live;            // key -> fake id for textures not yet released
    std::map<uint64_t, std::vector<uint32_t>> pixels;  // last uploaded pixels per key
    int update_count = 0;
    int release_count = 0;

private:
    int next_id_ = 1000;
};

// Key the library uses for its marker sprite sheet (uploaded once per provider).
constexpr uint64_t kSpriteTextureKey = 0x5370726974655368ull;

}  // namespace plot
