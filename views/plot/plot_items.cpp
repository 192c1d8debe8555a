// plot_items.cpp - item renderers: lines, scatter (quads or splatted density image), bars,
// heatmaps, images, text, custom items and the lab's convenience glyphs; colormaps.
//
// Index of this file:
// [SECTION] colormaps
// [SECTION] helpers (hashing, quad writer, sprites, image cache)
// [SECTION] custom item API
// [SECTION] lines
// [SECTION] scatter
// [SECTION] bars, heatmaps, images, text
// [SECTION] lab glyphs (arrow, ellipse, polygon, trail)
//
// Rendering rules: vertices are written with PrimReserve/PrimWriteVtx/PrimWriteIdx in chunks well
// below ImGui's 16-bit index limit, primitives outside the plot rect are culled, markers are one
// 4-vertex quad each (textured from a sprite sheet when a TextureProvider exists), and images go
// through the TextureProvider with a per-item cache.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "views/plot/contour.h"
#include "views/plot/plot_internal.h"

namespace plot {

// ---- [SECTION] colormaps ----------------------------------------------------------------------
namespace {

// Categorical palette (Tableau-10 colours), 0xRRGGBB.
constexpr uint32_t kCategorical[10] = {0x1F77B4u, 0xFF7F0Eu, 0x2CA02Cu, 0xD62728u, 0x9467BDu,
                                       0x8C564Bu, 0xE377C2u, 0x7F7F7Fu, 0xBCBD22u, 0x17BECFu};

// Class labels: Paul Tol's "muted" scheme (colour-blind safe, 9 hues + pale grey), with indigo
// lightened (0x332288 -> 0x6655CC) to read on the dark theme. Chosen apart from kCategorical.
constexpr uint32_t kLabels[10] = {0xCC6677u, 0x88CCEEu, 0xDDCC77u, 0x117733u, 0x6655CCu,
                                  0xAA4499u, 0x44AA99u, 0x999933u, 0x882255u, 0xDDDDDDu};

// Diverging, low to high: purple, dark grey at the centre, green (0xRRGGBB).
constexpr uint32_t kDiverging[9] = {0xB06BD6u, 0x8C4FAEu, 0x673D7Eu, 0x4A3554u, 0x383838u,
                                    0x2E4D38u, 0x2F6A44u, 0x3A8A53u, 0x58B36Au};
// Viridis sampled at 64 points, 0xRRGGBB.
constexpr uint32_t kViridis[64] = {
    0x440154u, 0x46075Au, 0x470D60u, 0x471365u, 0x48186Au, 0x481D6Fu, 0x482374u, 0x482878u,
    0x472D7Bu, 0x46327Eu, 0x453781u, 0x443B84u, 0x424086u, 0x404588u, 0x3E4989u, 0x3D4E8Au,
    0x3A538Bu, 0x38588Cu, 0x365C8Du, 0x34608Du, 0x32648Eu, 0x31688Eu, 0x2F6C8Eu, 0x2D708Eu,
    0x2C738Eu, 0x2A778Eu, 0x297B8Eu, 0x277F8Eu, 0x26828Eu, 0x24868Eu, 0x238A8Du, 0x218E8Du,
    0x20928Cu, 0x1F968Bu, 0x1F9A8Au, 0x1F9E89u, 0x1FA187u, 0x21A585u, 0x23A983u, 0x26AD81u,
    0x2AB07Fu, 0x2FB47Cu, 0x35B779u, 0x3BBB75u, 0x42BE71u, 0x4AC16Du, 0x52C569u, 0x5AC864u,
    0x65CB5Eu, 0x6ECE58u, 0x77D153u, 0x81D34Du, 0x8BD646u, 0x95D840u, 0xA0DA39u, 0xAADC32u,
    0xB5DE2Bu, 0xC0DF25u, 0xCAE11Fu, 0xD5E21Au, 0xDFE318u, 0xEAE51Au, 0xF4E61Eu, 0xFDE725u,
};

ImU32 rgb_to_u32(uint32_t rgb, uint32_t a = 255) {
    return IM_COL32((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF, a);
}

// A replaceable categorical table (count 0: the built-in default).
struct ColorTable {
    ImU32 colors[kMaxColormapColors] = {};
    int count = 0;
};
// Set by SetColormapColors from the UI thread (the lab's theme); read while drawing.
ColorTable g_categorical;
ColorTable g_labels;
ColorTable g_diverging;
// SetLineWeightScale's factor.
float g_line_weight_scale = 1.0f;
// Counts SetColormapColors calls: cached heatmap textures include it in their key.
uint64_t g_colormap_serial = 0;

ColorTable* replaceable_table(Colormap cmap) {
    if (cmap == Colormap::Categorical) return &g_categorical;
    if (cmap == Colormap::Labels) return &g_labels;
    if (cmap == Colormap::Diverging) return &g_diverging;
    return nullptr;
}

}  // namespace

void SetLineWeightScale(float scale) { g_line_weight_scale = std::clamp(scale, 0.5f, 4.0f); }

float LineWeight(const Spec& spec) { return spec.line_weight * g_line_weight_scale; }

void SetColormapColors(Colormap cmap, const ImU32* colors, int count) {
    ColorTable* t = replaceable_table(cmap);
    if (t == nullptr) return;
    ++g_colormap_serial;
    t->count = colors == nullptr ? 0 : std::clamp(count, 0, kMaxColormapColors);
    if (cmap == Colormap::Diverging && t->count < 2) t->count = 0;
    for (int i = 0; i < t->count; ++i) t->colors[i] = colors[i];
}

int GetDefaultColormapSize(Colormap cmap) {
    switch (cmap) {
        case Colormap::Categorical: return 10;
        case Colormap::Labels: return 10;
        case Colormap::Viridis: return 64;
        case Colormap::Gray: return 256;
        case Colormap::Diverging: return 9;
    }
    return 10;
}

ImU32 GetDefaultColormapColor(int i, Colormap cmap) {
    const int n = GetDefaultColormapSize(cmap);
    i = ((i % n) + n) % n;
    switch (cmap) {
        case Colormap::Categorical: return rgb_to_u32(kCategorical[i]);
        case Colormap::Labels: return rgb_to_u32(kLabels[i]);
        case Colormap::Viridis: return rgb_to_u32(kViridis[i]);
        case Colormap::Gray: return IM_COL32(i, i, i, 255);
        case Colormap::Diverging: return rgb_to_u32(kDiverging[i]);
    }
    return IM_COL32_WHITE;
}

int GetColormapSize(Colormap cmap) {
    if (const ColorTable* t = replaceable_table(cmap); t != nullptr && t->count > 0)
        return t->count;
    return GetDefaultColormapSize(cmap);
}

ImU32 GetColormapColor(int i, Colormap cmap) {
    if (const ColorTable* t = replaceable_table(cmap); t != nullptr && t->count > 0)
        return t->colors[((i % t->count) + t->count) % t->count];
    return GetDefaultColormapColor(i, cmap);
}

ImU32 SampleColormap(double t, Colormap cmap) {
    if (std::isnan(t)) return IM_COL32(0, 0, 0, 0);
    t = std::clamp(t, 0.0, 1.0);
    if (cmap == Colormap::Gray) {
        const int g = static_cast<int>(t * 255.0 + 0.5);
        return IM_COL32(g, g, g, 255);
    }
    const int n = GetColormapSize(cmap);
    if (cmap == Colormap::Categorical || cmap == Colormap::Labels)
        return GetColormapColor(std::min(static_cast<int>(t * n), n - 1), cmap);
    const double f = t * (n - 1);
    const int i0 = std::min(static_cast<int>(f), n - 2);
    const double w = f - i0;
    const ImU32 a = GetColormapColor(i0, cmap), b = GetColormapColor(i0 + 1, cmap);
    auto mix = [w](ImU32 ca, ImU32 cb, int sh) {
        const double va = (ca >> sh) & 0xFF, vb = (cb >> sh) & 0xFF;
        return static_cast<ImU32>(va + (vb - va) * w + 0.5);
    };
    return IM_COL32(mix(a, b, IM_COL32_R_SHIFT), mix(a, b, IM_COL32_G_SHIFT),
                    mix(a, b, IM_COL32_B_SHIFT), 255);
}

// ---- [SECTION] helpers (hashing, quad writer, sprites, image cache) ---------------------------
namespace {

// 64-bit hash of a byte range (word-wise multiply-xorshift mix; fast enough for image content).
uint64_t hash_bytes(const void* data, size_t n, uint64_t h = 0x9E3779B97F4A7C15ull) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, p + i, 8);
        h ^= w;
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    for (; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001B3ull;
    }
    h ^= h >> 29;
    h *= 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 32;
    return h;
}

template <class T>
uint64_t hash_value(const T& v, uint64_t h) {
    return hash_bytes(&v, sizeof(T), h);
}

uint64_t texture_key(const PlotState& st, const ItemState& it) {
    return (static_cast<uint64_t>(st.id) << 32) ^ static_cast<uint64_t>(it.id);
}

// Sprite sheet: one 32x32 cell per marker shape, in Marker enum order (Circle..Triangle).
constexpr int kSpriteCell = 32;
constexpr int kSpriteCount = 6;
// Quad half-size relative to the marker radius (the shapes fill ~90% of a cell).
constexpr float kSpriteScale = 1.12f;

// Inside test of a unit shape at (u, v) in [-1, 1]^2 (v pointing down), scaled by s.
bool shape_inside(Marker m, float u, float v, float s) {
    u /= s;
    v /= s;
    switch (m) {
        case Marker::Circle: return u * u + v * v <= 0.81f;
        case Marker::Square: return std::fabs(u) <= 0.72f && std::fabs(v) <= 0.72f;
        case Marker::Diamond: return std::fabs(u) + std::fabs(v) <= 0.92f;
        case Marker::Cross: {
            const float a = std::fabs(u - v) * 0.7071f, b = std::fabs(u + v) * 0.7071f;
            return (a <= 0.17f || b <= 0.17f) && std::fabs(u) <= 0.75f && std::fabs(v) <= 0.75f;
        }
        case Marker::Plus:
            return (std::fabs(u) <= 0.17f && std::fabs(v) <= 0.9f) || (std::fabs(v) <= 0.17f && std::fabs(u) <= 0.9f);
        case Marker::Triangle: {
            // apex (0,-0.9), base corners (+-0.88, 0.62)
            if (v > 0.62f || v < -0.9f) return false;
            const float half = 0.88f * (v + 0.9f) / 1.52f;
            return std::fabs(u) <= half;
        }
        case Marker::None: return false;
    }
    return false;
}

void build_sprite_sheet(std::vector<uint32_t>& px) {
    const int w = kSpriteCell * kSpriteCount, h = kSpriteCell;
    px.assign(static_cast<size_t>(w) * h, 0u);
    constexpr int kSs = 4;  // supersampling per axis
    for (int s = 0; s < kSpriteCount; ++s) {
        const Marker m = static_cast<Marker>(s + 1);
        const bool rim = m != Marker::Cross && m != Marker::Plus;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < kSpriteCell; ++x) {
                int outer = 0, inner = 0;
                for (int sy = 0; sy < kSs; ++sy)
                    for (int sx = 0; sx < kSs; ++sx) {
                        const float u = ((x + (sx + 0.5f) / kSs) / kSpriteCell) * 2.0f - 1.0f;
                        const float v = ((y + (sy + 0.5f) / kSs) / kSpriteCell) * 2.0f - 1.0f;
                        if (shape_inside(m, u, v, 1.0f)) {
                            ++outer;
                            if (!rim || shape_inside(m, u, v, 0.8f)) ++inner;
                        }
                    }
                if (outer == 0) continue;
                const float alpha = static_cast<float>(outer) / (kSs * kSs);
                const float shade = 0.62f + 0.38f * static_cast<float>(inner) / static_cast<float>(outer);
                const int g = static_cast<int>(shade * 255.0f + 0.5f);
                px[static_cast<size_t>(y) * w + s * kSpriteCell + x] =
                    IM_COL32(g, g, g, static_cast<int>(alpha * 255.0f + 0.5f));
            }
    }
}

