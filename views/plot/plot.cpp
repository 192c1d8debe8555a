// plot.cpp - plot library core: context, BeginPlot/EndPlot, layout, input, ticks, legend, menu.
//
// Index of this file:
// [SECTION] API change log
// [SECTION] context
// [SECTION] helpers
// [SECTION] begin / setup
// [SECTION] layout, input and background (SetupFinish)
// [SECTION] end (legend, readout, menu, fit)
// [SECTION] queries and DragPoint
//
// [SECTION] API change log
//  2026-11-25  first version (BeginPlot/SetupAxes/items/DragPoint/TextureProvider).
//  2026-11-26  SetupAxesFitKey, SetupColorBar, PlotLegendEntry, Colormap::Labels, callers' caches
//              (GetCache/SetCache), plot text logged for tests.
//  2026-11-28  one refit policy: SetDataKey, plots follow their data unless the user zoomed (a
//              "fit" hint then), scatter points outside the view marked at the edge,
//              SaveViews/RestoreViews, PlotRect::limits/user_view/edge_marks. RestoreView (one plot,
//              once it has drawn for the current data: a reopened session's zoom),
//              SavedViews::View::current_data.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "views/plot/plot_internal.h"

namespace plot {
namespace {

Context* g_context = nullptr;

constexpr float kPad = 6.0f;             // frame padding (px)
constexpr float kTickLen = 4.0f;         // tick mark length (px)
constexpr double kFitPadding = 0.05;     // fractional padding of fits
constexpr double kFollowPadding = 0.15;  // ... of a refit that follows data out of the view (room to drift)
constexpr float kWheelZoom = 0.85f;      // zoom factor per wheel notch

ImVec2 add(ImVec2 a, ImVec2 b) { return ImVec2(a.x + b.x, a.y + b.y); }

bool in_rect(const ImRect& r, ImVec2 p) { return r.GetWidth() > 0 && r.Contains(p); }

// Text rotated by 90 degrees counter-clockwise, centred at `center` (for the y-axis label).
void add_text_vertical(ImDrawList* dl, ImVec2 center, ImU32 col, const char* text) {
    const ImVec2 sz = ImGui::CalcTextSize(text);
    const int vtx_begin = dl->VtxBuffer.Size;
    const ImVec2 pos(center.x - sz.x * 0.5f, center.y - sz.y * 0.5f);
    // Lay the text out unclipped: before the rotation it may stick out of the clip rect, and
    // ImFont::RenderText would drop those glyphs (the first letters of a long label).
    // The GPU still clips the rotated glyphs to the caller's clip rect: the text's draw command
    // (the one before the command PopClipRect opens) gets that rect back, so a label never
    // bleeds out of a scrolled or clipped panel.
    const ImVec4 clip(dl->GetClipRectMin().x, dl->GetClipRectMin().y, dl->GetClipRectMax().x,
                      dl->GetClipRectMax().y);
    // Not PushClipRectFullScreen: near the screen's right edge the unrotated text runs past the
    // display and its last glyphs would be dropped (a colour bar's title at the window's edge).
    dl->PushClipRect(ImVec2(-1e6f, -1e6f), ImVec2(1e6f, 1e6f), false);
    AddPlotText(dl, pos, col, text);
    dl->PopClipRect();
    if (dl->VtxBuffer.Size > vtx_begin && dl->CmdBuffer.Size >= 2)
        dl->CmdBuffer[dl->CmdBuffer.Size - 2].ClipRect = clip;
    for (int i = vtx_begin; i < dl->VtxBuffer.Size; ++i) {
        ImDrawVert& v = dl->VtxBuffer[i];
        const float dx = v.pos.x - center.x, dy = v.pos.y - center.y;
        v.pos = ImVec2(center.x + dy, center.y - dx);
    }
}

// text shortened with "..." to at most `avail` pixels (whole UTF-8 characters are dropped), so
// a long title or axis label never runs into a neighbouring widget.
std::string fit_text(const std::string& text, float avail) {
    if (ImGui::CalcTextSize(text.c_str()).x <= avail) return text;
    std::string t = text;
    while (!t.empty() && ImGui::CalcTextSize((t + "...").c_str()).x > avail) {
        t.pop_back();
        while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80) t.pop_back();
    }
    return t + "...";
}

// Widest tick label of a tick list (majors only).
float max_label_width(const std::vector<Tick>& ticks) {
    float w = 0.0f;
    for (const Tick& t : ticks)
        if (t.major) w = std::max(w, ImGui::CalcTextSize(t.label).x);
    return w;
}

// Pixel distance between the first two majors (0 if fewer than two).
double major_spacing(const Axis& axis, const std::vector<Tick>& ticks) {
    double first = 0.0;
    bool have = false;
    for (const Tick& t : ticks) {
        if (!t.major) continue;
        const double p = axis.plot_to_pixels(t.value);
        if (have) return std::fabs(p - first);
        first = p;
        have = true;
    }
    return 0.0;
}

// x ticks whose labels do not overlap: widen the spacing until the widest label fits.
void locate_x_ticks(Context& c) {
    if (c.custom_x) {
        c.x_ticks = c.custom_x_ticks;
        return;
    }
    const float fh = ImGui::GetFontSize();
    double target = std::max(100.0, 6.0 * fh);
    for (int attempt = 0; attempt < 4; ++attempt) {
        locate_ticks(c.plot->x, target, c.x_ticks);
        if (c.x_flags & AxisFlags_NoTickLabels) return;
        const double need = max_label_width(c.x_ticks) + 1.5 * fh;
        const double have = major_spacing(c.plot->x, c.x_ticks);
        if (have == 0.0 || have >= need) return;
        target = std::max(target * 1.5, need * 1.05);
    }
}

void locate_y_ticks(Context& c) {
    if (c.custom_y) {
        c.y_ticks = c.custom_y_ticks;
        return;
    }
    const float fh = ImGui::GetFontSize();
    locate_ticks(c.plot->y, std::max(3.0 * fh, 48.0), c.y_ticks);
}

constexpr int kColorBarSteps = 48;  // gradient quads of a colour bar

// Colour bar of this frame: ticks for a bar spanning [bottom, top] pixels, and the width it
// needs right of the plot area (bar, ticks, labels, rotated title).
float colorbar_layout(Context& c, float bottom, float top, Axis& axis, std::vector<Tick>& ticks) {
    const float fh = ImGui::GetFontSize();
    double lo = c.colorbar_min, hi = c.colorbar_max;
    if (!(hi > lo)) hi = lo + 1.0;
    axis.set_range(lo, hi);
    axis.set_pixels(bottom, top);
    locate_ticks(axis, std::max(3.0 * fh, 48.0), ticks);
    float w = fh * 0.75f + kTickLen + 2.0f + max_label_width(ticks);
    if (!c.colorbar_label.empty()) w += fh + 4.0f;
    return w;
}

void draw_colorbar(Context& c, const Axis& axis, const std::vector<Tick>& ticks) {
    ImDrawList* dl = c.draw_list;
    const ImRect& r = c.colorbar_rect;
    const float h = r.GetHeight();
    for (int i = 0; i < kColorBarSteps; ++i) {
        // top of the bar = scale max
        const float y0 = r.Min.y + h * static_cast<float>(i) / kColorBarSteps;
        const float y1 = r.Min.y + h * static_cast<float>(i + 1) / kColorBarSteps;
        const ImU32 top = SampleColormap(1.0 - static_cast<double>(i) / kColorBarSteps, c.colorbar_cmap);
        const ImU32 bot = SampleColormap(1.0 - static_cast<double>(i + 1) / kColorBarSteps, c.colorbar_cmap);
        dl->AddRectFilledMultiColor(ImVec2(r.Min.x, y0), ImVec2(r.Max.x, y1), top, top, bot, bot);
    }
    dl->AddRect(r.Min, r.Max, ThemeText(0.35f));
    const ImU32 tick_col = ThemeText(0.45f), label_col = ThemeText(0.85f);
    float last_top = 1e30f, label_right = r.Max.x;
    for (const Tick& t : ticks) {
        const float py = std::floor(static_cast<float>(axis.plot_to_pixels(t.value))) + 0.5f;
        if (py < r.Min.y - 0.5f || py > r.Max.y + 0.5f) continue;
        const float len = t.major ? kTickLen : kTickLen * 0.5f;
        dl->AddLine(ImVec2(r.Max.x, py), ImVec2(r.Max.x + len, py), tick_col, 1.0f);
        if (!t.major) continue;
        const ImVec2 sz = ImGui::CalcTextSize(t.label);
        const float ly = std::clamp(py - sz.y * 0.5f, c.frame_rect.Min.y + 1.0f, c.frame_rect.Max.y - sz.y - 1.0f);
        if (ly + sz.y + 2.0f > last_top) continue;
        last_top = ly;
        AddPlotText(dl, ImVec2(r.Max.x + kTickLen + 2.0f, std::floor(ly)), label_col, t.label);
        label_right = std::max(label_right, r.Max.x + kTickLen + 2.0f + sz.x);
    }
    if (!c.colorbar_label.empty()) {
        const float fh = ImGui::GetFontSize();
        const float x = std::max(label_right + 4.0f + fh * 0.5f, c.frame_rect.Max.x - kPad - fh * 0.5f);
        const std::string text = fit_text(c.colorbar_label, c.frame_rect.GetHeight() - 2.0f * kPad);
        add_text_vertical(dl, ImVec2(std::floor(x), std::floor(r.GetCenter().y)), label_col, text.c_str());
    }
}

// Drop callers' caches not used for kCacheKeepFrames frames (once per frame).
void trim_caches(Context& c) {
    const int frame = ImGui::GetFrameCount();
    if (c.caches_trimmed_frame == frame) return;
    c.caches_trimmed_frame = frame;
    for (auto it = c.caches.begin(); it != c.caches.end();) {
        if (frame - it->second.last_frame > kCacheKeepFrames)
            it = c.caches.erase(it);
        else
            ++it;
    }
}

// Format a mouse readout value with a bit more precision than the ticks.
void format_readout(double v, const std::vector<Tick>& ticks, const Axis& axis, char* buf, size_t n) {
    double step = 0.0;
    double prev = 0.0;
    bool have = false;
    for (const Tick& t : ticks) {
        if (!t.major) continue;
        if (have) {
            step = std::fabs(t.value - prev);
            break;
        }
        prev = t.value;
        have = true;
    }
    if (axis.is_log() || step <= 0.0) {
        std::snprintf(buf, n, "%.4g", v);
        return;
    }
    format_tick(v, step / 100.0, buf, n);
}

}  // namespace

