// plot.h - CILab's in-house plot library: an ImPlot-shaped API drawn with ImDrawList on Dear
// ImGui 1.86 (ImPlot itself does not build against 1.86). Our own code, modelled on ImPlot's
// design (see shared/reference/style-anchors.md section 8).
//
// Naming: this library deliberately mirrors Dear ImGui / ImPlot naming (PascalCase functions,
// Flags_ enums) because it is read alongside ImGui:: calls; that is the one exception to the
// project's snake_case function style. ImGui-free maths lives in plot_math.h (project style).
//
// Usage (inside an ImGui window):
//     if (plot::BeginPlot("Loss##kmeans", ImVec2(-1, 250))) {      // EndPlot() only if true
//         plot::SetupAxes("iteration", "inertia", 0, plot::AxisFlags_LogScale);   // setup first
//         plot::PlotLine("train", xs, ys, n);                                      // then items
//         plot::EndPlot();
//     }
// Lifetime: the app creates a plot::Context next to the ImGui context (CreateContext after
// ImGui::CreateContext, DestroyContext before ImGui::DestroyContext) and installs a
// TextureProvider (texture.h). Views hold no plot state: limits, fit requests, legend
// visibility and image caches live in the context, keyed by the plot's ImGuiID.
// Fits have one frame of latency (extents gathered this frame apply next frame), as in ImPlot.
// Refit policy (one for every plot): a plot fits its items on its first frame and refits, as on
// its first frame, when its SetupAxesFitKey or the context's SetDataKey changes (a new module,
// run, dataset or shape) and when its data leaves the view (or, without SetupAxesLimits, shrinks
// to less than kFollowShrink of it) - unless the user has panned or zoomed it: then the view
// stays and a small "fit" hint in a corner returns it to following (as a double-click does).
// SetupAxesLimits(Cond::Always) frames never move. Scatter points outside the view (PlotScatter,
// fitted or not, up to the splat threshold) are marked by small triangles at the edge they lie beyond.
// Interaction: left-drag pans, wheel zooms about the cursor (Ctrl: x only, Shift: y only),
// double-click fits, right-click opens the context menu, legend entries toggle on click.
// Text the library draws (titles, tick and axis labels, legend, colour bars) also goes to
// ImGui's log while logging is on (ImGui::LogToBuffer), so tests can read what is on screen.
#pragma once

#include <cstdint>
#include <memory>

#include <imgui.h>

#include <string>
#include <vector>

#include "views/plot/texture.h"