// Writes 4-vertex/6-index quads in chunks (never near the 16-bit index limit).
class QuadWriter {
public:
    explicit QuadWriter(ImDrawList* dl) : dl_(dl) {}
    ~QuadWriter() { finish(); }
    // Quad with corners a, b, c, d (any winding) and their uvs.
    void quad(ImVec2 a, ImVec2 b, ImVec2 c, ImVec2 d, ImVec2 ua, ImVec2 ub, ImVec2 uc, ImVec2 ud, ImU32 col) {
        if (left_ == 0) reserve();
        const ImDrawIdx base = static_cast<ImDrawIdx>(dl_->_VtxCurrentIdx);
        dl_->PrimWriteIdx(base);
        dl_->PrimWriteIdx(static_cast<ImDrawIdx>(base + 1));
        dl_->PrimWriteIdx(static_cast<ImDrawIdx>(base + 2));
        dl_->PrimWriteIdx(base);
        dl_->PrimWriteIdx(static_cast<ImDrawIdx>(base + 2));
        dl_->PrimWriteIdx(static_cast<ImDrawIdx>(base + 3));
        dl_->PrimWriteVtx(a, ua, col);
        dl_->PrimWriteVtx(b, ub, col);
        dl_->PrimWriteVtx(c, uc, col);
        dl_->PrimWriteVtx(d, ud, col);
        --left_;
    }
    // Axis-aligned rectangle with a solid colour.
    void rect(ImVec2 mn, ImVec2 mx, ImU32 col) {
        const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
        quad(mn, ImVec2(mx.x, mn.y), mx, ImVec2(mn.x, mx.y), uv, uv, uv, uv, col);
    }
    void finish() {
        if (left_ > 0) dl_->PrimUnreserve(left_ * 6, left_ * 4);
        left_ = 0;
    }

private:
    void reserve() {
        dl_->PrimReserve(kChunk * 6, kChunk * 4);
        left_ = kChunk;
    }
    static constexpr int kChunk = 4096;  // 16384 vertices per reservation
    ImDrawList* dl_;
    int left_ = 0;
};

// Marker quads: textured from the sprite sheet, or solid shapes without a provider.
class MarkerWriter {
public:
    MarkerWriter(ImDrawList* dl, ImTextureID sprites, Marker m) : dl_(dl), q_(dl), sprites_(sprites), m_(m) {
        if (sprites_ != nullptr) {
            dl_->PushTextureID(sprites_);
            const int cell = static_cast<int>(m) - 1;
            const float du = 1.0f / kSpriteCount;
            uv0_ = ImVec2(cell * du, 0.0f);
            uv1_ = ImVec2((cell + 1) * du, 1.0f);
        } else {
            uv0_ = uv1_ = ImGui::GetFontTexUvWhitePixel();
        }
    }
    ~MarkerWriter() {
        q_.finish();
        if (sprites_ != nullptr) dl_->PopTextureID();
    }
    void marker(ImVec2 p, float r, ImU32 col) {
        if (sprites_ != nullptr) {
            const float h = r * kSpriteScale;
            q_.quad(ImVec2(p.x - h, p.y - h), ImVec2(p.x + h, p.y - h), ImVec2(p.x + h, p.y + h), ImVec2(p.x - h, p.y + h),
                    uv0_, ImVec2(uv1_.x, uv0_.y), uv1_, ImVec2(uv0_.x, uv1_.y), col);
            return;
        }
        const ImVec2 uv = uv0_;
        switch (m_) {
            case Marker::Diamond:
                q_.quad(ImVec2(p.x, p.y - r), ImVec2(p.x + r, p.y), ImVec2(p.x, p.y + r), ImVec2(p.x - r, p.y), uv, uv, uv,
                        uv, col);
                break;
            case Marker::Triangle:
                q_.quad(ImVec2(p.x, p.y - r), ImVec2(p.x + r, p.y + 0.7f * r), ImVec2(p.x - r, p.y + 0.7f * r),
                        ImVec2(p.x, p.y - r), uv, uv, uv, uv, col);
                break;
            case Marker::Plus: {
                const float t = std::max(0.75f, r * 0.2f);
                q_.rect(ImVec2(p.x - r, p.y - t), ImVec2(p.x + r, p.y + t), col);
                q_.rect(ImVec2(p.x - t, p.y - r), ImVec2(p.x + t, p.y + r), col);
                break;
            }
            case Marker::Cross: {
                const float t = std::max(0.75f, r * 0.2f) * 0.7071f, k = r * 0.75f;
                q_.quad(ImVec2(p.x - k - t, p.y - k + t), ImVec2(p.x - k + t, p.y - k - t), ImVec2(p.x + k + t, p.y + k - t),
                        ImVec2(p.x + k - t, p.y + k + t), uv, uv, uv, uv, col);
                q_.quad(ImVec2(p.x + k - t, p.y - k - t), ImVec2(p.x + k + t, p.y - k + t), ImVec2(p.x - k + t, p.y + k + t),
                        ImVec2(p.x - k - t, p.y + k - t), uv, uv, uv, uv, col);
                break;
            }
            default: {
                const float h = r * 0.85f;
                q_.rect(ImVec2(p.x - h, p.y - h), ImVec2(p.x + h, p.y + h), col);
                break;
            }
        }
    }

private:
    ImDrawList* dl_;
    QuadWriter q_;
    ImTextureID sprites_;
    Marker m_;
    ImVec2 uv0_, uv1_;
};