// ---- [SECTION] context ------------------------------------------------------------------------

Context* CreateContext() {
    Context* ctx = new Context();
    if (g_context == nullptr) g_context = ctx;
    return ctx;
}

void DestroyContext(Context* ctx) {
    if (ctx == nullptr) ctx = g_context;
    if (ctx == nullptr) return;
    for (auto& kv : ctx->plots)
        for (auto& it : kv.second.items) ReleaseImage(it.second.image);
    if (ctx->sprite_provider != nullptr && ctx->sprite_texture != nullptr)
        ctx->sprite_provider->Release(kSpriteTextureKey);
    if (g_context == ctx) g_context = nullptr;
    delete ctx;
}

Context* GetCurrentContext() { return g_context; }

void SetCurrentContext(Context* ctx) { g_context = ctx; }

void SetTextureProvider(TextureProvider* provider) {
    Context& c = GetContextRef();
    if (provider == c.provider) return;
    // Textures belong to the provider that made them: release them while it is still alive.
    for (auto& kv : c.plots)
        for (auto& it : kv.second.items) ReleaseImage(it.second.image);
    if (c.sprite_provider != nullptr && c.sprite_texture != nullptr) c.sprite_provider->Release(kSpriteTextureKey);
    c.sprite_provider = nullptr;
    c.sprite_texture = nullptr;
    c.provider = provider;
}

TextureProvider* GetTextureProvider() { return GetContextRef().provider; }

Context& GetContextRef() {
    IM_ASSERT(g_context != nullptr && "No plot context: call plot::CreateContext() after ImGui::CreateContext()");
    return *g_context;
}

Context& GetPlotContextRef(const char* caller) {
    Context& c = GetContextRef();
    IM_ASSERT(c.plot != nullptr && "plot function called outside BeginPlot()/EndPlot()");
    (void)caller;
    return c;
}

// ---- [SECTION] helpers ------------------------------------------------------------------------

void AddPlotText(ImDrawList* dl, ImVec2 pos, ImU32 col, const char* text) {
    dl->AddText(pos, col, text);
    if (GImGui != nullptr && GImGui->LogEnabled) ImGui::LogRenderedText(&pos, text);
}

std::string FitLabel(const std::string& text, float room) {
    if (ImGui::CalcTextSize(text.c_str()).x <= room) return text;
    const float dots = ImGui::CalcTextSize("...").x;
    std::string cut = text;
    while (!cut.empty() && ImGui::CalcTextSize(cut.c_str()).x + dots > room) {
        // drop the last whole UTF-8 character: its continuation bytes, then its lead byte
        while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
        if (!cut.empty()) cut.pop_back();
    }
    return cut + "...";
}

CacheEntry* GetCache(ImGuiID id) {
    Context& c = GetContextRef();
    auto found = c.caches.find(id);
    if (found == c.caches.end()) return nullptr;
    found->second.last_frame = ImGui::GetFrameCount();
    return found->second.entry.get();
}

CacheEntry* SetCache(ImGuiID id, std::unique_ptr<CacheEntry> entry) {
    Context::CacheSlot& slot = GetContextRef().caches[id];
    slot.entry = std::move(entry);
    slot.last_frame = ImGui::GetFrameCount();
    return slot.entry.get();
}

int GetCacheCount() { return static_cast<int>(GetContextRef().caches.size()); }

std::string DisplayLabel(const char* label_id) {
    if (label_id == nullptr) return std::string();
    const char* end = std::strstr(label_id, "##");
    return end ? std::string(label_id, static_cast<size_t>(end - label_id)) : std::string(label_id);
}

ImU32 ScaleAlpha(ImU32 col, float a) {
    const float alpha = static_cast<float>((col >> IM_COL32_A_SHIFT) & 0xFF) * std::clamp(a, 0.0f, 1.0f);
    return (col & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha + 0.5f) << IM_COL32_A_SHIFT);
}

ImU32 ThemeText(float alpha) {
    ImVec4 c = ImGui::GetStyle().Colors[ImGuiCol_Text];
    c.w *= alpha;
    return ImGui::ColorConvertFloat4ToU32(c);
}

void ReleaseImage(ImageCache& img) {
    if (img.provider != nullptr && img.texture != nullptr) img.provider->Release(img.texture_key);
    img.texture = nullptr;
    img.provider = nullptr;
    img.input_hash = 0;
}

ItemState* RegisterItem(const char* label_id, const Spec& spec, SwatchKind swatch) {
    Context& c = GetPlotContextRef("item");
    if (!c.setup_done) SetupFinish();
    PlotState& st = *c.plot;
    const ImGuiID iid = ImHashStr(label_id ? label_id : "", 0, st.id);
    auto found = st.items.find(iid);
    if (found == st.items.end()) {
        ItemState fresh;
        fresh.id = iid;
        fresh.color = GetColormapColor(st.next_color++);
        found = st.items.emplace(iid, fresh).first;
    }
    ItemState& it = found->second;
    const int frame = ImGui::GetFrameCount();
    const bool first_this_frame = it.last_frame != frame;
    it.last_frame = frame;
    it.swatch = swatch;
    it.marker = spec.marker == Marker::None ? Marker::Circle : spec.marker;
    it.used_color = spec.color != kAutoColor ? spec.color : it.color;
    if (first_this_frame) {
        const char* end = label_id ? std::strstr(label_id, "##") : nullptr;
        const size_t n = label_id ? (end ? static_cast<size_t>(end - label_id) : std::strlen(label_id)) : 0;
        if (it.label.size() != n || it.label.compare(0, n, label_id ? label_id : "", n) != 0)
            it.label.assign(label_id ? label_id : "", n);
        if (!(spec.flags & ItemFlags_NoLegend) && !it.label.empty()) st.legend_order.push_back(iid);
    }
    if (!it.show) return nullptr;
    c.item = &it;
    return &it;
}

