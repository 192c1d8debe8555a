// plot_internal.h - internals of the plot library shared by plot.cpp and plot_items.cpp.
// Not part of the public API (no stability promise); views include plot.h only.
//
// Model (ImPlot's, at our scale): one Context holds a map ImGuiID -> PlotState that survives
// between frames (axis ranges, fit requests, menu toggles, item visibility/colour, image caches).
// Everything describing "the plot being built now" (rects, flags, fit extents, tick lists,
// scratch buffers) lives in the Context's per-frame fields and is reset by BeginPlot.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "views/plot/plot.h"
#include "views/plot/plot_math.h"
#include "views/plot/texture.h"

namespace plot {

// Above this many points a scatter is splatted into a density image (or stride-decimated).
constexpr int kScatterSplatThreshold = 20000;
// Above this many points the density image is splatted at half the plot's pixel resolution
// (a quarter of the pixels to clear, blur and shade; the GPU stretches it back). Re-splatting
// 1 000 000 points then fits a playing run's frame budget.
constexpr int kScatterHalfResThreshold = 200000;
// Heatmaps with more cells than this go through a texture.
constexpr int kHeatmapTextureCells = 128 * 128;
// Frames an unused item texture is kept before it is released.
constexpr int kTextureKeepFrames = 120;

// How an item's legend swatch looks.
enum class SwatchKind { Line, Fill, Marker };

// Cached texture of one item (splat image, heatmap or image).
struct ImageCache {
    uint64_t input_hash = 0;     // hash of everything the pixels depend on
    uint64_t texture_key = 0;    // key passed to the TextureProvider
    ImTextureID texture = nullptr;
    TextureProvider* provider = nullptr;  // provider that owns `texture`
    int w = 0, h = 0;
    int rebuilds = 0;            // number of times the pixels were recomputed
    uint64_t data_hash = 0;      // hash of the inputs except the limits (splat images)
    double limits[4] = {0, 0, 0, 0};  // plot limits the image was made for (splat images)
};

// Persistent per-item state.
struct ItemState {
    ImGuiID id = 0;
    ImU32 color = 0;             // palette colour assigned at creation
    ImU32 used_color = 0;        // colour used this frame (spec override or palette)
    bool show = true;
    int last_frame = -1;
    SwatchKind swatch = SwatchKind::Line;
    Marker marker = Marker::Circle;  // shape of a Marker swatch
    std::string label;           // display label (text before "##")
    ImageCache image;
};

// Persistent per-plot state.
struct PlotState {
    ImGuiID id = 0;
    int export_scale = 0;  // "Save as PNG" chosen in its menu: 1 or 2 (0: none)
    Axis x, y;
    bool initialized = false;
    int first_frame = -1;
    int last_frame = -1;
    bool fit_request = true;
    bool toggle_equal = false;    // context-menu toggles (XOR with the flags given by the view)
    bool toggle_log_y = false;
    bool toggle_legend = false;
    int legend_location = -1;     // the user's corner from the context menu (-1: the view's)
    ImGuiID held_drag = 0;        // DragPoint being dragged (0: none)
    ImVec2 drag_offset{0, 0};
    bool press_inside[3] = {false, false, false};
    bool press_consumed[3] = {false, false, false};
    ImRect legend_rect{0, 0, 0, 0};  // last frame's legend box (screen)
    // A legend that would cover more than kLegendCoverShare of the plot area becomes a key row
    // above it: the row's height, reserved by the layout from the next frame on (0: a box inside).
    float legend_row_h = 0.0f;
    // ... or, with no room for a row, a column at the plot area's right (a wide, short plot): its
    // width, reserved the same way (0: none).
    float legend_side_w = 0.0f;
    // ... or, with neither (a short, narrow plot) in a panel that scrolls, the key row is added to
    // the frame's height (the panel scrolls a little further) and the area keeps its own.
    bool legend_row_grow = false;
    bool legend_open = false;  // a collapsed legend ("key" tab) shown whole: the pointer is on it
    bool legend_tab = false;   // last frame the legend was collapsed into the "key" tab
    int next_color = 0;
    int last_interaction_frame = -1000;  // last frame the user panned or zoomed
    bool has_fit_key = false;     // SetupAxesFitKey seen
    uint64_t fit_key = 0;
    uint64_t data_key = 0;        // the context's SetDataKey when this plot last drew
    bool user_view = false;       // the user panned or zoomed since the last fit: the view stays put
    ImRect hint_rect{0, 0, 0, 0}; // last frame's "fit" hint (screen; empty when not shown)
    int edge_marks = 0;           // points of the last frame marked at the edge (outside the view)
    std::vector<Tick> x_ticks_drawn, y_ticks_drawn;  // the last frame's ticks (tests read the labels)
    std::unordered_map<ImGuiID, ItemState> items;
    std::vector<ImGuiID> legend_order;  // items submitted this frame, in order
};

// The plot context.
// A legend box covering more than this share of its plot area becomes a key row above it.
constexpr float kLegendCoverShare = 1.0f / 3.0f;
// ... while the plot area keeps at least this height under the row; a plot too small for that
// shows a small "key" tab in the legend's corner instead (kLegendCollapseShare), the box opening over the plot while
// the pointer is on the tab or the box (PlotState::legend_open).
constexpr float kLegendRowMinArea = 90.0f;
// ... and only a box that would cover more than this share of the plot (a legend that hides less
// stays readable as a box).
constexpr float kLegendCollapseShare = 0.5f;
// With no room for a key row, a box covering more than kLegendCoverShare goes in a column to the
// right of the plot area instead, while the area keeps this share of its width (and at least
// kLegendRowMinArea px): wide, short plots (a Compare half, 150 %) keep their names in sight.
// With room for neither, a plot in a panel that scrolls takes the key row on top of its height
// (PlotState::legend_row_grow); only a plot in a panel that cannot scroll falls back to the tab.
constexpr float kLegendSideKeepShare = 0.5f;

struct Context {
    std::unordered_map<ImGuiID, PlotState> plots;
    uint64_t data_key = 0;    // SetDataKey: what every plot shows (module, run, data)
    bool has_export = false;  // a plot asked to be saved as PNG this frame (TakeExportRequest)
    ExportRequest export_request;
    TextureProvider* provider = nullptr;
    // Callers' caches (GetCache/SetCache) with the frame they were last used.
    struct CacheSlot {
        std::unique_ptr<CacheEntry> entry;
        int last_frame = 0;
    };
    std::unordered_map<ImGuiID, CacheSlot> caches;
    int caches_trimmed_frame = -1;
    TextureProvider* sprite_provider = nullptr;  // provider that holds the sprite sheet
    ImTextureID sprite_texture = nullptr;