// Upload pixels (filled by fill(rgba) for a w x h image) unless input_hash matches the cache.
template <class Fill>
ImTextureID cached_texture(Context& c, ItemState& it, uint64_t input_hash, int w, int h, Fill fill) {
    ImageCache& img = it.image;
    if (img.texture != nullptr && img.provider == c.provider && img.input_hash == input_hash && img.w == w &&
        img.h == h)
        return img.texture;
    if (img.provider != nullptr && img.provider != c.provider) ReleaseImage(img);
    c.rgba.assign(static_cast<size_t>(w) * static_cast<size_t>(h), 0u);
    fill(c.rgba.data());
    img.texture_key = texture_key(*c.plot, it);
    img.texture = c.provider->UpdateFiltered(img.texture_key, w, h, c.rgba.data(), false);
    img.provider = c.provider;
    img.input_hash = input_hash;
    img.w = w;
    img.h = h;
    ++img.rebuilds;
    return img.texture;
}

// Pixel rectangle of data bounds (top-left, bottom-right), y flipped.
void bounds_to_pixels(Point bmin, Point bmax, ImVec2& tl, ImVec2& br) {
    tl = PlotToPixels(bmin.x, bmax.y);
    br = PlotToPixels(bmax.x, bmin.y);
}

// Per-cell rects (fallback for small heatmaps/images), culled to the plot rect.
template <class CellColor>
void draw_cells(Context& c, int rows, int cols, Point bmin, Point bmax, CellColor color_of) {
    const Axis& ax = c.plot->x;
    const Axis& ay = c.plot->y;
    const ImRect& pr = c.plot_rect;
    QuadWriter q(c.draw_list);
    const double dx = (bmax.x - bmin.x) / cols, dy = (bmax.y - bmin.y) / rows;
    for (int r = 0; r < rows; ++r) {
        const double y_top = bmax.y - r * dy, y_bot = bmax.y - (r + 1) * dy;
        const double py0 = ay.plot_to_pixels(y_top), py1 = ay.plot_to_pixels(y_bot);
        if (std::max(py0, py1) < pr.Min.y || std::min(py0, py1) > pr.Max.y) continue;
        for (int k = 0; k < cols; ++k) {
            const double px0 = ax.plot_to_pixels(bmin.x + k * dx), px1 = ax.plot_to_pixels(bmin.x + (k + 1) * dx);
            if (std::max(px0, px1) < pr.Min.x || std::min(px0, px1) > pr.Max.x) continue;
            const ImU32 col = color_of(r, k);
            if ((col & IM_COL32_A_MASK) == 0) continue;
            q.rect(ImVec2(static_cast<float>(std::max(px0, pr.Min.x - 1.0)), static_cast<float>(std::max(py0, pr.Min.y - 1.0))),
                   ImVec2(static_cast<float>(std::min(px1, pr.Max.x + 1.0)), static_cast<float>(std::min(py1, pr.Max.y + 1.0))),
                   col);
        }
    }
}

void fit_bounds(Point bmin, Point bmax) {
    if (!FitThisFrame()) return;
    FitPoint(bmin.x, bmin.y);
    FitPoint(bmax.x, bmax.y);
}

}  // namespace

ImTextureID EnsureSpriteTexture(Context& c) {
    if (c.provider == nullptr) return nullptr;
    if (c.sprite_provider == c.provider && c.sprite_texture != nullptr) return c.sprite_texture;
    if (c.sprite_provider != nullptr && c.sprite_texture != nullptr) c.sprite_provider->Release(kSpriteTextureKey);
    std::vector<uint32_t> px;
    build_sprite_sheet(px);
    c.sprite_texture = c.provider->UpdateFiltered(kSpriteTextureKey, kSpriteCell * kSpriteCount, kSpriteCell, px.data(), true);
    c.sprite_provider = c.provider;
    return c.sprite_texture;
}

// ---- [SECTION] custom item API ----------------------------------------------------------------

bool BeginItem(const char* label_id, const Spec& spec) {
    return RegisterItem(label_id, spec, SwatchKind::Fill) != nullptr;
}

void EndItem() {
    Context& c = GetPlotContextRef("EndItem");
    IM_ASSERT(c.item != nullptr && "EndItem() without a successful BeginItem()");
    c.item = nullptr;
}

ImU32 GetItemColor() {
    Context& c = GetPlotContextRef("GetItemColor");
    return c.item != nullptr ? c.item->used_color : ThemeText(1.0f);
}

bool FitThisFrame() {
    Context& c = GetPlotContextRef("FitThisFrame");
    if (!c.setup_done) SetupFinish();
    return c.fit_x || c.fit_y || c.follow;  // following plots gather their extents every frame
}

void FitPoint(double x, double y) {
    Context& c = GetPlotContextRef("FitPoint");
    if (!std::isfinite(x) || !std::isfinite(y)) return;
    if (c.plot->x.is_log() && !(x > 0.0)) return;
    if (c.plot->y.is_log() && !(y > 0.0)) return;
    c.fit_ext_x.extend(x);
    c.fit_ext_y.extend(y);
}

ImVec2 PlotToPixels(double x, double y) {
    Context& c = GetPlotContextRef("PlotToPixels");
    if (!c.setup_done) SetupFinish();
    const double px = std::clamp(c.plot->x.plot_to_pixels(x), -1e7, 1e7);
    const double py = std::clamp(c.plot->y.plot_to_pixels(y), -1e7, 1e7);
    return ImVec2(static_cast<float>(px), static_cast<float>(py));
}

namespace {

template <class T>
int nearest_point_to_mouse(const T* xs, const T* ys, int count, float radius_px) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    int best = -1;
    float best_d2 = radius_px * radius_px;
    for (int i = 0; i < count; ++i) {
        const ImVec2 p = PlotToPixels(xs[i], ys[i]);
        const float d2 = (p.x - m.x) * (p.x - m.x) + (p.y - m.y) * (p.y - m.y);
        if (d2 < best_d2) best_d2 = d2, best = i;
    }
    return best;
}

}  // namespace

int NearestPointToMouse(const double* xs, const double* ys, int count, float radius_px) {
    return nearest_point_to_mouse(xs, ys, count, radius_px);
}

int NearestPointToMouse(const float* xs, const float* ys, int count, float radius_px) {
    return nearest_point_to_mouse(xs, ys, count, radius_px);
}