// ---- [SECTION] begin / setup ------------------------------------------------------------------

bool BeginPlot(const char* title_id, ImVec2 size, PlotFlags flags) {
    Context& c = GetContextRef();
    IM_ASSERT(c.plot == nullptr && "Mismatched BeginPlot()/EndPlot()");
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    if (window->SkipItems) return false;
    const ImGuiID id = window->GetID(title_id);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    ImVec2 frame_size = ImGui::CalcItemSize(size, std::max(avail.x, 100.0f), 300.0f);
    // A key row that did not fit in the asked height, in a panel that scrolls: added to it.
    if (auto grown = c.plots.find(id); grown != c.plots.end() && grown->second.legend_row_grow &&
                                       ((flags & PlotFlags_NoLegend) == 0) != grown->second.toggle_legend)
        frame_size.y += grown->second.legend_row_h;
    // A plot never runs off its panel sideways: a width wider than what is left of the line (a
    // narrow Compare half, a large UI scale) is cut to it; the height stays.
    // A chart keeps at least 60 px a side; a picture (canvas only: an image tile) may be as small as
    // it was asked to be, down to 16 px.
    const float min_side = (flags & PlotFlags_CanvasOnly) == PlotFlags_CanvasOnly ? 16.0f : 60.0f;
    if (avail.x >= min_side && frame_size.x > avail.x + 0.5f) frame_size.x = avail.x;
    const ImVec2 pos = window->DC.CursorPos;
    const ImRect bb(pos, add(pos, ImVec2(std::max(frame_size.x, min_side), std::max(frame_size.y, min_side))));
    ImGui::ItemSize(bb);
    if (!ImGui::ItemAdd(bb, id)) return false;

    trim_caches(c);
    PlotState& st = c.plots[id];
    const int frame = ImGui::GetFrameCount();
    if (!st.initialized) {
        st.initialized = true;
        st.id = id;
        st.first_frame = frame;
        st.fit_request = true;
        st.data_key = c.data_key;
    }
    st.last_frame = frame;
    st.legend_order.clear();

    c.plot = &st;
    c.item = nullptr;
    c.draw_list = window->DrawList;
    c.flags = flags;
    c.x_flags = c.y_flags = 0;
    c.title = DisplayLabel(title_id);
    c.x_label.clear();
    c.y_label.clear();
    c.setup_done = false;
    c.setup_legend_location = 0;
    c.has_fit_key = false;
    c.custom_x = c.custom_y = false;
    c.has_colorbar = false;
    c.has_limits = false;
    c.frame_rect = bb;
    c.plot_rect = bb;
    c.window_scrolls = false;
    for (const ImGuiWindow* p = window; p != nullptr; p = p->ParentWindow) {
        if (p->ScrollMax.y > 0.0f) c.window_scrolls = true;
        if (!(p->Flags & ImGuiWindowFlags_ChildWindow)) break;
    }
    NotePlotRect(c, id, title_id, bb);
    c.hovered = c.held = false;
    c.interacting = false;
    c.fit_x = c.fit_y = false;
    c.fresh = c.follow = c.follow_shrink = false;
    c.edge_marks = 0;
    c.fit_ext_x.reset();
    c.fit_ext_y.reset();
    return true;
}

void SetupAxes(const char* x_label, const char* y_label, AxisFlags x_flags, AxisFlags y_flags) {
    Context& c = GetPlotContextRef("SetupAxes");
    IM_ASSERT(!c.setup_done && "SetupAxes() must be called before any item");
    c.x_label = x_label ? DisplayLabel(x_label) : std::string();
    c.y_label = y_label ? DisplayLabel(y_label) : std::string();
    c.x_flags = x_flags;
    c.y_flags = y_flags;
}

void SetupLegend(Location location) {
    Context& c = GetPlotContextRef("SetupLegend");
    c.setup_legend_location = static_cast<int>(location);
}

void SetupAxesFitKey(uint64_t key) {
    Context& c = GetPlotContextRef("SetupAxesFitKey");
    IM_ASSERT(!c.setup_done && "SetupAxesFitKey() must be called before any item");
    c.has_fit_key = true;
    c.fit_key = key;
}

void SetupAxisTicks(AxisId axis, const double* values, int count, const char* const* labels) {
    Context& c = GetPlotContextRef("SetupAxisTicks");
    IM_ASSERT(!c.setup_done && "SetupAxisTicks() must be called before any item");
    std::vector<Tick>& ticks = axis == AxisId::X ? c.custom_x_ticks : c.custom_y_ticks;
    (axis == AxisId::X ? c.custom_x : c.custom_y) = true;
    ticks.clear();
    for (int i = 0; values != nullptr && i < count; ++i) {
        if (!std::isfinite(values[i])) continue;
        Tick t;
        t.value = values[i];
        t.major = true;
        if (labels != nullptr && labels[i] != nullptr) std::snprintf(t.label, sizeof t.label, "%s", labels[i]);
        ticks.push_back(t);
    }
    // ascending, as the automatic ticks (the label placement skips a label that would overlap the last)
    std::stable_sort(ticks.begin(), ticks.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; });
}

void SetDataKey(uint64_t key) { GetContextRef().data_key = key; }

void SetupColorBar(const char* label, double scale_min, double scale_max, Colormap cmap) {
    Context& c = GetPlotContextRef("SetupColorBar");
    IM_ASSERT(!c.setup_done && "SetupColorBar() must be called before any item");
    c.has_colorbar = std::isfinite(scale_min) && std::isfinite(scale_max);
    c.colorbar_label = label ? DisplayLabel(label) : std::string();
    c.colorbar_min = std::min(scale_min, scale_max);
    c.colorbar_max = std::max(scale_min, scale_max);
    c.colorbar_cmap = cmap;
}

void SetupAxesLimits(double x_min, double x_max, double y_min, double y_max, Cond cond) {
    Context& c = GetPlotContextRef("SetupAxesLimits");
    IM_ASSERT(!c.setup_done && "SetupAxesLimits() must be called before any item");
    c.has_limits = true;
    c.limits_cond = cond;
    c.limits[0] = x_min;
    c.limits[1] = x_max;
    c.limits[2] = y_min;
    c.limits[3] = y_max;
}

// ---- [SECTION] layout, input and background (SetupFinish) -------------------------------------