namespace plot {

struct Context;
struct ContourSegments;  // contour.h

// ---- [SECTION] flags and enums ----------------------------------------------------------------

// Plot-wide options for BeginPlot.
enum PlotFlags_ {
    PlotFlags_None = 0,
    PlotFlags_NoTitle = 1 << 0,      // do not draw the title (text before "##")
    PlotFlags_NoLegend = 1 << 1,     // hide the legend
    PlotFlags_NoMenus = 1 << 2,      // no right-click context menu (right clicks reach IsPlotClicked)
    PlotFlags_NoMouseText = 1 << 3,  // no hover readout of the mouse position
    PlotFlags_NoInputs = 1 << 4,     // no pan/zoom/fit by mouse (IsPlotHovered still reports hover)
    PlotFlags_EqualAspect = 1 << 5,  // one data unit has the same pixel length on x and y
    PlotFlags_NoFrame = 1 << 6,      // no background/border around the plot area
    PlotFlags_CanvasOnly = PlotFlags_NoTitle | PlotFlags_NoLegend | PlotFlags_NoMenus | PlotFlags_NoMouseText,
};
using PlotFlags = int;

// Per-axis options for SetupAxes.
enum AxisFlags_ {
    AxisFlags_None = 0,
    AxisFlags_AutoFit = 1 << 0,       // refit this axis to the data every frame (live loss curves)
    AxisFlags_LogScale = 1 << 1,      // log10 scale (non-positive values are not shown)
    AxisFlags_NoTickLabels = 1 << 2,  // no tick labels
    AxisFlags_Lock = 1 << 3,          // mouse pan/zoom/fit leaves this axis alone
    AxisFlags_NoGridLines = 1 << 4,   // no grid lines
    AxisFlags_NoLabel = 1 << 5,       // no axis label even if one is given
};
using AxisFlags = int;

// Per-item options (Spec::flags).
enum ItemFlags_ {
    ItemFlags_None = 0,
    ItemFlags_NoLegend = 1 << 0,  // item gets no legend entry
    ItemFlags_NoFit = 1 << 1,     // item does not take part in fits
};
using ItemFlags = int;

// An axis, for SetupAxisTicks.
enum class AxisId { X, Y };

// When SetupAxesLimits applies.
enum class Cond { Once, Always };

// Legend corner inside the plot area (the user can move it from the right-click menu).
enum class Location { NorthWest, NorthEast, SouthWest, SouthEast };

// Marker shapes (drawn as one textured 4-vertex quad each when a TextureProvider is installed).
enum class Marker { None, Circle, Square, Diamond, Cross, Plus, Triangle };

// Line dash patterns.
enum class LineStyle { Solid, Dashed, Dotted };

// Built-in colour tables. Categorical (default: Tableau 10) colours clusters and series; Labels
// (default: Paul Tol's "muted", colour-blind safe, 10 entries) colours known classes, so that a
// class is never mistaken for a cluster of the same colour. Both tables can be replaced
// (SetColormapColors: the lab's theme sets its colour-blind-safe palette there). Diverging (purple
// - dark grey - green, 9 entries) shows values on both sides of a centre (a GAN discriminator's D =
// 1/2) on a dark background (a light theme sets a light-centred one).
enum class Colormap { Categorical, Viridis, Gray, Labels, Diverging };

// "Use the next categorical palette colour" (also usable as "no colour" for Spec::fill_color).
constexpr ImU32 kAutoColor = 0x00000000u;

// ---- [SECTION] value types --------------------------------------------------------------------

// A point in plot (data) coordinates.
struct Point {
    double x = 0.0, y = 0.0;
};

// Visible data ranges of the current plot.
struct Limits {
    double x_min = 0.0, x_max = 1.0, y_min = 0.0, y_max = 1.0;
};

// Item style, passed by value to every Plot* call (no SetNext* state).
struct Spec {
    ImU32 color = kAutoColor;            // line/marker/bar colour; auto = item's palette colour
    ImU32 fill_color = kAutoColor;       // fill of polygons/ellipses/bars; auto = color * fill_alpha
    float line_weight = 1.5f;            // line thickness in pixels
    LineStyle line_style = LineStyle::Solid;
    Marker marker = Marker::None;        // markers on PlotLine points; PlotScatter uses Circle if None
    float marker_size = 3.5f;            // marker radius in pixels
    float fill_alpha = 1.0f;             // alpha multiplier for fills and scatter markers
    const ImU32* colors = nullptr;       // optional per-point colours (count entries)
    const float* sizes = nullptr;        // optional per-point marker radii in pixels
    uint64_t version = 0;                // bump when data changes in place (large-scatter cache key)
    ItemFlags flags = ItemFlags_None;
};

// ---- [SECTION] context ------------------------------------------------------------------------

// Create a plot context (and make it current if none is). Call after ImGui::CreateContext().
Context* CreateContext();
// Destroy a context (current one if null); releases its textures through the provider.
void DestroyContext(Context* ctx = nullptr);
// The current context.
Context* GetCurrentContext();
// Make ctx current.
void SetCurrentContext(Context* ctx);
// Install the texture provider of the current context (null: fallbacks drawn with quads).
void SetTextureProvider(TextureProvider* provider);
// The current texture provider (may be null).
TextureProvider* GetTextureProvider();

// ---- [SECTION] plot begin/end and setup -------------------------------------------------------

// Begin a plot in the current window. size: x <= 0 fills the width (minus |x|), y == 0 picks
// a default height (300 px), y < 0 fills the height minus |y|. Returns false when clipped; only
// call EndPlot() if it returned true.
bool BeginPlot(const char* title_id, ImVec2 size = ImVec2(-1, 0), PlotFlags flags = 0);
// Finish the current plot: legend, hover readout, context menu, fits for next frame.
void EndPlot();
// Axis labels (null or "" for none) and flags. Call before any item.
void SetupAxes(const char* x_label, const char* y_label, AxisFlags x_flags = 0, AxisFlags y_flags = 0);
// Axis limits, applied on the plot's first frame (Once) or every frame (Always).
void SetupAxesLimits(double x_min, double x_max, double y_min, double y_max, Cond cond = Cond::Once);
// Legend corner (default NorthWest). The user's choice from the context menu wins.
void SetupLegend(Location location);
// Refit when `key` changes (e.g. a hash of the data's shape, or a run's id): the plot then
// behaves as on its first frame - Cond::Once limits apply again, otherwise both axes are fitted
// to this frame's items (shown from the next frame). The first key seen only records it.
void SetupAxesFitKey(uint64_t key);
// Ticks of your own on one axis, in place of the automatic ones: a major tick at each of the
// `count` values, labelled labels[i] (null: no labels), e.g. class names at the centres of a
// confusion matrix's cells. Labels longer than 31 bytes are cut. Call before any item.
void SetupAxisTicks(AxisId axis, const double* values, int count, const char* const* labels = nullptr);
// What every plot of the context shows (the app: a hash of the module, the run and the data).
// When it changes, each plot refits on its next frame as on its first (Cond::Once limits apply
// again, the user's zoom is forgotten; a plot with no data goes back to [0, 1]).
void SetDataKey(uint64_t key);
// A plot whose data spans less than this share of the view on an axis refits (when it follows
// its data and has no SetupAxesLimits; an equal-aspect plot when both axes are that small).
constexpr double kFollowShrink = 1.0 / 3.0;
// A colour bar at the right of the plot area (the area shrinks to make room): the colormap over
// [scale_min, scale_max] with tick labels, and the label (text before "##") written along it.
void SetupColorBar(const char* label, double scale_min, double scale_max, Colormap cmap = Colormap::Viridis);
// Optional: finish setup now (otherwise the first item or EndPlot does it).
void SetupFinish();

// ---- [SECTION] items --------------------------------------------------------------------------
// label_id: text shown in the legend; "##id" suffix for uniqueness; a label starting with "##"
// has no legend entry. Non-finite points are skipped (lines break there).

// Line through (xs[i], ys[i]).
void PlotLine(const char* label_id, const double* xs, const double* ys, int count, const Spec& spec = Spec());
void PlotLine(const char* label_id, const float* xs, const float* ys, int count, const Spec& spec = Spec());
// Line through (x0 + i*dx, values[i]).
void PlotLine(const char* label_id, const double* values, int count, double x0 = 0.0, double dx = 1.0,
              const Spec& spec = Spec());
void PlotLine(const char* label_id, const float* values, int count, double x0 = 0.0, double dx = 1.0,
              const Spec& spec = Spec());
// Markers at (xs[i], ys[i]); spec.colors/spec.sizes per point. Above ~20 000 points the points
// are splatted into a density image (needs a TextureProvider; cached until data pointer,
// count, spec.version, limits or plot size change); without a provider, stride-decimated.
void PlotScatter(const char* label_id, const double* xs, const double* ys, int count, const Spec& spec = Spec());
void PlotScatter(const char* label_id, const float* xs, const float* ys, int count, const Spec& spec = Spec());
// Vertical bars: bar i centred at x = i + shift, from 0 to values[i], width in x units.
void PlotBars(const char* label_id, const double* values, int count, double width = 0.67, double shift = 0.0,
              const Spec& spec = Spec());
void PlotBars(const char* label_id, const float* values, int count, double width = 0.67, double shift = 0.0,
              const Spec& spec = Spec());
// Heatmap of a row-major rows x cols grid; row 0 is drawn at the top (bounds_max.y). Colour
// from cmap over [scale_min, scale_max] (equal values: data min/max). NaN cells transparent.
// Grids above 128x128 go through a texture (cached by content hash).
void PlotHeatmap(const char* label_id, const double* values, int rows, int cols, double scale_min = 0.0,
                 double scale_max = 0.0, Point bounds_min = Point{0, 0}, Point bounds_max = Point{1, 1},
                 Colormap cmap = Colormap::Viridis, const Spec& spec = Spec());
void PlotHeatmap(const char* label_id, const float* values, int rows, int cols, double scale_min = 0.0,
                 double scale_max = 0.0, Point bounds_min = Point{0, 0}, Point bounds_max = Point{1, 1},
                 Colormap cmap = Colormap::Viridis, const Spec& spec = Spec());
// An existing texture stretched over [bounds_min, bounds_max] (uv0 at top-left).
void PlotImage(const char* label_id, ImTextureID texture, Point bounds_min, Point bounds_max,
               ImVec2 uv0 = ImVec2(0, 0), ImVec2 uv1 = ImVec2(1, 1), ImU32 tint = IM_COL32_WHITE);
// Grayscale image (h rows x w cols, row-major, row 0 at top) mapped vmin..vmax -> black..white.
// Uses the texture provider (cached by content hash); without one, one rect per pixel.
// spec.flags: ItemFlags_NoFit for a background the view should not follow (the data does).
void PlotImageGray(const char* label_id, const float* pixels, int h, int w, float vmin, float vmax,
                   Point bounds_min, Point bounds_max, const Spec& spec = Spec());
// RGB image, 3 floats per pixel in [0, 1] (h x w x 3, row-major); spec as PlotImageGray.
void PlotImageRGB(const char* label_id, const float* rgb, int h, int w, Point bounds_min, Point bounds_max,
                  const Spec& spec = Spec());
// A legend entry only (no data), for a group of points another item draws, e.g. one cluster of
// a scatter coloured per point: swatch = spec.marker (circle if None) in spec.color. Returns
// false while the user has hidden the entry from the legend (the caller then hides the group).
bool PlotLegendEntry(const char* label_id, const Spec& spec = Spec());
// Text centred at (x, y) plus a pixel offset. Not in the legend, not fitted.
void PlotText(const char* text, double x, double y, ImVec2 pixel_offset = ImVec2(0, 0), ImU32 color = kAutoColor);

// ---- [SECTION] convenience custom items used by the lab ---------------------------------------

// Arrow from (x0, y0) to (x1, y1), head size ~ 4x line weight.
void PlotArrow(const char* label_id, double x0, double y0, double x1, double y1, const Spec& spec = Spec());
// Covariance ellipse: points p with (p-c)^T S^-1 (p-c) = n_sigma^2, S = [[a, b], [b, c]]. Outline
// in spec.color; filled too if spec.fill_color is set.
void PlotEllipse(const char* label_id, double cx, double cy, double a, double b, double c, double n_sigma = 2.0,
                 const Spec& spec = Spec());
// Convex polygon (e.g. a Voronoi cell) filled with fill; outline in spec.color if spec.line_weight > 0.
void PlotPolygon(const char* label_id, const double* xs, const double* ys, int n, ImU32 fill,
                 const Spec& spec = Spec());
// A vertical guide at x over the whole plot height (ImPlot's PlotInfLines), e.g. the current
// iteration on a curve: not in the legend, not fitted, drawn in `color`, `weight` px thick.
void PlotGuideX(const char* id, double x, ImU32 color, float weight = 1.0f);
// Polyline whose alpha fades from old (index 0) to new (index n-1), e.g. an optimiser path.
void PlotTrail(const char* label_id, const double* xs, const double* ys, int n, const Spec& spec = Spec());
void PlotTrail(const char* label_id, const float* xs, const float* ys, int n, const Spec& spec = Spec());

// Line segments, xy = (x0, y0, x1, y1) per segment (4 * count values), e.g. contour lines from
// plot::contour_segments (contour.h); spec.colors: optional per-segment colours. Not fitted
// unless asked (no ItemFlags_NoFit): fits use the end points. Implemented in plot_contour.cpp.
void PlotSegments(const char* label_id, const double* xy, int count, const Spec& spec = Spec());
// The contour lines of plot::contour_segments (contour.h) as one item: segment i drawn in
// level_colors[segs.level[i]] (one colour per level; null: spec.color for all), spec.line_weight
// thick. Its legend swatch is a filled patch in spec.color: the item stands for a whole field
// (e.g. a density), not for one line. Not fitted unless asked, as PlotSegments. Returns false
// (drawing nothing) while the user has hidden it from the legend.
bool PlotContours(const char* label_id, const ContourSegments& segs, const ImU32* level_colors,
                  const Spec& spec = Spec());

// Label-free forms of the glyphs above (no legend entry; all share one item per kind, so the
// auto colour is that item's palette colour - pass spec.color to choose).
void PlotArrow(double x0, double y0, double x1, double y1, const Spec& spec = Spec());
void PlotEllipse(double cx, double cy, double a, double b, double c, double n_sigma = 2.0, const Spec& spec = Spec());
void PlotPolygon(const double* xs, const double* ys, int n, ImU32 fill, const Spec& spec = Spec());
void PlotTrail(const double* xs, const double* ys, int n, const Spec& spec = Spec());
void PlotTrail(const float* xs, const float* ys, int n, const Spec& spec = Spec());

// ---- [SECTION] custom items -------------------------------------------------------------------
// if (plot::BeginItem("centroids")) {
//     if (plot::FitThisFrame()) for (...) plot::FitPoint(x, y);
//     ImDrawList* dl = plot::GetPlotDrawList(); ImVec2 p = plot::PlotToPixels(x, y); ...
//     plot::EndItem();
// }

// Begin a custom item (legend entry, colour, clip rect). Returns false if hidden: then do not
// call EndItem().
bool BeginItem(const char* label_id, const Spec& spec = Spec());
// End the current custom item.
void EndItem();
// Resolved colour of the current item (spec.color or its palette colour).
ImU32 GetItemColor();
// True if the plot gathers fit extents this frame (call FitPoint then).
bool FitThisFrame();
// Include (x, y) in this frame's fit extents (non-finite ignored).
void FitPoint(double x, double y);
// Plot -> screen pixels for the current plot.
ImVec2 PlotToPixels(double x, double y);
// Screen pixels -> plot coordinates for the current plot.
Point PixelsToPlot(ImVec2 pixel);
// Draw list of the current plot (clip rect = plot area while inside BeginItem/EndItem).
ImDrawList* GetPlotDrawList();

// ---- [SECTION] queries for views (between BeginPlot and EndPlot) ------------------------------

// Mouse over the plot area (and no popup in the way).
bool IsPlotHovered();
// Mouse position in plot coordinates.
Point GetPlotMousePos();
// Index of the point (xs[i], ys[i]) nearest the mouse in pixels if it lies less than radius_px
// away (the first of equally near ones), else -1: a scatter's hover.
int NearestPointToMouse(const double* xs, const double* ys, int count, float radius_px);
int NearestPointToMouse(const float* xs, const float* ys, int count, float radius_px);
// True on the frame a click (press and release without dragging) on the plot area ends.
// Right button clicks reach this only with PlotFlags_NoMenus.
bool IsPlotClicked(ImGuiMouseButton button = 0);
// Current visible ranges.
Limits GetPlotLimits();
// Screen rectangle of the plot area (top-left, size).
ImVec2 GetPlotPos();
ImVec2 GetPlotSize();
// Request a fit of both axes on the next frame.
void RequestFit();

// A plot's "Save as PNG" (its right-click menu) for this frame: the plot's frame
// in screen pixels, the scale (1 or 2) and a file stem from its title. The app
// takes it after drawing and saves that region of the rendered frame.
struct ExportRequest {
    ImVec2 min, max;
    int scale = 1;
    std::string name;
};
// True (and the request) when a plot asked this frame; the request is cleared.
bool TakeExportRequest(ExportRequest* out);
// The views of every plot of the context (axis ranges and whether the user zoomed), to put
// back after frames that moved them: an animation export steps the run through other
// iterations and returns; the plots then show what they showed before it.
struct SavedViews {
    struct View {
        ImGuiID id = 0;
        double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
        bool user_view = false;
        bool current_data = false;  // drawn with the context's current SetDataKey
    };
    std::vector<View> views;
};
SavedViews SaveViews();
// Puts the saved views back (plots created since keep theirs).
void RestoreViews(const SavedViews& saved);
// Puts one view back on its plot if that plot has drawn with the context's current data key
// (SetDataKey); false otherwise (not drawn yet, or drawn for other data). A reopened session's
// zoomed plots are restored this way, each one after its first frame.
bool RestoreView(const SavedViews::View& view);
// A draggable handle at (*x, *y); returns true while the user drags it (and updates *x, *y).
// While a DragPoint is held the plot does not pan.
bool DragPoint(int id, double* x, double* y, ImU32 color = kAutoColor, float radius = 5.0f);

// ---- [SECTION] caches kept for callers ---------------------------------------------------------
// State a view derives from its data and keeps across frames (e.g. a decimated curve), stored in
// the plot context by ImGuiID instead of in statics. An entry not asked for during
// kCacheKeepFrames frames is destroyed (checked once per frame, on the frame's first BeginPlot).

// Base of a cached object (derive and add members).
struct CacheEntry {
    virtual ~CacheEntry() = default;
};
// Frames an unused cache entry is kept.
constexpr int kCacheKeepFrames = 120;
// The cache entry of id, or null if none (marks it used this frame).
CacheEntry* GetCache(ImGuiID id);
// Store entry as the cache of id (replacing any) and return it (marked used this frame).
CacheEntry* SetCache(ImGuiID id, std::unique_ptr<CacheEntry> entry);
// The entry of id as a T, created (default-constructed) if missing or of another type.
template <class T>
T& GetOrCreateCache(ImGuiID id) {
    if (T* t = dynamic_cast<T*>(GetCache(id))) return *t;
    return static_cast<T&>(*SetCache(id, std::unique_ptr<CacheEntry>(new T())));
}
// Number of live cache entries.
int GetCacheCount();

// ---- [SECTION] colormaps ----------------------------------------------------------------------

// Number of entries of a colormap table (categorical and labels: 10 by default, else as set).
int GetColormapSize(Colormap cmap = Colormap::Categorical);
// The built-in (default) table's size and entry i, whatever SetColormapColors replaced.
int GetDefaultColormapSize(Colormap cmap);
ImU32 GetDefaultColormapColor(int i, Colormap cmap);
// Most entries a replaced categorical or labels table keeps.
constexpr int kMaxColormapColors = 16;
// Replaces the table of Categorical, Labels or Diverging (other colormaps are ignored) with `count`
// colours (1..kMaxColormapColors, more are dropped; Diverging needs 2 or more, interpolated, its
// centre the middle entry); colors == nullptr or count <= 0 restores the default.
// Process-wide; call from the UI thread between frames (items read it while drawing).
void SetColormapColors(Colormap cmap, const ImU32* colors, int count);
// Entry i (wraps around) of a colormap table.
ImU32 GetColormapColor(int i, Colormap cmap = Colormap::Categorical);
// Colour at t in [0, 1] (clamped; NaN gives transparent), interpolated.
ImU32 SampleColormap(double t, Colormap cmap = Colormap::Viridis);

// Multiplies every item's line weight (lines, segments, contours, arrows, ellipses, polygons,
// trails; not markers) by `scale` (clamped to 0.5 .. 4; default 1): a high-contrast theme draws
// thicker lines. Process-wide; call from the UI thread between frames.
void SetLineWeightScale(float scale);

// ---- [SECTION] layout read-back (tests and the app's --script checks) -------------------------

// One plot as drawn in a frame (screen pixels).
struct PlotRect {
    ImGuiID id = 0;
    char title_id[96] = {};                   // the label id given to BeginPlot (truncated)
    ImVec2 frame_min{0, 0}, frame_max{0, 0};  // the whole widget: title, axes, tick labels
    ImVec2 area_min{0, 0}, area_max{0, 0};    // the plot area inside the axes
    ImVec2 clip_min{0, 0}, clip_max{0, 0};    // visible region of the window it was drawn in
    bool window_scrolls = false;              // that window (or a parent) can scroll vertically
    bool canvas = false;                      // drawn with PlotFlags_CanvasOnly (an image tile, no axes)
    Limits limits;                            // the view (data units) as the plot is now
    bool user_view = false;                   // the user panned or zoomed it (the "fit" hint shows)
    int edge_marks = 0;                       // scatter points marked at the edge (outside the view)
    bool legend_tab = false;                  // its legend was too big: collapsed into the "key" tab
};
// Every plot drawn in the last completed frame of the current context, in drawing order
// (a plot clipped away by ImGui is not drawn, so not listed). Empty before the first frame.
int LastFramePlotRects(const PlotRect** rects);

}  // namespace plot