Point PixelsToPlot(ImVec2 pixel) {
    Context& c = GetPlotContextRef("PixelsToPlot");
    if (!c.setup_done) SetupFinish();
    return Point{c.plot->x.pixels_to_plot(pixel.x), c.plot->y.pixels_to_plot(pixel.y)};
}

ImDrawList* GetPlotDrawList() {
    Context& c = GetPlotContextRef("GetPlotDrawList");
    if (!c.setup_done) SetupFinish();
    return c.draw_list;
}

// ---- [SECTION] lines --------------------------------------------------------------------------
namespace {

// Clip segment (a -> b) to rect r in double precision (Liang-Barsky). False if fully outside.
bool clip_segment(double& ax, double& ay, double& bx, double& by, double x0, double y0, double x1, double y1) {
    double t0 = 0.0, t1 = 1.0;
    const double dx = bx - ax, dy = by - ay;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {ax - x0, x1 - ax, ay - y0, y1 - ay};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0) return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0.0) {
            if (t > t1) return false;
            t0 = std::max(t0, t);
        } else {
            if (t < t0) return false;
            t1 = std::min(t1, t);
        }
    }
    const double nax = ax + t0 * dx, nay = ay + t0 * dy;
    bx = ax + t1 * dx;
    by = ay + t1 * dy;
    ax = nax;
    ay = nay;
    return true;
}

// Collects visible polyline runs (clipped), optionally reducing points per pixel column, and
// strokes them with AddPolyline (solid) or dash pieces.
class LineBuilder {
public:
    LineBuilder(Context& c, ImU32 col, float weight, LineStyle style, bool reduce)
        : c_(c), dl_(c.draw_list), col_(col), weight_(weight), style_(style), reduce_(reduce) {
        const ImRect& r = c.plot_rect;
        const double m = weight + 2.0;
        x0_ = r.Min.x - m;
        y0_ = r.Min.y - m;
        x1_ = r.Max.x + m;
        y1_ = r.Max.y + m;
        c_.points.clear();
    }
    ~LineBuilder() { flush(); }

    // Next point in pixels (non-finite: break the line).
    void add(double px, double py) {
        if (!std::isfinite(px) || !std::isfinite(py)) {
            flush();
            have_prev_ = false;
            return;
        }
        if (have_prev_) {
            double ax = prev_x_, ay = prev_y_, bx = px, by = py;
            const bool a_in = inside(ax, ay), b_in = inside(bx, by);
            if (a_in && b_in) {
                if (c_.points.empty()) emit(ax, ay);
                emit(bx, by);
            } else if (clip_segment(ax, ay, bx, by, x0_, y0_, x1_, y1_)) {
                if (!a_in) flush();
                if (c_.points.empty()) emit(ax, ay);
                emit(bx, by);
                if (!b_in) flush();
            } else {
                flush();
            }
        }
        prev_x_ = px;
        prev_y_ = py;
        have_prev_ = true;
    }

private:
    bool inside(double x, double y) const { return x >= x0_ && x <= x1_ && y >= y0_ && y <= y1_; }

    void emit(double x, double y) {
        const ImVec2 p(static_cast<float>(x), static_cast<float>(y));
        if (reduce_) {
            const int col = static_cast<int>(std::floor(x));
            if (group_open_ && col == group_col_) {
                group_.add(p, p.y);
                return;
            }
            close_group();
            group_open_ = true;
            group_col_ = col;
            group_.start(p, p.y);
            push(p);
            return;
        }
        push(p);
    }

    void close_group() {
        if (!group_open_) return;
        group_open_ = false;
        group_.emit_after_first([this](ImVec2 p) { push(p); });
    }

    void push(ImVec2 p) {
        std::vector<ImVec2>& pts = c_.points;
        if (!pts.empty() && pts.back().x == p.x && pts.back().y == p.y) return;
        pts.push_back(p);
        if (pts.size() >= kMaxRun) {
            const ImVec2 last = pts.back();
            stroke();
            pts.clear();
            pts.push_back(last);
        }
    }

    void flush() {
        close_group();
        stroke();
        c_.points.clear();
    }

    void stroke() {
        const std::vector<ImVec2>& pts = c_.points;
        if (pts.size() < 2) return;
        if (style_ == LineStyle::Solid) {
            dl_->AddPolyline(pts.data(), static_cast<int>(pts.size()), col_, 0, weight_);
            return;
        }
        const float on = style_ == LineStyle::Dashed ? 3.0f * weight_ + 4.0f : std::max(1.5f, weight_);
        const float off = style_ == LineStyle::Dashed ? 2.0f * weight_ + 3.0f : 2.0f * weight_ + 1.5f;
        for (size_t i = 1; i < pts.size(); ++i) {
            const ImVec2 a = pts[i - 1], b = pts[i];
            const float len = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
            float s = 0.0f;
            while (s < len) {
                const float period = dash_on_ ? on : off;
                const float step = std::min(period - dash_pos_, len - s);
                if (dash_on_ && step > 0.0f) {
                    const float t0 = s / len, t1 = (s + step) / len;
                    dl_->AddLine(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                                 ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), col_, weight_);
                }
                s += step;
                dash_pos_ += step;
                if (dash_pos_ >= period - 1e-4f) {
                    dash_pos_ = 0.0f;
                    dash_on_ = !dash_on_;
                }
            }
        }
    }

    static constexpr size_t kMaxRun = 2048;
    Context& c_;
    ImDrawList* dl_;
    ImU32 col_;
    float weight_;
    LineStyle style_;
    bool reduce_;
    double x0_, y0_, x1_, y1_;
    double prev_x_ = 0.0, prev_y_ = 0.0;
    bool have_prev_ = false;
    bool group_open_ = false;
    int group_col_ = 0;
    ColumnExtremes<ImVec2> group_;  // the open column (reduce_), its first point already pushed
    float dash_pos_ = 0.0f;
    bool dash_on_ = true;
};

template <class Getter>
void fit_points(Getter get, int count) {
    if (!FitThisFrame()) return;
    for (int i = 0; i < count; ++i) {
        const Point p = get(i);
        FitPoint(p.x, p.y);
    }
}

// Marks of points outside the view: a small triangle on the edge they lie beyond (at a corner:
// the corner), pointing outwards, in the point's colour; one per 3 px of the edge.
class EdgeMarks {
public:
    explicit EdgeMarks(Context& c) : c_(c), pr_(c.plot_rect) {
        const int w = std::max(1, static_cast<int>(pr_.GetWidth() / kCell) + 1);
        const int h = std::max(1, static_cast<int>(pr_.GetHeight() / kCell) + 1);
        w_ = w;
        used_.assign(static_cast<size_t>(2 * (w + h)), 0);
    }
    void mark(double px, double py, ImU32 col) {
        if (!std::isfinite(px) || !std::isfinite(py)) return;
        const float x = static_cast<float>(std::clamp(px, static_cast<double>(pr_.Min.x), static_cast<double>(pr_.Max.x)));
        const float y = static_cast<float>(std::clamp(py, static_cast<double>(pr_.Min.y), static_cast<double>(pr_.Max.y)));
        const float dx = px < pr_.Min.x ? -1.0f : px > pr_.Max.x ? 1.0f : 0.0f;
        const float dy = py < pr_.Min.y ? -1.0f : py > pr_.Max.y ? 1.0f : 0.0f;
        // one slot per cell of the edge (top, bottom: by x; left, right: by y)
        const int wc = w_, hc = static_cast<int>(used_.size()) / 2 - w_;
        const int cx = std::clamp(static_cast<int>((x - pr_.Min.x) / kCell), 0, wc - 1);
        const int cy = std::clamp(static_cast<int>((y - pr_.Min.y) / kCell), 0, hc - 1);
        const size_t slot = dy != 0.0f ? static_cast<size_t>((dy < 0 ? 0 : wc) + cx)
                                       : static_cast<size_t>(2 * wc + (dx < 0 ? 0 : hc) + cy);
        if (slot >= used_.size() || used_[slot]) return;
        used_[slot] = 1;
        ++c_.edge_marks;
        const float len = std::sqrt(dx * dx + dy * dy);
        const float ux = dx / len, uy = dy / len;  // outwards
        const float s = kSize;
        // tip on the edge, base inside the plot
        const ImVec2 tip(x, y), b(x - ux * s * 1.6f, y - uy * s * 1.6f);
        const ImVec2 b1(b.x - uy * s, b.y + ux * s), b2(b.x + uy * s, b.y - ux * s);
        const ImU32 a = (col >> IM_COL32_A_SHIFT) & 0xFF;
        const ImU32 shown = (col & ~IM_COL32_A_MASK) | (std::max<ImU32>(a, 200) << IM_COL32_A_SHIFT);
        tris_.push_back(Tri{tip, b1, b2, shown});
    }
    // Draws the marks (after the markers' batch, which holds the sprite texture).
    ~EdgeMarks() {
        for (const Tri& t : tris_) c_.draw_list->AddTriangleFilled(t.a, t.b, t.c, t.col);
    }

private:
    static constexpr float kCell = 3.0f, kSize = 3.5f;
    Context& c_;
    ImRect pr_;
    int w_ = 1;
    std::vector<unsigned char> used_;
    struct Tri {
        ImVec2 a, b, c;
        ImU32 col;
    };
    std::vector<Tri> tris_;
};