void SetupFinish() {
    Context& c = GetPlotContextRef("SetupFinish");
    if (c.setup_done) return;
    c.setup_done = true;
    PlotState& st = *c.plot;
    ImGuiIO& io = ImGui::GetIO();
    // A new fit key (new data shape, new run) makes this frame behave as the plot's first.
    bool key_changed = false;
    if (c.has_fit_key) {
        key_changed = st.has_fit_key && st.fit_key != c.fit_key;
        st.has_fit_key = true;
        st.fit_key = c.fit_key;
        if (key_changed) st.fit_request = true;
    }
    // New data (SetDataKey: another module, run or dataset): the same, and the user's zoom goes.
    const bool data_changed = st.data_key != c.data_key;
    st.data_key = c.data_key;
    if (data_changed) st.fit_request = true;
    const bool first = st.first_frame == ImGui::GetFrameCount() || key_changed || data_changed;
    if (first) st.user_view = false;
    c.fresh = first;

    // 1. scales and limits
    const bool log_x = (c.x_flags & AxisFlags_LogScale) != 0;
    const bool log_y = ((c.y_flags & AxisFlags_LogScale) != 0) != st.toggle_log_y;
    st.x.set_scale(log_x ? Scale::Log10 : Scale::Linear);
    st.y.set_scale(log_y ? Scale::Log10 : Scale::Linear);
    if (c.has_limits && (c.limits_cond == Cond::Always || first)) {
        st.x.set_range(c.limits[0], c.limits[1]);
        st.y.set_range(c.limits[2], c.limits[3]);
        if (first) st.fit_request = false;
    }
    c.equal_aspect = ((c.flags & PlotFlags_EqualAspect) != 0) != st.toggle_equal;
    c.show_legend = ((c.flags & PlotFlags_NoLegend) == 0) != st.toggle_legend;

    // 2. fits gathered this frame
    const bool lock_x = (c.x_flags & AxisFlags_Lock) != 0, lock_y = (c.y_flags & AxisFlags_Lock) != 0;
    c.fit_x = (c.x_flags & AxisFlags_AutoFit) || (st.fit_request && (!lock_x || first));
    c.fit_y = (c.y_flags & AxisFlags_AutoFit) || (st.fit_request && (!lock_y || first));
    const bool fixed = c.has_limits && c.limits_cond == Cond::Always;
    if (fixed) c.fit_x = c.fit_y = false;
    if (st.fit_request && (c.fit_x || c.fit_y)) st.user_view = false;  // Fit (menu, RequestFit)
    st.fit_request = false;

    // 3. layout: vertical first (title, x ticks, x label), then y tick label width
    const float fh = ImGui::GetFontSize();
    const ImRect& fr = c.frame_rect;
    const bool show_title = !(c.flags & PlotFlags_NoTitle) && !c.title.empty();
    const bool x_label = !c.x_label.empty() && !(c.x_flags & AxisFlags_NoLabel);
    const bool y_label = !c.y_label.empty() && !(c.y_flags & AxisFlags_NoLabel);
    const bool x_tick_labels = !(c.x_flags & AxisFlags_NoTickLabels);
    const bool y_tick_labels = !(c.y_flags & AxisFlags_NoTickLabels);
    float top = fr.Min.y + kPad + (show_title ? fh + kPad : 0.0f);
    c.legend_row_y = top;
    if (c.show_legend && st.legend_row_h > 0.0f) top += st.legend_row_h;
    float bottom = fr.Max.y - kPad - (x_tick_labels ? fh + kTickLen : 0.0f) - (x_label ? fh + 2.0f : 0.0f);
    if (bottom < top + 10.0f) bottom = top + 10.0f;
    st.y.set_pixels(bottom, top);
    locate_y_ticks(c);
    float left = fr.Min.x + kPad + (y_label ? fh + 4.0f : 0.0f) +
                 (y_tick_labels ? max_label_width(c.y_ticks) + kTickLen + 2.0f : 0.0f);
    float right = fr.Max.x - kPad - (x_tick_labels ? fh * 0.75f : 0.0f);
    Axis colorbar_axis;
    std::vector<Tick> colorbar_ticks;
    if (c.has_colorbar) {
        const float need = colorbar_layout(c, bottom, top, colorbar_axis, colorbar_ticks);
        right = std::min(right, fr.Max.x - kPad - need - fh * 0.5f);
        const float bar_x = right + fh * 0.5f;
        c.colorbar_rect = ImRect(std::floor(bar_x), std::floor(top), std::floor(bar_x + fh * 0.75f), std::floor(bottom));
    }
    c.legend_side_x = right;
    if (c.show_legend && st.legend_side_w > 0.0f) right -= st.legend_side_w;
    if (right < left + 10.0f) right = left + 10.0f;
    c.plot_rect = ImRect(std::floor(left), std::floor(top), std::floor(right), std::floor(bottom));
    const ImRect& pr = c.plot_rect;
    st.x.set_pixels(pr.Min.x, pr.Max.x);
    st.y.set_pixels(pr.Max.y, pr.Min.y);

    // 4. input (Canvas idiom: one button over the plot area). A plot without inputs still
    // reports hover (IsPlotHovered, GetPlotMousePos: image tooltips, a click on a tile).
    if (c.flags & PlotFlags_NoInputs)
        c.hovered = ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(pr.Min, pr.Max);
    if (!(c.flags & PlotFlags_NoInputs)) {
        bool hovered = false, held = false;
        ImGui::ButtonBehavior(pr, st.id, &hovered, &held,
                              ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                                  ImGuiButtonFlags_MouseButtonMiddle);
        ImGui::SetItemUsingMouseWheel();
        c.hovered = hovered;
        c.held = held;
        const ImVec2 mouse = io.MousePos;
        if (st.held_drag != 0 && !ImGui::IsMouseDown(0)) st.held_drag = 0;
        const bool in_legend = in_rect(st.legend_rect, mouse);
        const bool in_hint = st.user_view && in_rect(st.hint_rect, mouse);
        for (int b = 0; b < 3; ++b) {
            if (ImGui::IsMouseClicked(b)) {
                st.press_inside[b] = hovered && !in_legend && !in_hint;
                st.press_consumed[b] = false;
            }
        }
        // the "fit" hint of a zoomed plot: fit now and follow the data again
        if (hovered && in_hint && ImGui::IsMouseClicked(0)) {
            st.press_consumed[0] = true;
            c.fit_x = c.fit_x || !lock_x;
            c.fit_y = c.fit_y || !lock_y;
            st.user_view = false;
        }
        // pan (not on the press frame, so a DragPoint can claim the press first)
        if (held && ImGui::IsMouseDown(0) && !ImGui::IsMouseClicked(0) && st.press_inside[0] &&
            !st.press_consumed[0] && st.held_drag == 0) {
            if (io.MouseDelta.x != 0.0f && !lock_x) st.x.pan(io.MouseDelta.x);
            if (io.MouseDelta.y != 0.0f && !lock_y) st.y.pan(io.MouseDelta.y);
            st.last_interaction_frame = ImGui::GetFrameCount();
            if ((io.MouseDelta.x != 0.0f && !lock_x) || (io.MouseDelta.y != 0.0f && !lock_y)) st.user_view = !fixed;
        }
        // wheel zoom about the cursor (Ctrl: x only, Shift: y only)
        if (hovered && io.MouseWheel != 0.0f) {
            const double f = std::pow(static_cast<double>(kWheelZoom), static_cast<double>(io.MouseWheel));
            if (!lock_x && !io.KeyShift) st.x.zoom(f, mouse.x);
            if (!lock_y && !io.KeyCtrl) st.y.zoom(f, mouse.y);
            st.last_interaction_frame = ImGui::GetFrameCount();
            if ((!lock_x && !io.KeyShift) || (!lock_y && !io.KeyCtrl)) st.user_view = !fixed;
        }
        // double-click: fit now (extents are gathered by this frame's items)
        if (hovered && !in_legend && ImGui::IsMouseDoubleClicked(0)) {
            c.fit_x = c.fit_x || !lock_x;
            c.fit_y = c.fit_y || !lock_y;
            st.user_view = false;
        }
        // right-click (not a drag) opens the context menu
        if (!(c.flags & PlotFlags_NoMenus) && hovered && ImGui::IsMouseReleased(1) && st.press_inside[1] &&
            !ImGui::IsMouseDragPastThreshold(1))
            ImGui::OpenPopupEx(ImHashStr("##plot_menu", 0, st.id));
    }

    // While the user pans (button held) or wheels (within the last few frames), expensive images
    // may be drawn stretched from their previous limits instead of being recomputed every frame.
    c.interacting = (c.held && st.press_inside[0]) || ImGui::GetFrameCount() - st.last_interaction_frame <= 8;

    // Follow the data (EndPlot refits when it leaves the view): not while the user's zoom holds,
    // nor a frame the view fixes, nor axes fitted anyway.
    c.follow = !fixed && !st.user_view && !(c.fit_x && c.fit_y) &&
               !((c.x_flags & AxisFlags_AutoFit) && (c.y_flags & AxisFlags_AutoFit));
    c.follow_shrink = c.follow && !c.has_limits;

    // 5. equal aspect, then final ticks
    if (c.equal_aspect) constrain_equal_aspect(st.x, st.y);
    locate_x_ticks(c);
    locate_y_ticks(c);

    // 6. background, grid, tick labels, axis labels, title
    ImDrawList* dl = c.draw_list;
    const ImGuiStyle& style = ImGui::GetStyle();
    if (!(c.flags & PlotFlags_NoFrame)) {
        ImVec4 bg = style.Colors[ImGuiCol_WindowBg];
        const ImVec4 tx = style.Colors[ImGuiCol_Text];
        const float k = 0.04f;
        bg = ImVec4(bg.x + (tx.x - bg.x) * k, bg.y + (tx.y - bg.y) * k, bg.z + (tx.z - bg.z) * k, 1.0f);
        dl->AddRectFilled(pr.Min, pr.Max, ImGui::ColorConvertFloat4ToU32(bg));
    }
    const ImU32 grid_major = ThemeText(0.13f), grid_minor = ThemeText(0.05f);
    const ImU32 tick_col = ThemeText(0.45f), label_col = ThemeText(0.85f);
    if (!(c.x_flags & AxisFlags_NoGridLines)) {
        for (const Tick& t : c.x_ticks) {
            const float px = std::floor(static_cast<float>(st.x.plot_to_pixels(t.value))) + 0.5f;
            if (px < pr.Min.x || px > pr.Max.x) continue;
            dl->AddLine(ImVec2(px, pr.Min.y), ImVec2(px, pr.Max.y), t.major ? grid_major : grid_minor, 1.0f);
        }
    }
    if (!(c.y_flags & AxisFlags_NoGridLines)) {
        for (const Tick& t : c.y_ticks) {
            const float py = std::floor(static_cast<float>(st.y.plot_to_pixels(t.value))) + 0.5f;
            if (py < pr.Min.y || py > pr.Max.y) continue;
            dl->AddLine(ImVec2(pr.Min.x, py), ImVec2(pr.Max.x, py), t.major ? grid_major : grid_minor, 1.0f);
        }
    }
    // x ticks and labels (labels kept inside the frame; a label that would touch the previous
    // one is skipped, so labels never overlap even where ticks crowd, e.g. sub-decade log axes)
    float last_right = -1e30f;
    for (const Tick& t : c.x_ticks) {
        const float px = std::floor(static_cast<float>(st.x.plot_to_pixels(t.value))) + 0.5f;
        if (px < pr.Min.x - 0.5f || px > pr.Max.x + 0.5f) continue;
        const float len = t.major ? kTickLen : kTickLen * 0.5f;
        dl->AddLine(ImVec2(px, pr.Max.y), ImVec2(px, pr.Max.y + len), tick_col, 1.0f);
        if (t.major && x_tick_labels) {
            const ImVec2 sz = ImGui::CalcTextSize(t.label);
            float lx = std::clamp(px - sz.x * 0.5f, fr.Min.x + 1.0f, fr.Max.x - sz.x - 1.0f);
            if (lx < last_right + fh * 0.6f) continue;
            last_right = lx + sz.x;
            AddPlotText(dl, ImVec2(std::floor(lx), pr.Max.y + kTickLen + 1.0f), label_col, t.label);
        }
    }
    float last_top = 1e30f;
    for (const Tick& t : c.y_ticks) {
        const float py = std::floor(static_cast<float>(st.y.plot_to_pixels(t.value))) + 0.5f;
        if (py < pr.Min.y - 0.5f || py > pr.Max.y + 0.5f) continue;
        const float len = t.major ? kTickLen : kTickLen * 0.5f;
        dl->AddLine(ImVec2(pr.Min.x - len, py), ImVec2(pr.Min.x, py), tick_col, 1.0f);
        if (t.major && y_tick_labels) {
            const ImVec2 sz = ImGui::CalcTextSize(t.label);
            float ly = std::clamp(py - sz.y * 0.5f, fr.Min.y + 1.0f, fr.Max.y - sz.y - 1.0f);
            if (ly + sz.y + 2.0f > last_top) continue;
            last_top = ly;
            AddPlotText(dl, ImVec2(std::floor(pr.Min.x - kTickLen - 2.0f - sz.x), std::floor(ly)), label_col, t.label);
        }
    }
    // Title and axis labels stay inside the frame: centred where they fit, shortened if not.
    if (x_label) {
        const std::string text = fit_text(c.x_label, fr.GetWidth() - 2.0f * kPad);
        const ImVec2 sz = ImGui::CalcTextSize(text.c_str());
        const float x = std::max(fr.Min.x + kPad, std::min(pr.GetCenter().x - sz.x * 0.5f, fr.Max.x - kPad - sz.x));
        AddPlotText(dl, ImVec2(std::floor(x), fr.Max.y - kPad - fh), label_col, text.c_str());
    }
    if (y_label) {
        const std::string text = fit_text(c.y_label, fr.GetHeight() - 2.0f * kPad);
        const float half = ImGui::CalcTextSize(text.c_str()).x * 0.5f;
        const float y = std::max(fr.Min.y + kPad + half, std::min(pr.GetCenter().y, fr.Max.y - kPad - half));
        add_text_vertical(dl, ImVec2(std::floor(fr.Min.x + kPad + fh * 0.5f), std::floor(y)), label_col, text.c_str());
    }
    if (show_title) {
        const std::string text = fit_text(c.title, fr.GetWidth() - 2.0f * kPad);
        const ImVec2 sz = ImGui::CalcTextSize(text.c_str());
        const float x = std::max(fr.Min.x + kPad, std::min(pr.GetCenter().x - sz.x * 0.5f, fr.Max.x - kPad - sz.x));
        AddPlotText(dl, ImVec2(std::floor(x), fr.Min.y + kPad), ThemeText(1.0f), text.c_str());
    }
    if (c.has_colorbar) draw_colorbar(c, colorbar_axis, colorbar_ticks);
    dl->PushClipRect(pr.Min, pr.Max, true);
}