    // ---- per-frame state of the plot being built
    PlotState* plot = nullptr;
    ItemState* item = nullptr;
    ImDrawList* draw_list = nullptr;
    PlotFlags flags = 0;
    AxisFlags x_flags = 0, y_flags = 0;
    std::string title, x_label, y_label;
    bool setup_done = false;
    bool has_limits = false;
    Cond limits_cond = Cond::Once;
    double limits[4] = {0, 1, 0, 1};
    ImRect frame_rect, plot_rect;
    bool hovered = false, held = false;
    bool interacting = false;     // pan/zoom in progress (large images may be reused, stretched)
    bool fit_x = false, fit_y = false;
    bool fresh = false;           // first frame, new fit key or new data key: fitted as new
    bool follow = false;          // refit when this frame's data leaves the view (no user zoom)
    bool follow_shrink = false;   // ... and when it shrinks to a small part of it (no view limits)
    int edge_marks = 0;           // points marked at the edge this frame
    FitExtents fit_ext_x, fit_ext_y;
    bool equal_aspect = false;
    bool show_legend = true;
    int setup_legend_location = 0;  // SetupLegend() of this frame (Location as int)
    bool has_fit_key = false;       // SetupAxesFitKey() of this frame
    uint64_t fit_key = 0;
    bool has_colorbar = false;      // SetupColorBar() of this frame
    std::string colorbar_label;
    double colorbar_min = 0.0, colorbar_max = 1.0;
    Colormap colorbar_cmap = Colormap::Viridis;
    ImRect colorbar_rect;           // bar (screen) when has_colorbar
    float legend_row_y = 0.0f;      // where a legend's key row starts (under the title)
    float legend_side_x = 0.0f;     // the plot area's right edge before a legend column is taken from it
    bool window_scrolls = false;    // the plot's window (or a parent) scrolls vertically (a grown key row may go there)
    std::vector<Tick> x_ticks, y_ticks;
    bool custom_x = false, custom_y = false;  // SetupAxisTicks of this frame ...
    std::vector<Tick> custom_x_ticks, custom_y_ticks;  // ... its ticks

    // ---- scratch buffers, reused across frames (no per-point heap allocation)
    std::vector<ImVec2> points;
    std::vector<float> accum;
    std::vector<float> points_f, points_f2;
    std::vector<uint32_t> rgba;

    // ---- layout read-back (LastFramePlotRects): plots of the frame being drawn and of the last one
    std::vector<PlotRect> rects_now, rects_last;
    int rects_frame = -1;
};

// The current context (asserts that one exists).
Context& GetContextRef();
// The current plot's context, asserting BeginPlot was called.
Context& GetPlotContextRef(const char* caller);
// Register/get the item, resolve its colour, add its legend entry. Returns null if hidden.
ItemState* RegisterItem(const char* label_id, const Spec& spec, SwatchKind swatch);
// The display part of a label (before "##"); empty for "##id".
std::string DisplayLabel(const char* label_id);
// Colour with alpha multiplied by a.
ImU32 ScaleAlpha(ImU32 col, float a);
// dl->AddText that also logs the text while ImGui logging is on (tests read the screen's text).
void AddPlotText(ImDrawList* dl, ImVec2 pos, ImU32 col, const char* text);
// `text` cut to `room` px wide (current font): whole when it fits, else its longest prefix of whole
// UTF-8 characters followed by "..." (just "..." when nothing else fits).
std::string FitLabel(const std::string& text, float room);
// spec.line_weight times the process-wide scale (SetLineWeightScale).
float LineWeight(const Spec& spec);
// Theme colours derived from the ImGui style (readable on dark and light themes).
ImU32 ThemeText(float alpha = 1.0f);
// Upload the marker sprite sheet if needed; returns its texture or null without provider.
ImTextureID EnsureSpriteTexture(Context& c);
// Release an item's cached texture (if any).
void ReleaseImage(ImageCache& img);

// Records the plot BeginPlot is starting (its widget rectangle bb) for LastFramePlotRects.
void NotePlotRect(Context& c, ImGuiID id, const char* title_id, const ImRect& bb);

}  // namespace plot