template <class Getter>
void render_markers(Context& c, Getter get, int count, const Spec& spec, ImU32 base, Marker m, int stride,
                    bool mark_edges = false) {
    if (m == Marker::None || count <= 0) return;
    const ImRect& pr = c.plot_rect;
    const Axis& ax = c.plot->x;
    const Axis& ay = c.plot->y;
    // A scatter's points outside the view are marked at its edge (mark_edges; fitted or not: a
    // fixed frame's samples too), drawn when `edges` goes, after the markers' batch `w`.
    std::unique_ptr<EdgeMarks> edges;
    MarkerWriter w(c.draw_list, EnsureSpriteTexture(c), m);
    const float alpha = spec.fill_alpha;
    for (int i = 0; i < count; i += stride) {
        const Point p = get(i);
        const double px = ax.plot_to_pixels(p.x), py = ay.plot_to_pixels(p.y);
        const float r = spec.sizes ? spec.sizes[i] : spec.marker_size;
        const float h = r * kSpriteScale;  // largest half-extent of any marker quad
        if (!(px >= pr.Min.x - h && px <= pr.Max.x + h && py >= pr.Min.y - h && py <= pr.Max.y + h)) {
            if (mark_edges && std::isfinite(p.x) && std::isfinite(p.y) &&
                !(ax.is_log() && !(p.x > 0)) && !(ay.is_log() && !(p.y > 0))) {
                if (!edges) edges = std::make_unique<EdgeMarks>(c);
                edges->mark(px, py, spec.colors ? spec.colors[i] : base);
            }
            continue;
        }
        if (!(r > 0.0f)) continue;
        ImU32 col = spec.colors ? spec.colors[i] : base;
        if (alpha < 1.0f) col = ScaleAlpha(col, alpha);
        w.marker(ImVec2(static_cast<float>(px), static_cast<float>(py)), r, col);
    }
}

template <class Getter>
void plot_line_ex(const char* label_id, Getter get, int count, const Spec& spec) {
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Line);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    if (!(spec.flags & ItemFlags_NoFit)) fit_points(get, count);
    const bool reduce = count > 4.0 * c.plot_rect.GetWidth();
    {
        LineBuilder lb(c, it->used_color, LineWeight(spec), spec.line_style, reduce);
        const Axis& ax = c.plot->x;
        const Axis& ay = c.plot->y;
        for (int i = 0; i < count; ++i) {
            const Point p = get(i);
            if (!std::isfinite(p.x) || !std::isfinite(p.y) || (ax.is_log() && !(p.x > 0)) || (ay.is_log() && !(p.y > 0))) {
                lb.add(NAN, NAN);
                continue;
            }
            lb.add(ax.plot_to_pixels(p.x), ay.plot_to_pixels(p.y));
        }
    }
    if (spec.marker != Marker::None) {
        const int stride = count > kScatterSplatThreshold ? (count + kScatterSplatThreshold - 1) / kScatterSplatThreshold : 1;
        render_markers(c, get, count, spec, it->used_color, spec.marker, stride);
    }
    c.item = nullptr;
}

}  // namespace

void PlotLine(const char* label_id, const double* xs, const double* ys, int count, const Spec& spec) {
    if (xs == nullptr || ys == nullptr) count = 0;
    plot_line_ex(label_id, [xs, ys](int i) { return Point{xs[i], ys[i]}; }, std::max(count, 0), spec);
}

void PlotLine(const char* label_id, const float* xs, const float* ys, int count, const Spec& spec) {
    if (xs == nullptr || ys == nullptr) count = 0;
    plot_line_ex(label_id, [xs, ys](int i) { return Point{xs[i], ys[i]}; }, std::max(count, 0), spec);
}

void PlotLine(const char* label_id, const double* values, int count, double x0, double dx, const Spec& spec) {
    if (values == nullptr) count = 0;
    plot_line_ex(label_id, [=](int i) { return Point{x0 + dx * i, values[i]}; }, std::max(count, 0), spec);
}

void PlotLine(const char* label_id, const float* values, int count, double x0, double dx, const Spec& spec) {
    if (values == nullptr) count = 0;
    plot_line_ex(label_id, [=](int i) { return Point{x0 + dx * i, values[i]}; }, std::max(count, 0), spec);
}