// ---- [SECTION] end (legend, readout, menu, fit) -----------------------------------------------

namespace {

void draw_legend(Context& c) {
    PlotState& st = *c.plot;
    st.legend_rect = ImRect(0, 0, 0, 0);
    st.legend_tab = false;
    if (!c.show_legend || st.legend_order.empty()) return;
    ImDrawList* dl = c.draw_list;
    const float fh = ImGui::GetFontSize();
    const float sw = fh * 1.3f, gap = fh * 0.4f, pad = fh * 0.45f, row = fh + 4.0f;
    float text_w = 0.0f;
    for (ImGuiID id : st.legend_order) text_w = std::max(text_w, ImGui::CalcTextSize(st.items[id].label.c_str()).x);
    // The plot area as it is without a key row or column (the box is judged against it; a row
    // added to the frame's height took nothing from the area).
    ImRect pr = c.plot_rect;
    if (st.legend_row_h > 0.0f && !st.legend_row_grow) pr.Min.y = c.legend_row_y;
    if (st.legend_side_w > 0.0f) pr.Max.x = std::floor(c.legend_side_x);
    // Entries wrap into columns when the plot is too short for one.
    const int n = static_cast<int>(st.legend_order.size());
    const int fit_rows = std::max(1, static_cast<int>((pr.GetHeight() - 16.0f - pad * 2 + 4.0f) / row));
    const int cols = (n + fit_rows - 1) / fit_rows;
    const int rows = (n + cols - 1) / cols;
    const float col_w = sw + gap + text_w + pad;
    const ImVec2 size(pad + col_w * static_cast<float>(cols), pad * 2 + row * static_cast<float>(rows) - 4.0f);
    // A box that would hide too much of a small plot: the entries go in a key row above the plot
    // area instead, left to right (wrapping), laid out from the next frame on.
    // (Only while the plot area keeps kLegendRowMinArea px of height under the row.)
    std::vector<ImVec2> at(static_cast<size_t>(n));
    std::vector<float> width(static_cast<size_t>(n));
    ImRect box;
    const float x_min = c.plot_rect.Min.x, x_max = c.frame_rect.Max.x - kPad;
    float rx = x_min, ry = c.legend_row_y;
    for (int i = 0; i < n; ++i) {
        const float w = sw + gap + ImGui::CalcTextSize(st.items[st.legend_order[static_cast<size_t>(i)]].label.c_str()).x + pad;
        if (rx > x_min && rx + w > x_max) {
            rx = x_min;
            ry += row;
        }
        at[static_cast<size_t>(i)] = ImVec2(rx - pad, ry);
        width[static_cast<size_t>(i)] = w;
        rx += w + gap;
    }
    const float row_h = ry + row - c.legend_row_y + 2.0f;
    const bool covers = size.x * size.y > kLegendCoverShare * pr.GetWidth() * pr.GetHeight();
    const bool as_row = covers && pr.GetHeight() - row_h >= kLegendRowMinArea;
    // The column at the right, beside the plot area and its x tick labels: as many entries a column
    // as the frame holds under the title.
    const float side_top = c.legend_row_y, side_bottom = c.frame_rect.Max.y - kPad;
    const int side_rows = std::max(1, static_cast<int>((side_bottom - side_top - pad * 2 + 4.0f) / row));
    const int side_cols = (n + side_rows - 1) / side_rows;
    const float side_w = gap + pad + col_w * static_cast<float>(side_cols);
    const float keep = pr.GetWidth() - side_w;
    const bool as_side = covers && !as_row && keep >= kLegendRowMinArea && keep >= kLegendSideKeepShare * pr.GetWidth();
    // Room for neither in a panel that scrolls: the row goes on top of the asked height.
    const bool as_grown_row = covers && !as_row && !as_side && c.window_scrolls;
    st.legend_row_h = as_row || as_grown_row ? row_h : 0.0f;
    st.legend_row_grow = as_grown_row;
    st.legend_side_w = as_side ? side_w : 0.0f;
    if (as_row || as_grown_row) {
        box = ImRect(ImVec2(x_min, c.legend_row_y), ImVec2(x_max, ry + row));
    } else if (as_side) {
        const float x0 = pr.Max.x - side_w + gap;
        box = ImRect(ImVec2(x0, side_top), ImVec2(pr.Max.x, side_top + pad * 2 + row * static_cast<float>(std::min(n, side_rows))));
        for (int i = 0; i < n; ++i) {
            at[static_cast<size_t>(i)] = ImVec2(x0 + col_w * static_cast<float>(i / side_rows),
                                                side_top + pad + row * static_cast<float>(i % side_rows));
            width[static_cast<size_t>(i)] = col_w;
        }
    } else {
        const int loc = st.legend_location >= 0 ? st.legend_location : c.setup_legend_location;
        const bool east = loc == static_cast<int>(Location::NorthEast) || loc == static_cast<int>(Location::SouthEast);
        const bool south = loc == static_cast<int>(Location::SouthWest) || loc == static_cast<int>(Location::SouthEast);
        const ImRect& cr = c.plot_rect;
        const ImVec2 p0(east ? cr.Max.x - 8.0f - size.x : cr.Min.x + 8.0f, south ? cr.Max.y - 8.0f - size.y : cr.Min.y + 8.0f);
        box = ImRect(p0, add(p0, size));
        // Too big for the plot and no room for a key row: a small "key" tab in the corner; the box
        // opens over the plot while the pointer is on the tab or on the open box.
        if (size.x * size.y > kLegendCollapseShare * pr.GetWidth() * pr.GetHeight()) {
            st.legend_tab = true;
            const char* label = "key";
            const ImVec2 ts = ImGui::CalcTextSize(label);
            const ImVec2 tab_size(ts.x + 2.0f * pad, ts.y + pad);
            const ImVec2 t0(east ? cr.Max.x - 8.0f - tab_size.x : cr.Min.x + 8.0f,
                            south ? cr.Max.y - 8.0f - tab_size.y : cr.Min.y + 8.0f);
            const ImRect tab(t0, add(t0, tab_size));
            const ImVec2 m = ImGui::GetIO().MousePos;
            const bool here = ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem);
            st.legend_open = here && (tab.Contains(m) || (st.legend_open && box.Contains(m)));
            if (!st.legend_open) {
                ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
                bg.w = 0.86f;
                dl->AddRectFilled(tab.Min, tab.Max, ImGui::ColorConvertFloat4ToU32(bg), 3.0f);
                dl->AddRect(tab.Min, tab.Max, ThemeText(0.35f), 3.0f);
                AddPlotText(dl, ImVec2(tab.Min.x + pad, tab.Min.y + pad * 0.5f), ThemeText(0.85f), label);
                st.legend_rect = tab;
                return;
            }
            box.Add(tab);  // the tab lies in the box's corner: the pointer stays on the open box
        } else {
            st.legend_open = false;
        }
        for (int i = 0; i < n; ++i) {
            at[static_cast<size_t>(i)] = ImVec2(box.Min.x + col_w * static_cast<float>(i / rows),
                                                box.Min.y + pad + row * static_cast<float>(i % rows));
            width[static_cast<size_t>(i)] = col_w;
        }
        ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        bg.w = 0.86f;
        dl->AddRectFilled(box.Min, box.Max, ImGui::ColorConvertFloat4ToU32(bg), 3.0f);
        dl->AddRect(box.Min, box.Max, ThemeText(0.22f), 3.0f);
    }
    st.legend_rect = box;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (int i = 0; i < n; ++i) {
        ItemState& it = st.items[st.legend_order[static_cast<size_t>(i)]];
        const float y = at[static_cast<size_t>(i)].y;
        const float x0 = at[static_cast<size_t>(i)].x;
        const float col_w = width[static_cast<size_t>(i)];
        const ImRect entry(ImVec2(x0, y - 2.0f), ImVec2(x0 + col_w, y + row - 2.0f));
        const bool hov = (as_row || as_grown_row || as_side ? ImGui::IsWindowHovered() : c.hovered) && entry.Contains(mouse);
        if (hov) {
            dl->AddRectFilled(entry.Min, entry.Max, ThemeText(0.08f));
            if (ImGui::IsMouseClicked(0)) {
                it.show = !it.show;
                st.press_consumed[0] = true;
            }
        }
        const ImU32 col = it.show ? it.used_color : ThemeText(0.25f);
        const float cy = y + fh * 0.5f;
        const float sx = x0 + pad;
        switch (it.swatch) {
            case SwatchKind::Line:
                dl->AddLine(ImVec2(sx, cy), ImVec2(sx + sw, cy), col, 2.5f);
                break;
            case SwatchKind::Marker: {
                const ImVec2 m(sx + sw * 0.5f, cy);
                const float r = fh * 0.32f;
                switch (it.marker) {
                    case Marker::Square: dl->AddRectFilled(ImVec2(m.x - r, m.y - r), ImVec2(m.x + r, m.y + r), col); break;
                    case Marker::Diamond:
                        dl->AddQuadFilled(ImVec2(m.x, m.y - r * 1.2f), ImVec2(m.x + r * 1.2f, m.y), ImVec2(m.x, m.y + r * 1.2f),
                                          ImVec2(m.x - r * 1.2f, m.y), col);
                        break;
                    case Marker::Triangle:
                        dl->AddTriangleFilled(ImVec2(m.x, m.y - r * 1.2f), ImVec2(m.x + r * 1.2f, m.y + r),
                                              ImVec2(m.x - r * 1.2f, m.y + r), col);
                        break;
                    default: dl->AddCircleFilled(m, r, col, 12); break;
                }
                break;
            }
            case SwatchKind::Fill:
                dl->AddRectFilled(ImVec2(sx + 1, y + 2), ImVec2(sx + sw - 1, y + fh - 2), col, 2.0f);
                break;
        }
        // A name wider than the frame leaves room for (one entry of a key row in a narrow plot):
        // cut with "...", whole in the entry's tooltip.
        const float text_x = sx + sw + gap, room = c.frame_rect.Max.x - kPad - text_x;
        const std::string text = FitLabel(it.label, room);
        if (hov && text.size() != it.label.size()) ImGui::SetTooltip("%s", it.label.c_str());
        AddPlotText(dl, ImVec2(text_x, y), it.show ? ThemeText(hov ? 1.0f : 0.9f) : ThemeText(0.4f), text.c_str());
    }
}