// ---- [SECTION] scatter ------------------------------------------------------------------------
namespace {

template <class T>
void splat(Context& c, const T* xs, const T* ys, int count, const Spec& spec, ImU32 base, int w, int h,
           double div, uint32_t* out) {
    // 1. accumulate count and colour sums per pixel (one write per point, no per-point branches
    //    beyond the cull), 2. optionally blur with a separable [0.5 1 0.5] tent so single points stay
    //    visible, 3. shade: average colour, alpha and brightness from log-scaled density.
    std::vector<float>& acc = c.accum;
    const size_t npx = static_cast<size_t>(w) * static_cast<size_t>(h);
    acc.assign(npx * 4, 0.0f);
    const Axis& ax = c.plot->x;
    const Axis& ay = c.plot->y;
    const bool lx = ax.is_log(), ly = ay.is_log();
    // image pixel = (screen pixel - plot origin) / div
    const double sx = ax.scale_to_pixel() / div, sy = ay.scale_to_pixel() / div;
    const double bx = (ax.pixel_min() - c.plot_rect.Min.x) / div - sx * ax.t_min();
    const double by = (ay.pixel_min() - c.plot_rect.Min.y) / div - sy * ay.t_min();
    for (int i = 0; i < count; ++i) {
        double x = static_cast<double>(xs[i]), y = static_cast<double>(ys[i]);
        if (lx) x = x > 0.0 ? std::log10(x) : -1e300;
        if (ly) y = y > 0.0 ? std::log10(y) : -1e300;
        const double px = bx + sx * x, py = by + sy * y;
        if (!(px >= 0.0 && px < w && py >= 0.0 && py < h)) continue;
        const ImU32 col = spec.colors ? spec.colors[i] : base;
        float* a = &acc[(static_cast<size_t>(py) * static_cast<size_t>(w) + static_cast<size_t>(px)) * 4];
        a[0] += 1.0f;
        a[1] += static_cast<float>(col & 0xFF);
        a[2] += static_cast<float>((col >> 8) & 0xFF);
        a[3] += static_cast<float>((col >> 16) & 0xFF);
    }
    if (div == 1.0 && spec.marker_size >= 2.5f && w >= 3 && h >= 3) {
        // separable tent blur, in place with a one-row/one-pixel history
        std::vector<float>& tmp = c.points_f;
        tmp.resize(static_cast<size_t>(w) * 4);
        for (int r = 0; r < h; ++r) {  // horizontal
            float* row = &acc[static_cast<size_t>(r) * w * 4];
            std::copy(row, row + static_cast<size_t>(w) * 4, tmp.begin());
            for (int k = 0; k < w; ++k)
                for (int ch = 0; ch < 4; ++ch) {
                    float v = tmp[static_cast<size_t>(k) * 4 + ch];
                    if (k > 0) v += 0.5f * tmp[static_cast<size_t>(k - 1) * 4 + ch];
                    if (k + 1 < w) v += 0.5f * tmp[static_cast<size_t>(k + 1) * 4 + ch];
                    row[static_cast<size_t>(k) * 4 + ch] = v;
                }
        }
        std::vector<float>& prev = c.points_f2;
        prev.assign(static_cast<size_t>(w) * 4, 0.0f);
        for (int r = 0; r < h; ++r) {
            float* row = &acc[static_cast<size_t>(r) * w * 4];
            const float* next = r + 1 < h ? &acc[static_cast<size_t>(r + 1) * w * 4] : nullptr;
            std::copy(row, row + static_cast<size_t>(w) * 4, tmp.begin());
            for (size_t k = 0; k < static_cast<size_t>(w) * 4; ++k)
                row[k] = tmp[k] + 0.5f * prev[k] + (next ? 0.5f * next[k] : 0.0f);
            prev.swap(tmp);
        }
    }
    float max_n = 0.0f;
    for (size_t k = 0; k < acc.size(); k += 4) max_n = std::max(max_n, acc[k]);
    const float inv_log = max_n > 0.0f ? 1.0f / std::log1p(max_n) : 0.0f;
    const float alpha_mul = std::clamp(spec.fill_alpha, 0.0f, 1.0f);
    for (size_t k = 0, p = 0; k < acc.size(); k += 4, ++p) {
        const float n = acc[k];
        if (n <= 1e-6f) continue;
        const float t = std::log1p(n) * inv_log;  // log-scaled density in (0, 1]
        const float bright = 0.7f + 0.3f * t;
        const float inv = bright / n;
        const int r = std::min(255, static_cast<int>(acc[k + 1] * inv + 0.5f));
        const int g = std::min(255, static_cast<int>(acc[k + 2] * inv + 0.5f));
        const int b = std::min(255, static_cast<int>(acc[k + 3] * inv + 0.5f));
        const int a = static_cast<int>((0.3f + 0.7f * t) * alpha_mul * 255.0f + 0.5f);
        out[p] = IM_COL32(r, g, b, a);
    }
}

template <class T>
void plot_scatter_ex(const char* label_id, const T* xs, const T* ys, int count, const Spec& spec) {
    if (xs == nullptr || ys == nullptr) count = 0;
    count = std::max(count, 0);
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Marker);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    auto get = [xs, ys](int i) { return Point{static_cast<double>(xs[i]), static_cast<double>(ys[i])}; };
    if (!(spec.flags & ItemFlags_NoFit)) fit_points(get, count);
    const Marker m = spec.marker == Marker::None ? Marker::Circle : spec.marker;
    if (count <= kScatterSplatThreshold) {
        render_markers(c, get, count, spec, it->used_color, m, 1, true);
    } else if (c.provider != nullptr) {
        const ImRect& pr = c.plot_rect;
        const int div = count > kScatterHalfResThreshold ? 2 : 1;
        const int w = std::clamp(static_cast<int>(pr.GetWidth()) / div, 1, 4096);
        const int h = std::clamp(static_cast<int>(pr.GetHeight()) / div, 1, 4096);
        const PlotState& st = *c.plot;
        uint64_t k = hash_value(static_cast<const void*>(xs), 1);
        k = hash_value(static_cast<const void*>(ys), k);
        k = hash_value(static_cast<const void*>(spec.colors), k);
        k = hash_value(count, k);
        k = hash_value(spec.version, k);
        k = hash_value(w, hash_value(h, k));
        k = hash_value(it->used_color, k);
        k = hash_value(spec.marker_size, k);
        k = hash_value(spec.fill_alpha, k);
        const double lim[4] = {st.x.min(), st.x.max(), st.y.min(), st.y.max()};
        ImageCache& img = it->image;
        if (c.interacting && img.texture != nullptr && img.provider == c.provider && img.data_hash == k) {
            // same data, only the view moved: stretch the previous image until the interaction ends
            const ImVec2 tl = PlotToPixels(img.limits[0], img.limits[3]);
            const ImVec2 br = PlotToPixels(img.limits[1], img.limits[2]);
            c.draw_list->AddImage(img.texture, tl, br);
        } else {
            const ImU32 base = it->used_color;
            ImTextureID tex = cached_texture(c, *it, hash_bytes(lim, sizeof(lim), k), w, h, [&](uint32_t* out) {
                splat(c, xs, ys, count, spec, base, w, h, static_cast<double>(div), out);
            });
            img.data_hash = k;
            std::copy(lim, lim + 4, img.limits);
            c.draw_list->AddImage(tex, pr.Min, ImVec2(pr.Min.x + w * div, pr.Min.y + h * div));
        }
    } else {
        const int stride = (count + kScatterSplatThreshold - 1) / kScatterSplatThreshold;
        render_markers(c, get, count, spec, it->used_color, m, stride, true);
    }
    c.item = nullptr;
}

}  // namespace

void PlotScatter(const char* label_id, const double* xs, const double* ys, int count, const Spec& spec) {
    plot_scatter_ex(label_id, xs, ys, count, spec);
}

void PlotScatter(const char* label_id, const float* xs, const float* ys, int count, const Spec& spec) {
    plot_scatter_ex(label_id, xs, ys, count, spec);
}

// ---- [SECTION] bars, heatmaps, images, text ---------------------------------------------------
namespace {

template <class T>
void plot_bars_ex(const char* label_id, const T* values, int count, double width, double shift, const Spec& spec) {
    if (values == nullptr) count = 0;
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Fill);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    const double half = 0.5 * (std::isfinite(width) && width > 0.0 ? width : 0.67);
    if (FitThisFrame() && !(spec.flags & ItemFlags_NoFit))
        for (int i = 0; i < count; ++i) {
            if (!std::isfinite(static_cast<double>(values[i]))) continue;
            FitPoint(i + shift - half, 0.0);
            FitPoint(i + shift + half, static_cast<double>(values[i]));
        }
    ImU32 fill = spec.fill_color != kAutoColor ? spec.fill_color : ScaleAlpha(it->used_color, spec.fill_alpha);
    const ImRect& pr = c.plot_rect;
    const Axis& ax = c.plot->x;
    const Axis& ay = c.plot->y;
    const double base = ay.is_log() ? ay.min() : 0.0;
    QuadWriter q(c.draw_list);
    for (int i = 0; i < count; ++i) {
        const double v = static_cast<double>(values[i]);
        if (!std::isfinite(v)) continue;
        double x0 = ax.plot_to_pixels(i + shift - half), x1 = ax.plot_to_pixels(i + shift + half);
        double y0 = ay.plot_to_pixels(v), y1 = ay.plot_to_pixels(base);
        if (x0 > x1) std::swap(x0, x1);
        if (y0 > y1) std::swap(y0, y1);
        if (x1 < pr.Min.x || x0 > pr.Max.x || y1 < pr.Min.y || y0 > pr.Max.y) continue;
        x0 = std::max(x0, pr.Min.x - 1.0);
        x1 = std::min(x1, pr.Max.x + 1.0);
        y0 = std::max(y0, pr.Min.y - 1.0);
        y1 = std::min(y1, pr.Max.y + 1.0);
        if (x1 - x0 < 1.0) x1 = x0 + 1.0;  // keep very narrow bars visible
        q.rect(ImVec2(static_cast<float>(x0), static_cast<float>(y0)), ImVec2(static_cast<float>(x1), static_cast<float>(y1)),
               fill);
    }
    q.finish();
    c.item = nullptr;
}

template <class T>
void plot_heatmap_ex(const char* label_id, const T* values, int rows, int cols, double smin, double smax, Point bmin,
                     Point bmax, Colormap cmap, const Spec& spec) {
    if (values == nullptr || rows <= 0 || cols <= 0) return;
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Fill);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    if (!(spec.flags & ItemFlags_NoFit)) fit_bounds(bmin, bmax);
    const size_t n = static_cast<size_t>(rows) * static_cast<size_t>(cols);
    if (!(smax > smin) || !std::isfinite(smin) || !std::isfinite(smax)) {
        FitExtents e;
        for (size_t i = 0; i < n; ++i) e.extend(static_cast<double>(values[i]));
        smin = e.valid() ? e.min : 0.0;
        smax = e.valid() && e.max > e.min ? e.max : smin + 1.0;
    }
    const double inv = 1.0 / (smax - smin);
    auto color_at = [&](size_t i) { return SampleColormap((static_cast<double>(values[i]) - smin) * inv, cmap); };
    if (static_cast<int>(n) > kHeatmapTextureCells && c.provider != nullptr) {
        uint64_t k = hash_bytes(values, n * sizeof(T));
        k = hash_value(rows, k);
        k = hash_value(smin, k);
        k = hash_value(smax, k);
        k = hash_value(static_cast<int>(cmap), k);
        k = hash_value(g_colormap_serial, k);
        k = hash_value(spec.version, k);
        ImTextureID tex = cached_texture(c, *it, k, cols, rows, [&](uint32_t* out) {
            for (size_t i = 0; i < n; ++i) out[i] = color_at(i);
        });
        ImVec2 tl, br;
        bounds_to_pixels(bmin, bmax, tl, br);
        c.draw_list->AddImage(tex, tl, br);
    } else {
        draw_cells(c, rows, cols, bmin, bmax,
                   [&](int r, int k) { return color_at(static_cast<size_t>(r) * cols + static_cast<size_t>(k)); });
    }
    c.item = nullptr;
}

}  // namespace

void PlotBars(const char* label_id, const double* values, int count, double width, double shift, const Spec& spec) {
    plot_bars_ex(label_id, values, count, width, shift, spec);
}

void PlotBars(const char* label_id, const float* values, int count, double width, double shift, const Spec& spec) {
    plot_bars_ex(label_id, values, count, width, shift, spec);
}

void PlotHeatmap(const char* label_id, const double* values, int rows, int cols, double scale_min, double scale_max,
                 Point bounds_min, Point bounds_max, Colormap cmap, const Spec& spec) {
    plot_heatmap_ex(label_id, values, rows, cols, scale_min, scale_max, bounds_min, bounds_max, cmap, spec);
}

void PlotHeatmap(const char* label_id, const float* values, int rows, int cols, double scale_min, double scale_max,
                 Point bounds_min, Point bounds_max, Colormap cmap, const Spec& spec) {
    plot_heatmap_ex(label_id, values, rows, cols, scale_min, scale_max, bounds_min, bounds_max, cmap, spec);
}

void PlotImage(const char* label_id, ImTextureID texture, Point bounds_min, Point bounds_max, ImVec2 uv0, ImVec2 uv1,
               ImU32 tint) {
    Spec spec;
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Fill);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    fit_bounds(bounds_min, bounds_max);
    ImVec2 tl, br;
    bounds_to_pixels(bounds_min, bounds_max, tl, br);
    c.draw_list->AddImage(texture, tl, br, uv0, uv1, tint);
    c.item = nullptr;
}

namespace {

// Shared by PlotImageGray/RGB: texture with content-hash cache, or per-pixel rects.
template <class PixelColor>
void plot_image_ex(const char* label_id, const void* data, size_t bytes, int h, int w, uint64_t extra, Point bmin,
                   Point bmax, const Spec& spec, PixelColor color_of) {
    if (data == nullptr || h <= 0 || w <= 0) return;
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Fill);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    if (!(spec.flags & ItemFlags_NoFit)) fit_bounds(bmin, bmax);
    if (c.provider != nullptr) {
        uint64_t k = hash_bytes(data, bytes, extra);
        k = hash_value(w, hash_value(h, k));
        ImTextureID tex = cached_texture(c, *it, k, w, h, [&](uint32_t* out) {
            for (int r = 0; r < h; ++r)
                for (int q = 0; q < w; ++q) out[static_cast<size_t>(r) * w + q] = color_of(r, q);
        });
        ImVec2 tl, br;
        bounds_to_pixels(bmin, bmax, tl, br);
        c.draw_list->AddImage(tex, tl, br);
    } else {
        draw_cells(c, h, w, bmin, bmax, color_of);
    }
    c.item = nullptr;
}

int to_byte(double v) {
    if (!std::isfinite(v)) return 0;
    return static_cast<int>(std::clamp(v, 0.0, 1.0) * 255.0 + 0.5);
}

}  // namespace

void PlotImageGray(const char* label_id, const float* pixels, int h, int w, float vmin, float vmax, Point bounds_min,
                   Point bounds_max, const Spec& spec) {
    const double lo = vmin, span = vmax > vmin ? static_cast<double>(vmax) - vmin : 1.0;
    uint64_t extra = hash_value(vmin, hash_value(vmax, 7));
    plot_image_ex(label_id, pixels, static_cast<size_t>(h) * w * sizeof(float), h, w, extra, bounds_min, bounds_max,
                  spec, [&](int r, int q) {
                      const int g = to_byte((pixels[static_cast<size_t>(r) * w + q] - lo) / span);
                      return IM_COL32(g, g, g, 255);
                  });
}

void PlotImageRGB(const char* label_id, const float* rgb, int h, int w, Point bounds_min, Point bounds_max,
                  const Spec& spec) {
    plot_image_ex(label_id, rgb, static_cast<size_t>(h) * w * 3 * sizeof(float), h, w, 11, bounds_min, bounds_max,
                  spec, [&](int r, int q) {
                      const float* p = rgb + (static_cast<size_t>(r) * w + q) * 3;
                      return IM_COL32(to_byte(p[0]), to_byte(p[1]), to_byte(p[2]), 255);
                  });
}

bool PlotLegendEntry(const char* label_id, const Spec& spec) {
    if (RegisterItem(label_id, spec, SwatchKind::Marker) == nullptr) return false;
    GetCurrentContext()->item = nullptr;
    return true;
}

void PlotText(const char* text, double x, double y, ImVec2 pixel_offset, ImU32 color) {
    Context& c = GetPlotContextRef("PlotText");
    if (!c.setup_done) SetupFinish();
    if (text == nullptr || !std::isfinite(x) || !std::isfinite(y)) return;
    const ImVec2 p = PlotToPixels(x, y);
    const ImVec2 sz = ImGui::CalcTextSize(text);
    const ImVec2 pos(std::floor(p.x + pixel_offset.x - sz.x * 0.5f), std::floor(p.y + pixel_offset.y - sz.y * 0.5f));
    if (!c.plot_rect.Overlaps(ImRect(pos, ImVec2(pos.x + sz.x, pos.y + sz.y)))) return;
    AddPlotText(c.draw_list, pos, color != kAutoColor ? color : ThemeText(1.0f), text);
}

void PlotGuideX(const char* id, double x, ImU32 color, float weight) {
    Spec spec;
    spec.flags = ItemFlags_NoLegend | ItemFlags_NoFit;
    if (!BeginItem(id, spec)) return;
    if (std::isfinite(x)) {
        const Limits lim = GetPlotLimits();
        GetPlotDrawList()->AddLine(PlotToPixels(x, lim.y_min), PlotToPixels(x, lim.y_max), color, weight);
    }
    EndItem();
}

// ---- [SECTION] lab glyphs (arrow, ellipse, polygon, trail) ------------------------------------