void draw_mouse_text(Context& c) {
    if ((c.flags & PlotFlags_NoMouseText) || !c.hovered) return;
    PlotState& st = *c.plot;
    const ImVec2 m = ImGui::GetIO().MousePos;
    char bx[40], by[40], text[96];
    format_readout(st.x.pixels_to_plot(m.x), c.x_ticks, st.x, bx, sizeof(bx));
    format_readout(st.y.pixels_to_plot(m.y), c.y_ticks, st.y, by, sizeof(by));
    std::snprintf(text, sizeof(text), "x %s   y %s", bx, by);
    const ImVec2 sz = ImGui::CalcTextSize(text);
    const ImRect& pr = c.plot_rect;
    const ImVec2 p(pr.Max.x - sz.x - 8.0f, pr.Max.y - sz.y - 6.0f);
    ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    bg.w = 0.75f;
    c.draw_list->AddRectFilled(ImVec2(p.x - 4, p.y - 2), ImVec2(p.x + sz.x + 4, p.y + sz.y + 2),
                               ImGui::ColorConvertFloat4ToU32(bg), 3.0f);
    c.draw_list->AddText(p, ThemeText(0.9f), text);
}

// The "fit" hint of a plot the user panned or zoomed: a small framed "fit" in the top corner the
// legend leaves free (a click fits: SetupFinish). The view no longer follows the data until then.
void draw_fit_hint(Context& c) {
    PlotState& st = *c.plot;
    st.hint_rect = ImRect(0, 0, 0, 0);
    if (!st.user_view || (c.flags & PlotFlags_NoInputs)) return;
    const char* text = "fit";
    const ImVec2 sz = ImGui::CalcTextSize(text);
    const ImRect& pr = c.plot_rect;
    const int loc = st.legend_location >= 0 ? st.legend_location : c.setup_legend_location;
    const bool legend_ne = c.show_legend && !st.legend_order.empty() && loc == static_cast<int>(Location::NorthEast);
    const float pad = 3.0f, w = sz.x + 2.0f * pad, h = sz.y + 2.0f;
    const float x0 = legend_ne ? pr.Min.x + 4.0f : pr.Max.x - 4.0f - w;
    const ImRect box(ImVec2(std::floor(x0), pr.Min.y + 4.0f), ImVec2(std::floor(x0 + w), pr.Min.y + 4.0f + h));
    if (box.GetWidth() > pr.GetWidth() || box.GetHeight() > pr.GetHeight()) return;
    st.hint_rect = box;
    const bool hov = c.hovered && box.Contains(ImGui::GetIO().MousePos);
    ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    bg.w = 0.86f;
    c.draw_list->AddRectFilled(box.Min, box.Max, ImGui::ColorConvertFloat4ToU32(bg), 3.0f);
    if (hov) c.draw_list->AddRectFilled(box.Min, box.Max, ThemeText(0.10f), 3.0f);
    c.draw_list->AddRect(box.Min, box.Max, ThemeText(0.45f), 3.0f);
    AddPlotText(c.draw_list, ImVec2(box.Min.x + pad, box.Min.y + 1.0f), ThemeText(0.9f), text);
    if (hov) ImGui::SetTooltip("Panned or zoomed: the plot stays where you put it.\nClick (or double-click the plot) "
                               "to fit the data and follow it again.");
}