void PlotArrow(const char* label_id, double x0, double y0, double x1, double y1, const Spec& spec) {
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Line);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    if (!(spec.flags & ItemFlags_NoFit) && FitThisFrame()) {
        FitPoint(x0, y0);
        FitPoint(x1, y1);
    }
    if (std::isfinite(x0) && std::isfinite(y0) && std::isfinite(x1) && std::isfinite(y1)) {
        const ImVec2 a = PlotToPixels(x0, y0), b = PlotToPixels(x1, y1);
        const float dx = b.x - a.x, dy = b.y - a.y;
        const float len = std::sqrt(dx * dx + dy * dy);
        if (len > 0.5f) {
            const ImU32 col = it->used_color;
            const float head = std::max(8.0f, 4.0f * LineWeight(spec));
            const float ux = dx / len, uy = dy / len;
            const float hl = std::min(head, len);
            const ImVec2 base(b.x - ux * hl, b.y - uy * hl);
            if (len > hl)
                c.draw_list->AddLine(a, ImVec2(base.x + ux * 0.5f, base.y + uy * 0.5f), col,
                                     LineWeight(spec));
            const float hw = hl * 0.5f;
            c.draw_list->AddTriangleFilled(b, ImVec2(base.x - uy * hw, base.y + ux * hw),
                                           ImVec2(base.x + uy * hw, base.y - ux * hw), col);
        }
    }
    c.item = nullptr;
}

void PlotEllipse(const char* label_id, double cx, double cy, double a, double b, double cc, double n_sigma,
                 const Spec& spec) {
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Line);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    const bool ok = std::isfinite(cx) && std::isfinite(cy) && std::isfinite(a) && std::isfinite(b) &&
                    std::isfinite(cc) && std::isfinite(n_sigma) && a >= 0.0 && cc >= 0.0;
    if (ok) {
        if (!(spec.flags & ItemFlags_NoFit) && FitThisFrame()) {
            const double hx = n_sigma * std::sqrt(a), hy = n_sigma * std::sqrt(cc);
            FitPoint(cx - hx, cy - hy);
            FitPoint(cx + hx, cy + hy);
        }
        // eigen-decomposition of [[a, b], [b, cc]]
        const double tr = 0.5 * (a + cc);
        const double disc = std::sqrt(0.25 * (a - cc) * (a - cc) + b * b);
        const double l1 = std::max(tr + disc, 0.0), l2 = std::max(tr - disc, 0.0);
        const double th = 0.5 * std::atan2(2.0 * b, a - cc);
        const double r1 = n_sigma * std::sqrt(l1), r2 = n_sigma * std::sqrt(l2);
        const double ct = std::cos(th), s = std::sin(th);
        constexpr int kSeg = 72;
        ImVec2 pts[kSeg];
        for (int i = 0; i < kSeg; ++i) {
            const double phi = 2.0 * 3.14159265358979323846 * i / kSeg;
            const double ex = r1 * std::cos(phi), ey = r2 * std::sin(phi);
            pts[i] = PlotToPixels(cx + ct * ex - s * ey, cy + s * ex + ct * ey);
        }
        if (spec.fill_color != kAutoColor) c.draw_list->AddConvexPolyFilled(pts, kSeg, spec.fill_color);
        if (spec.line_weight > 0.0f)
            c.draw_list->AddPolyline(pts, kSeg, it->used_color, ImDrawFlags_Closed,
                                     LineWeight(spec));
    }
    c.item = nullptr;
}

void PlotPolygon(const char* label_id, const double* xs, const double* ys, int n, ImU32 fill, const Spec& spec) {
    if (xs == nullptr || ys == nullptr || n < 2) return;
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Fill);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    if (!(spec.flags & ItemFlags_NoFit) && FitThisFrame())
        for (int i = 0; i < n; ++i) FitPoint(xs[i], ys[i]);
    std::vector<ImVec2>& pts = c.points;
    pts.clear();
    for (int i = 0; i < n; ++i)
        if (std::isfinite(xs[i]) && std::isfinite(ys[i])) pts.push_back(PlotToPixels(xs[i], ys[i]));
    if (pts.size() >= 3) {
        // AddConvexPolyFilled wants clockwise order on screen for anti-aliasing: fix winding.
        double area = 0.0;
        for (size_t i = 0; i < pts.size(); ++i) {
            const ImVec2& p = pts[i];
            const ImVec2& q = pts[(i + 1) % pts.size()];
            area += static_cast<double>(p.x) * q.y - static_cast<double>(q.x) * p.y;
        }
        if (area < 0.0) std::reverse(pts.begin(), pts.end());
        if ((fill & IM_COL32_A_MASK) != 0) c.draw_list->AddConvexPolyFilled(pts.data(), static_cast<int>(pts.size()), fill);
    }
    if (spec.line_weight > 0.0f && pts.size() >= 2)
        c.draw_list->AddPolyline(pts.data(), static_cast<int>(pts.size()), it->used_color,
                                 ImDrawFlags_Closed, LineWeight(spec));
    c.item = nullptr;
}

namespace {

template <class T>
void plot_trail_ex(const char* label_id, const T* xs, const T* ys, int n, const Spec& spec) {
    if (xs == nullptr || ys == nullptr) n = 0;
    ItemState* it = RegisterItem(label_id, spec, SwatchKind::Line);
    if (it == nullptr) return;
    Context& c = *GetCurrentContext();
    auto get = [xs, ys](int i) { return Point{static_cast<double>(xs[i]), static_cast<double>(ys[i])}; };
    if (!(spec.flags & ItemFlags_NoFit)) fit_points(get, n);
    const ImU32 col = it->used_color;
    const ImRect& pr = c.plot_rect;
    for (int i = 1; i < n; ++i) {
        const Point p0 = get(i - 1), p1 = get(i);
        if (!std::isfinite(p0.x) || !std::isfinite(p0.y) || !std::isfinite(p1.x) || !std::isfinite(p1.y)) continue;
        const ImVec2 a = PlotToPixels(p0.x, p0.y), b = PlotToPixels(p1.x, p1.y);
        if (std::max(a.x, b.x) < pr.Min.x || std::min(a.x, b.x) > pr.Max.x || std::max(a.y, b.y) < pr.Min.y ||
            std::min(a.y, b.y) > pr.Max.y)
            continue;
        const float t = n > 1 ? static_cast<float>(i) / static_cast<float>(n - 1) : 1.0f;
        c.draw_list->AddLine(a, b, ScaleAlpha(col, 0.08f + 0.92f * t), LineWeight(spec));
    }
    if (n > 0) {
        const Point last = get(n - 1);
        if (std::isfinite(last.x) && std::isfinite(last.y) && spec.marker_size > 0.0f) {
            const Marker m = spec.marker == Marker::None ? Marker::Circle : spec.marker;
            Spec head = spec;
            head.colors = nullptr;
            head.sizes = nullptr;
            render_markers(c, [last](int) { return last; }, 1, head, col, m, 1);
        }
    }
    c.item = nullptr;
}

}  // namespace

void PlotTrail(const char* label_id, const double* xs, const double* ys, int n, const Spec& spec) {
    plot_trail_ex(label_id, xs, ys, n, spec);
}

void PlotTrail(const char* label_id, const float* xs, const float* ys, int n, const Spec& spec) {
    plot_trail_ex(label_id, xs, ys, n, spec);
}

namespace {

Spec no_legend(const Spec& spec) {
    Spec s = spec;
    s.flags |= ItemFlags_NoLegend;
    return s;
}

}  // namespace

void PlotArrow(double x0, double y0, double x1, double y1, const Spec& spec) {
    PlotArrow("##arrows", x0, y0, x1, y1, no_legend(spec));
}

void PlotEllipse(double cx, double cy, double a, double b, double c, double n_sigma, const Spec& spec) {
    PlotEllipse("##ellipses", cx, cy, a, b, c, n_sigma, no_legend(spec));
}

void PlotPolygon(const double* xs, const double* ys, int n, ImU32 fill, const Spec& spec) {
    PlotPolygon("##polygons", xs, ys, n, fill, no_legend(spec));
}

void PlotTrail(const double* xs, const double* ys, int n, const Spec& spec) {
    PlotTrail("##trails", xs, ys, n, no_legend(spec));
}

void PlotTrail(const float* xs, const float* ys, int n, const Spec& spec) {
    PlotTrail("##trails", xs, ys, n, no_legend(spec));
}

}  // namespace plot