// Whether this frame's data leaves the view on `axis`, or (shrink) spans less than kFollowShrink
// of it: pixel positions of the extents against the plot area's.
bool leaves_view(const Axis& axis, const FitExtents& ext) {
    const double a = axis.plot_to_pixels(ext.min), b = axis.plot_to_pixels(ext.max);
    const double lo = std::min(axis.pixel_min(), axis.pixel_max()), hi = std::max(axis.pixel_min(), axis.pixel_max());
    return std::min(a, b) < lo - 0.5 || std::max(a, b) > hi + 0.5;
}
bool small_in_view(const Axis& axis, const FitExtents& ext) {
    if (is_nearly_constant(ext.min, ext.max)) return false;  // a constant fits as +-10 %: stays small
    const double a = axis.plot_to_pixels(ext.min), b = axis.plot_to_pixels(ext.max);
    return std::fabs(b - a) < kFollowShrink * axis.pixel_length();
}

void context_menu(Context& c) {
    if (c.flags & PlotFlags_NoMenus) return;
    PlotState& st = *c.plot;
    if (!ImGui::BeginPopupEx(ImHashStr("##plot_menu", 0, st.id), ImGuiWindowFlags_AlwaysAutoResize |
                                                                    ImGuiWindowFlags_NoTitleBar |
                                                                    ImGuiWindowFlags_NoSavedSettings))
        return;
    if (ImGui::MenuItem("Fit", "double-click")) st.fit_request = true;
    if (ImGui::MenuItem("Equal aspect", nullptr, c.equal_aspect)) {
        st.toggle_equal = !st.toggle_equal;
        st.fit_request = true;
    }
    if (ImGui::MenuItem("Log Y", nullptr, st.y.is_log())) {
        st.toggle_log_y = !st.toggle_log_y;
        st.fit_request = true;
    }
    if (ImGui::MenuItem("Show legend", nullptr, c.show_legend)) st.toggle_legend = !st.toggle_legend;
    if (ImGui::BeginMenu("Legend position")) {
        const char* names[] = {"top left", "top right", "bottom left", "bottom right"};
        const int now = st.legend_location >= 0 ? st.legend_location : c.setup_legend_location;
        for (int i = 0; i < 4; ++i)
            if (ImGui::MenuItem(names[i], nullptr, now == i)) st.legend_location = i;
        ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Save as PNG (1x)")) st.export_scale = 1;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("This plot as drawn, into the folder of the file dialog");
    if (ImGui::MenuItem("Save as PNG (2x)")) st.export_scale = 2;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("This plot drawn again at twice the resolution (slides)");
    ImGui::EndPopup();
}

}  // namespace

void EndPlot() {
    Context& c = GetPlotContextRef("EndPlot");
    IM_ASSERT(c.item == nullptr && "EndItem() missing before EndPlot()");
    if (!c.setup_done) SetupFinish();
    PlotState& st = *c.plot;
    ImDrawList* dl = c.draw_list;
    dl->PopClipRect();
    const ImRect& pr = c.plot_rect;
    if (!(c.flags & PlotFlags_NoFrame)) dl->AddRect(pr.Min, pr.Max, ThemeText(0.30f), 0.0f, 0, 1.0f);

    // The legend may stand outside the plot area (a key row above it, a column beside it): clipped
    // to the frame.
    dl->PushClipRect(c.frame_rect.Min, c.frame_rect.Max, true);
    draw_legend(c);
    dl->PopClipRect();
    dl->PushClipRect(pr.Min, pr.Max, true);
    draw_fit_hint(c);
    draw_mouse_text(c);
    dl->PopClipRect();
    if (st.export_scale > 0 && !ImGui::IsPopupOpen(ImHashStr("##plot_menu", 0, st.id), 0)) {
        // The frame after the menu closed: this frame's picture has no popup over it.
        c.has_export = true;
        c.export_request.min = c.frame_rect.Min;
        c.export_request.max = c.frame_rect.Max;
        c.export_request.scale = st.export_scale;
        std::string name = c.title.substr(0, c.title.find("##"));
        for (char& ch : name)
            if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '-';
        c.export_request.name = name.empty() ? "plot" : name;
        st.export_scale = 0;
    }
    context_menu(c);

    // fits gathered this frame take effect next frame (one-frame latency)
    double padding = kFitPadding;
    if (c.follow && c.fit_ext_x.valid() && c.fit_ext_y.valid()) {
        // The refit policy (plot.h): follow the data when it leaves the view or shrinks in it.
        // Per axis (an AutoFit or locked axis is left alone); an equal-aspect plot refits both.
        const bool free_x = !(c.x_flags & (AxisFlags_Lock | AxisFlags_AutoFit)) && !c.fit_x;
        const bool free_y = !(c.y_flags & (AxisFlags_Lock | AxisFlags_AutoFit)) && !c.fit_y;
        bool rx = free_x && leaves_view(st.x, c.fit_ext_x), ry = free_y && leaves_view(st.y, c.fit_ext_y);
        if (c.follow_shrink) {
            const bool sx = free_x && small_in_view(st.x, c.fit_ext_x), sy = free_y && small_in_view(st.y, c.fit_ext_y);
            if (!c.equal_aspect) rx = rx || sx, ry = ry || sy;
            else if (sx && sy) rx = ry = true;
        }
        if (c.equal_aspect && (rx || ry)) rx = free_x, ry = free_y;
        if (rx || ry) {
            c.fit_x = c.fit_x || rx;
            c.fit_y = c.fit_y || ry;
            padding = kFollowPadding;
        }
    }
    // A fresh plot with no data (a new module's "n/a" metric) starts from the default range, not
    // from what the plot showed before.
    const auto reset_empty = [](Axis& axis) { axis.is_log() ? axis.set_range(0.1, 10.0) : axis.set_range(0.0, 1.0); };
    if (c.fit_x) {
        if (c.fresh && !c.has_limits && !c.fit_ext_x.valid() && st.first_frame != ImGui::GetFrameCount()) reset_empty(st.x);
        st.x.apply_fit(c.fit_ext_x, padding);
    }
    if (c.fit_y) {
        if (c.fresh && !c.has_limits && !c.fit_ext_y.valid() && st.first_frame != ImGui::GetFrameCount()) reset_empty(st.y);
        st.y.apply_fit(c.fit_ext_y, padding);
    }
    st.edge_marks = c.edge_marks;
    st.x_ticks_drawn = c.x_ticks;
    st.y_ticks_drawn = c.y_ticks;

    // release textures of items that have not been drawn for a while
    const int frame = ImGui::GetFrameCount();
    for (auto& kv : st.items) {
        ItemState& it = kv.second;
        if (it.image.texture != nullptr && frame - it.last_frame > kTextureKeepFrames) ReleaseImage(it.image);
    }
    c.plot = nullptr;
    c.item = nullptr;
}

// ---- [SECTION] queries and DragPoint ----------------------------------------------------------

bool IsPlotHovered() { return GetPlotContextRef("IsPlotHovered").hovered; }

Point GetPlotMousePos() {
    Context& c = GetPlotContextRef("GetPlotMousePos");
    if (!c.setup_done) SetupFinish();
    const ImVec2 m = ImGui::GetIO().MousePos;
    return Point{c.plot->x.pixels_to_plot(m.x), c.plot->y.pixels_to_plot(m.y)};
}

bool IsPlotClicked(ImGuiMouseButton button) {
    Context& c = GetPlotContextRef("IsPlotClicked");
    if (!c.setup_done) SetupFinish();
    if (button < 0 || button > 2) return false;
    if (button == 1 && !(c.flags & PlotFlags_NoMenus)) return false;
    const PlotState& st = *c.plot;
    return c.hovered && ImGui::IsMouseReleased(button) && st.press_inside[button] && !st.press_consumed[button] &&
           !ImGui::IsMouseDragPastThreshold(button);
}

Limits GetPlotLimits() {
    Context& c = GetPlotContextRef("GetPlotLimits");
    if (!c.setup_done) SetupFinish();
    return Limits{c.plot->x.min(), c.plot->x.max(), c.plot->y.min(), c.plot->y.max()};
}

ImVec2 GetPlotPos() {
    Context& c = GetPlotContextRef("GetPlotPos");
    if (!c.setup_done) SetupFinish();
    return c.plot_rect.Min;
}

ImVec2 GetPlotSize() {
    Context& c = GetPlotContextRef("GetPlotSize");
    if (!c.setup_done) SetupFinish();
    return c.plot_rect.GetSize();
}

void RequestFit() { GetPlotContextRef("RequestFit").plot->fit_request = true; }

SavedViews SaveViews() {
    SavedViews out;
    for (const auto& kv : GetContextRef().plots) {
        const PlotState& st = kv.second;
        SavedViews::View v;
        v.id = kv.first;
        v.x_min = st.x.min();
        v.x_max = st.x.max();
        v.y_min = st.y.min();
        v.y_max = st.y.max();
        v.user_view = st.user_view;
        v.current_data = st.initialized && st.data_key == GetContextRef().data_key;
        out.views.push_back(v);
    }
    return out;
}

namespace {
void put_view(PlotState& st, const SavedViews::View& v) {
    st.x.set_range(v.x_min, v.x_max);
    st.y.set_range(v.y_min, v.y_max);
    st.user_view = v.user_view;
    st.fit_request = false;
}
}  // namespace

void RestoreViews(const SavedViews& saved) {
    Context& c = GetContextRef();
    for (const SavedViews::View& v : saved.views) {
        auto it = c.plots.find(v.id);
        if (it != c.plots.end()) put_view(it->second, v);
    }
}

bool RestoreView(const SavedViews::View& view) {
    Context& c = GetContextRef();
    auto it = c.plots.find(view.id);
    if (it == c.plots.end() || !it->second.initialized || it->second.data_key != c.data_key) return false;
    put_view(it->second, view);
    return true;
}

bool TakeExportRequest(ExportRequest* out) {
    Context* c = GetCurrentContext();
    if (!c || !c->has_export) return false;
    c->has_export = false;
    *out = c->export_request;
    return true;
}

bool DragPoint(int id, double* x, double* y, ImU32 color, float radius) {
    Context& c = GetPlotContextRef("DragPoint");
    if (!c.setup_done) SetupFinish();
    if (x == nullptr || y == nullptr) return false;
    PlotState& st = *c.plot;
    const ImGuiID did = ImHashData(&id, sizeof(id), st.id ^ 0x9E3779B9u);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    ImVec2 p = PlotToPixels(*x, *y);
    const float dx = mouse.x - p.x, dy = mouse.y - p.y;
    const float grab = radius + 4.0f;
    const bool over = c.hovered && dx * dx + dy * dy <= grab * grab;
    if (over && ImGui::IsMouseClicked(0) && st.held_drag == 0 && !in_rect(st.legend_rect, mouse)) {
        st.held_drag = did;
        st.press_consumed[0] = true;
        st.drag_offset = ImVec2(p.x - mouse.x, p.y - mouse.y);
    }
    const bool dragging = st.held_drag == did && ImGui::IsMouseDown(0);
    if (dragging) {
        const ImVec2 target(mouse.x + st.drag_offset.x, mouse.y + st.drag_offset.y);
        const double nx = st.x.pixels_to_plot(target.x), ny = st.y.pixels_to_plot(target.y);
        if (std::isfinite(nx) && std::isfinite(ny)) {
            *x = nx;
            *y = ny;
        }
        p = target;
    }
    if (over || dragging) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    const ImU32 col = color != kAutoColor ? color : ThemeText(1.0f);
    const float r = (over || dragging) ? radius * 1.35f : radius;
    ImDrawList* dl = c.draw_list;
    if (over || dragging) dl->AddCircleFilled(p, r + 4.0f, ScaleAlpha(col, 0.25f), 20);
    dl->AddCircleFilled(p, r, col, 20);
    dl->AddCircle(p, r, IM_COL32(0, 0, 0, 160), 20, 1.5f);
    return dragging;
}

// ---- [SECTION] layout read-back -----------------------------------------------------------------

void NotePlotRect(Context& c, ImGuiID id, const char* title_id, const ImRect& bb) {
    const int frame = ImGui::GetFrameCount();
    if (frame != c.rects_frame) {
        c.rects_last.swap(c.rects_now);
        if (frame != c.rects_frame + 1) c.rects_last.clear();  // frames without plots in between
        c.rects_now.clear();
        c.rects_frame = frame;
    }
    PlotRect r;
    r.id = id;
    std::snprintf(r.title_id, sizeof r.title_id, "%s", title_id);
    r.frame_min = bb.Min;
    r.frame_max = bb.Max;
    r.canvas = (c.flags & PlotFlags_CanvasOnly) == PlotFlags_CanvasOnly;
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    r.clip_min = w->ClipRect.Min;
    r.clip_max = w->ClipRect.Max;
    for (const ImGuiWindow* p = w; p != nullptr; p = p->ParentWindow) {
        if (p->ScrollMax.y > 0.0f) r.window_scrolls = true;
        if (!(p->Flags & ImGuiWindowFlags_ChildWindow)) break;
    }
    c.rects_now.push_back(r);
}

int LastFramePlotRects(const PlotRect** rects) {
    Context& c = GetContextRef();
    // rects_now is complete once its frame has ended (EndFrame/Render) or a newer one has begun.
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const bool now_done = c.rects_frame < g.FrameCount || g.FrameCountEnded >= c.rects_frame;
    std::vector<PlotRect>& done = now_done ? c.rects_now : c.rects_last;
    for (PlotRect& r : done) {  // plot areas as laid out by SetupFinish in that frame
        auto it = c.plots.find(r.id);
        if (it == c.plots.end()) continue;
        const PlotState& st = it->second;
        r.area_min = ImVec2(static_cast<float>(st.x.pixel_min()), static_cast<float>(st.y.pixel_max()));
        r.area_max = ImVec2(static_cast<float>(st.x.pixel_max()), static_cast<float>(st.y.pixel_min()));
        r.limits = Limits{st.x.min(), st.x.max(), st.y.min(), st.y.max()};
        r.user_view = st.user_view;
        r.edge_marks = st.edge_marks;
        r.legend_tab = st.legend_tab;
    }
    if (rects) *rects = done.data();
    return static_cast<int>(done.size());
}

}  // namespace plot
