// Headless-frame tests of the plot library: real ImGui 1.86 frames (no renderer) through
// tests/support/imgui_headless.h. They check geometry (vertices inside the plot rect, vertex
// budgets), the texture path and its cache, and mouse interaction (pan, zoom, fit, DragPoint,
// legend toggles, clicks) against the maths they should follow.
#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <limits>
#include <random>
#include <vector>

#include "tests/support/imgui_headless.h"
#include "tests/support/screen_text.h"
#include "views/plot/contour.h"
#include "views/plot/plot.h"
#include "views/plot/plot_internal.h"
#include "views/plot/texture.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// What a test frame saw of the plot.
struct Seen {
    ImVec2 pos{0, 0}, size{0, 0};
    plot::Limits limits;
    bool hovered = false;
    bool clicked = false;
    plot::Point mouse;
};

// Vertices of the last frame inside `r` that their draw command's clip rectangle lets show (a
// legend drawn under a clip rectangle that excludes it has none).
int visible_vertices_in(const ImRect& r) {
    int shown = 0;
    const ImDrawData* dd = ImGui::GetDrawData();
    for (int l = 0; l < dd->CmdListsCount; ++l) {
        const ImDrawList* dl = dd->CmdLists[l];
        for (const ImDrawCmd& cmd : dl->CmdBuffer)
            for (unsigned e = 0; e < cmd.ElemCount; ++e) {
                const ImVec2 v = dl->VtxBuffer[static_cast<int>(cmd.VtxOffset + dl->IdxBuffer[static_cast<int>(cmd.IdxOffset + e)])].pos;
                if (r.Contains(v) && cmd.ClipRect.x <= v.x && v.x <= cmd.ClipRect.z && cmd.ClipRect.y <= v.y && v.y <= cmd.ClipRect.w)
                    ++shown;
            }
    }
    return shown;
}

void record(Seen& s) {
    s.pos = plot::GetPlotPos();
    s.size = plot::GetPlotSize();
    s.limits = plot::GetPlotLimits();
    s.hovered = plot::IsPlotHovered();
    s.clicked = plot::IsPlotClicked(0);
    s.mouse = plot::GetPlotMousePos();
}

// Checks that the vertices [begin, end) of the plot draw list lie within the plot rect grown by tol.
int count_outside(ImDrawList* dl, int begin, int end, const Seen& s, float tol) {
    int outside = 0;
    for (int i = begin; i < end; ++i) {
        const ImVec2 p = dl->VtxBuffer[i].pos;
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.x < s.pos.x - tol || p.x > s.pos.x + s.size.x + tol ||
            p.y < s.pos.y - tol || p.y > s.pos.y + s.size.y + tol)
            ++outside;
    }
    return outside;
}

// Whitespace-separated tokens of text that are numbers (tick labels).
int numeric_tokens(const std::string& text) {
    int n = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        std::size_t j = i;
        while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
        if (j > i) {
            const std::string tok = text.substr(i, j - i);
            char* end = nullptr;
            std::strtod(tok.c_str(), &end);
            if (end == tok.c_str() + tok.size()) ++n;
        }
        i = j;
    }
    return n;
}

ImVec2 center_of(const Seen& s) { return ImVec2(s.pos.x + s.size.x * 0.5f, s.pos.y + s.size.y * 0.5f); }

}  // namespace

TEST_SUITE("plot_frames") {

TEST_CASE("items draw vertices only inside the plot rect (lines, scatter, bars, heatmap, custom)") {
    ImGuiHeadless ui;
    std::vector<double> xs(500), ys(500);
    for (int i = 0; i < 500; ++i) {
        xs[i] = i * 0.1 - 10.0;  // half of the data lies outside the visible x range
        ys[i] = std::sin(xs[i]) * 3.0;
    }
    const double bars[] = {1.0, 2.5, -1.0, 4.0, 0.5};
    std::vector<float> heat(20 * 30);
    for (std::size_t i = 0; i < heat.size(); ++i) heat[i] = static_cast<float>(i % 17);
    int checked = 0;
    for (int frame = 0; frame < 3; ++frame) {
        ui.frame_in_window([&] {
            if (plot::BeginPlot("items", ImVec2(800, 500))) {
                plot::SetupAxes("x", "y");
                plot::SetupAxesLimits(0.0, 20.0, -2.0, 2.0, plot::Cond::Always);
                Seen s;
                record(s);
                ImDrawList* dl = plot::GetPlotDrawList();
                struct Range {
                    int begin, end;
                    float tol;
                };
                std::vector<Range> ranges;
                int b = dl->VtxBuffer.Size;
                plot::Spec ls;
                ls.line_weight = 2.0f;
                ls.marker = plot::Marker::Square;
                plot::PlotLine("line", xs.data(), ys.data(), 500, ls);
                ranges.push_back({b, dl->VtxBuffer.Size, 2.0f * ls.marker_size * 1.12f + 1.0f});  // marker quads straddling the edge
                b = dl->VtxBuffer.Size;
                plot::PlotScatter("scatter", xs.data(), ys.data(), 500);
                ranges.push_back({b, dl->VtxBuffer.Size, 2.0f * 3.5f * 1.12f + 1.0f});
                b = dl->VtxBuffer.Size;
                plot::PlotBars("bars", bars, 5, 0.6, 14.0);
                ranges.push_back({b, dl->VtxBuffer.Size, 1.5f});
                b = dl->VtxBuffer.Size;
                plot::PlotHeatmap("heat", heat.data(), 20, 30, 0.0, 16.0, plot::Point{15.0, -5.0},
                                  plot::Point{25.0, 1.0});
                ranges.push_back({b, dl->VtxBuffer.Size, 1.5f});
                b = dl->VtxBuffer.Size;
                if (plot::BeginItem("custom")) {
                    const ImVec2 p = plot::PlotToPixels(5.0, 0.0);
                    plot::GetPlotDrawList()->AddRectFilled(ImVec2(p.x - 3, p.y - 3), ImVec2(p.x + 3, p.y + 3),
                                                           plot::GetItemColor());
                    plot::EndItem();
                }
                plot::PlotArrow("arrow", 1.0, 1.0, 3.0, -1.0);
                plot::PlotEllipse("ellipse", 10.0, 0.0, 4.0, 0.5, 0.3, 2.0);
                ranges.push_back({b, dl->VtxBuffer.Size, 3.0f});
                for (const Range& r : ranges) {
                    CHECK(r.end > r.begin);
                    CAPTURE(&r - ranges.data());
                    CHECK(count_outside(dl, r.begin, r.end, s, r.tol) == 0);
                    ++checked;
                }
                plot::EndPlot();
            }
        });
    }
    CHECK(checked == 15);
}

TEST_CASE("scatter below the threshold is one quad per visible point, without texture provider") {
    ImGuiHeadless ui;
    const int n = 10000;
    std::vector<float> xs(n), ys(n);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int i = 0; i < n; ++i) {
        xs[i] = u(rng);
        ys[i] = u(rng);
    }
    int vtx = -1;
    for (int frame = 0; frame < 2; ++frame)
        ui.frame_in_window([&] {
            if (plot::BeginPlot("quads", ImVec2(600, 400), plot::PlotFlags_NoLegend)) {
                plot::SetupAxesLimits(-0.1, 1.1, -0.1, 1.1, plot::Cond::Always);
                ImDrawList* dl = plot::GetPlotDrawList();
                const int b = dl->VtxBuffer.Size;
                plot::PlotScatter("pts", xs.data(), ys.data(), n);
                vtx = dl->VtxBuffer.Size - b;
                plot::EndPlot();
            }
        });
    CHECK(vtx == 4 * n);
}

TEST_CASE("a million-point scatter goes through the texture path and a static frame is a cache hit") {
    ImGuiHeadless ui;
    plot::NullTextureProvider tex;
    plot::SetTextureProvider(&tex);
    const int n = 1000000;
    std::vector<float> xs(n), ys(n);
    std::vector<ImU32> cols(n);
    std::mt19937 rng(42);
    std::normal_distribution<float> g(0.0f, 1.0f);
    for (int i = 0; i < n; ++i) {
        const int k = i % 3;
        xs[i] = g(rng) + 4.0f * k;
        ys[i] = g(rng) + (k == 1 ? 3.0f : 0.0f);
        cols[i] = plot::GetColormapColor(k);
    }
    uint64_t version = 1;
    int item_vertices = 0;
    auto draw = [&] {
        if (plot::BeginPlot("big", ImVec2(800, 600))) {
            ImDrawList* dl = plot::GetPlotDrawList();
            const int b = dl->VtxBuffer.Size;
            plot::Spec s;
            s.colors = cols.data();
            s.version = version;
            plot::PlotScatter("points", xs.data(), ys.data(), n, s);
            item_vertices = dl->VtxBuffer.Size - b;
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);  // first frame: fit request gathers extents
    ui.frame_in_window(draw);  // limits settled
    const int updates = tex.data_updates();
    CHECK(updates >= 1);
    const FrameStats stats = ui.frame_in_window(draw);
    CHECK(tex.data_updates() == updates);  // identical frame: no re-splat
    CHECK(item_vertices <= 8);             // one AddImage
    CHECK(stats.vertices < 5000);
    // above 200 000 points the image is at half the plot's pixel resolution (the plot is
    // about 760 x 550 px here) and shows dense colours
    const plot::NullTextureProvider::Call& last = tex.calls.back();
    CHECK(last.w >= 350);
    CHECK(last.w <= 400);
    CHECK(last.h >= 225);
    const std::vector<uint32_t>& px = tex.pixels[last.key];
    int opaque = 0;
    for (uint32_t p : px) opaque += (p >> 24) > 200 ? 1 : 0;
    CHECK(opaque > 100);
    // new data version -> re-splat once
    version = 2;
    ui.frame_in_window(draw);
    CHECK(tex.data_updates() == updates + 1);
    ui.frame_in_window(draw);
    CHECK(tex.data_updates() == updates + 1);
    plot::SetTextureProvider(nullptr);
}

TEST_CASE("panning a large scatter stretches the cached image and re-splats once the drag ends") {
    ImGuiHeadless ui;
    plot::NullTextureProvider tex;
    plot::SetTextureProvider(&tex);
    const int n = 60000;
    std::vector<double> xs(n), ys(n);
    for (int i = 0; i < n; ++i) {
        xs[i] = (i % 300) / 30.0;
        ys[i] = (i / 300) / 20.0;
    }
    Seen s;
    auto draw = [&] {
        if (plot::BeginPlot("bigpan", ImVec2(800, 600), plot::PlotFlags_NoLegend)) {
            plot::SetupAxesLimits(0.0, 10.0, 0.0, 10.0);
            plot::PlotScatter("pts", xs.data(), ys.data(), n);
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    const ImVec2 c = center_of(s);
    ui.mouse_move(c.x, c.y);
    ui.frame_in_window(draw);
    const int before = tex.data_updates();
    CHECK(before == 1);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    const plot::Limits start = s.limits;
    for (int i = 1; i <= 6; ++i) {
        ui.mouse_move(c.x + 15.0f * i, c.y);
        ui.frame_in_window(draw);
    }
    CHECK(s.limits.x_min < start.x_min);     // the view moved...
    CHECK(tex.data_updates() == before);      // ...without recomputing the image
    ui.mouse_button(0, false);
    for (int i = 0; i < 12; ++i) ui.frame_in_window(draw);
    CHECK(tex.data_updates() == before + 1);  // one re-splat at the new limits
    plot::SetTextureProvider(nullptr);
}

TEST_CASE("without a texture provider a huge scatter is stride-decimated within the vertex budget") {
    ImGuiHeadless ui;
    const int n = 200000;
    std::vector<double> xs(n), ys(n);
    for (int i = 0; i < n; ++i) {
        xs[i] = std::cos(i * 0.001) * (1.0 + i * 1e-6);
        ys[i] = std::sin(i * 0.001) * (1.0 + i * 1e-6);
    }
    FrameStats st;
    for (int frame = 0; frame < 2; ++frame)
        st = ui.frame_in_window([&] {
            if (plot::BeginPlot("decimated", ImVec2(600, 600))) {
                plot::PlotScatter("pts", xs.data(), ys.data(), n);
                plot::EndPlot();
            }
        });
    CHECK(st.vertices <= 4 * 20000 + 20000);
    CHECK(st.vertices > 4 * 10000);
}

TEST_CASE("large heatmaps and gray images use textures, small heatmaps use rects") {
    ImGuiHeadless ui;
    plot::NullTextureProvider tex;
    plot::SetTextureProvider(&tex);
    std::vector<double> big(200 * 150), small(8 * 8);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = std::sin(i * 0.01);
    for (std::size_t i = 0; i < small.size(); ++i) small[i] = static_cast<double>(i);
    std::vector<float> img(28 * 28, 0.5f);
    int small_vtx = 0;
    auto draw = [&] {
        if (plot::BeginPlot("heat", ImVec2(600, 500))) {
            plot::PlotHeatmap("big", big.data(), 200, 150, -1, 1, plot::Point{0, 0}, plot::Point{1, 1});
            ImDrawList* dl = plot::GetPlotDrawList();
            const int b = dl->VtxBuffer.Size;
            plot::PlotHeatmap("small", small.data(), 8, 8, 0, 63, plot::Point{1, 0}, plot::Point{2, 1});
            small_vtx = dl->VtxBuffer.Size - b;
            plot::PlotImageGray("digit", img.data(), 28, 28, 0.0f, 1.0f, plot::Point{2, 0}, plot::Point{3, 1});
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(tex.data_updates() == 2);  // big heatmap + image, uploaded once each
    CHECK(small_vtx == 4 * 64);
    img[5] = 1.0f;  // content changed in place -> re-upload (content hash)
    ui.frame_in_window(draw);
    CHECK(tex.data_updates() == 3);
    bool found_200x150 = false;
    for (const auto& c : tex.calls) found_200x150 = found_200x150 || (c.w == 150 && c.h == 200);
    CHECK(found_200x150);
    plot::SetTextureProvider(nullptr);
}

TEST_CASE("dragging with the left mouse button pans by the dragged amount") {
    ImGuiHeadless ui;
    Seen s;
    auto draw = [&] {
        if (plot::BeginPlot("pan", ImVec2(800, 600))) {
            plot::SetupAxesLimits(0.0, 10.0, 0.0, 5.0);
            const double x[] = {0.0, 10.0}, y[] = {0.0, 5.0};
            plot::PlotLine("l", x, y, 2);
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    const plot::Limits before = s.limits;
    const double upp_x = (before.x_max - before.x_min) / s.size.x;
    const double upp_y = (before.y_max - before.y_min) / s.size.y;
    const ImVec2 c = center_of(s);
    ui.mouse_move(c.x, c.y);
    ui.frame_in_window(draw);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    for (int i = 1; i <= 4; ++i) {
        ui.mouse_move(c.x + 25.0f * i, c.y + 10.0f * i);
        ui.frame_in_window(draw);
    }
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.limits.x_min == doctest::Approx(before.x_min - 100.0 * upp_x).epsilon(1e-4));
    CHECK(s.limits.x_max == doctest::Approx(before.x_max - 100.0 * upp_x).epsilon(1e-4));
    CHECK(s.limits.y_min == doctest::Approx(before.y_min + 40.0 * upp_y).epsilon(1e-4));
    CHECK(s.limits.y_max == doctest::Approx(before.y_max + 40.0 * upp_y).epsilon(1e-4));
    CHECK_FALSE(s.clicked);
}

TEST_CASE("mouse wheel zooms about the cursor: the plot point under it stays put") {
    ImGuiHeadless ui;
    Seen s;
    auto draw = [&] {
        if (plot::BeginPlot("zoom", ImVec2(800, 600))) {
            plot::SetupAxesLimits(-3.0, 7.0, 100.0, 200.0);
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    const ImVec2 m(s.pos.x + s.size.x * 0.3f, s.pos.y + s.size.y * 0.8f);
    ui.mouse_move(m.x, m.y);
    ui.frame_in_window(draw);
    const plot::Point under = s.mouse;
    const plot::Limits before = s.limits;
    ui.mouse_wheel(2.0f);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.mouse.x == doctest::Approx(under.x).epsilon(1e-6));
    CHECK(s.mouse.y == doctest::Approx(under.y).epsilon(1e-6));
    CHECK((s.limits.x_max - s.limits.x_min) < 0.8 * (before.x_max - before.x_min));
    CHECK((s.limits.y_max - s.limits.y_min) < 0.8 * (before.y_max - before.y_min));
    // Ctrl + wheel zooms x only
    ui.key_mods(true, false);
    const plot::Limits mid = s.limits;
    ui.mouse_wheel(-1.0f);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK((s.limits.x_max - s.limits.x_min) > (mid.x_max - mid.x_min));
    CHECK((s.limits.y_max - s.limits.y_min) == doctest::Approx(mid.y_max - mid.y_min));
}

TEST_CASE("double-click fits the view to the data") {
    ImGuiHeadless ui;
    Seen s;
    const double x[] = {100.0, 104.0, 102.0}, y[] = {-50.0, -42.0, -47.0};
    auto draw = [&] {
        if (plot::BeginPlot("fit", ImVec2(800, 600))) {
            plot::SetupAxesLimits(90.0, 110.0, -60.0, -30.0);
            plot::PlotScatter("p", x, y, 3);
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.limits.x_max == doctest::Approx(110.0));  // Once limits respected while the data is inside
    const ImVec2 c = center_of(s);
    ui.mouse_move(c.x + 200.0f, c.y + 100.0f);  // away from the legend
    ui.frame_in_window(draw);
    for (int click = 0; click < 2; ++click) {
        ui.mouse_button(0, true);
        ui.frame_in_window(draw);
        ui.mouse_button(0, false);
        ui.frame_in_window(draw);
    }
    ui.frame_in_window(draw);
    CHECK(s.limits.x_min <= 100.0);
    CHECK(s.limits.x_max >= 104.0);
    CHECK(s.limits.y_min <= -50.0);
    CHECK(s.limits.y_max >= -42.0);
    CHECK((s.limits.x_max - s.limits.x_min) < 6.0);  // fitted with modest padding
}

TEST_CASE("DragPoint follows the mouse and suppresses panning") {
    ImGuiHeadless ui;
    Seen s;
    double px = 2.0, py = 3.0;
    bool dragged_any = false;
    auto draw = [&] {
        if (plot::BeginPlot("drag", ImVec2(800, 600), plot::PlotFlags_NoLegend)) {
            plot::SetupAxesLimits(0.0, 10.0, 0.0, 10.0);
            record(s);
            if (plot::DragPoint(1, &px, &py)) dragged_any = true;
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    const plot::Limits before = s.limits;
    const double upp_x = (before.x_max - before.x_min) / s.size.x;
    const double upp_y = (before.y_max - before.y_min) / s.size.y;
    const float sx = s.pos.x + static_cast<float>((2.0 - before.x_min) / upp_x);
    const float sy = s.pos.y + s.size.y - static_cast<float>((3.0 - before.y_min) / upp_y);
    ui.mouse_move(sx + 1.0f, sy - 1.0f);
    ui.frame_in_window(draw);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    for (int i = 1; i <= 5; ++i) {
        ui.mouse_move(sx + 1.0f + 20.0f * i, sy - 1.0f - 8.0f * i);
        ui.frame_in_window(draw);
    }
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    CHECK(dragged_any);
    CHECK(px == doctest::Approx(2.0 + 100.0 * upp_x).epsilon(1e-3));
    CHECK(py == doctest::Approx(3.0 + 40.0 * upp_y).epsilon(1e-3));
    CHECK(s.limits.x_min == doctest::Approx(before.x_min));
    CHECK(s.limits.x_max == doctest::Approx(before.x_max));
    CHECK(s.limits.y_min == doctest::Approx(before.y_min));
}

TEST_CASE("clicking a legend entry toggles the item's visibility") {
    ImGuiHeadless ui;
    Seen s;
    int shown_frames = 0;
    bool shown = false;
    auto draw = [&] {
        if (plot::BeginPlot("legend", ImVec2(800, 600))) {
            plot::SetupAxesLimits(0.0, 1.0, 0.0, 1.0);
            shown = false;
            if (plot::BeginItem("first item")) {
                shown = true;
                ++shown_frames;
                plot::EndItem();
            }
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    REQUIRE(shown);
    const float fh = ImGui::GetFontSize();
    // first legend row: legend box at plot top-left + 8 px, padding 0.45 fh, row centred
    const ImVec2 entry(s.pos.x + 8.0f + fh * 1.5f, s.pos.y + 8.0f + fh * 0.45f + fh * 0.5f);
    ui.mouse_move(entry.x, entry.y);
    ui.frame_in_window(draw);
    const plot::Limits before = s.limits;
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK_FALSE(shown);
    CHECK_FALSE(s.clicked);
    CHECK(s.limits.x_min == doctest::Approx(before.x_min));
    // click again: visible again
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(shown);
}

TEST_CASE("IsPlotClicked reports a click without drag, and not a drag") {
    ImGuiHeadless ui;
    Seen s;
    int clicks = 0;
    plot::Point at;
    auto draw = [&] {
        if (plot::BeginPlot("click", ImVec2(800, 600), plot::PlotFlags_NoLegend)) {
            plot::SetupAxesLimits(0.0, 10.0, 0.0, 10.0);
            record(s);
            if (s.clicked) {
                ++clicks;
                at = s.mouse;
            }
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    const ImVec2 c = center_of(s);
    ui.mouse_move(c.x, c.y);
    ui.frame_in_window(draw);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(clicks == 1);
    CHECK(at.x == doctest::Approx(5.0).epsilon(0.02));
    CHECK(at.y == doctest::Approx(5.0).epsilon(0.02));
    // a drag is not a click
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_move(c.x + 60.0f, c.y);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    CHECK(clicks == 1);
}

TEST_CASE("NaN and Inf data neither break the fit nor produce non-finite vertices") {
    ImGuiHeadless ui;
    plot::NullTextureProvider tex;
    plot::SetTextureProvider(&tex);
    const double xs[] = {0.0, 1.0, kNaN, 3.0, kInf, 5.0, -kInf, 7.0};
    const double ys[] = {1.0, kNaN, 2.0, 4.0, 3.0, kInf, 0.0, -2.0};
    const double bars[] = {1.0, kNaN, kInf, 2.0};
    Seen s;
    FrameStats st;
    for (int frame = 0; frame < 3; ++frame)
        st = ui.frame_in_window([&] {
            if (plot::BeginPlot("nan", ImVec2(700, 500))) {
                ImDrawList* dl = plot::GetPlotDrawList();
                const int b = dl->VtxBuffer.Size;
                plot::PlotLine("line", xs, ys, 8);
                plot::PlotScatter("scatter", xs, ys, 8);
                plot::PlotBars("bars", bars, 4);
                plot::PlotTrail("trail", xs, ys, 8);
                plot::PlotEllipse("bad ellipse", kNaN, 0.0, 1.0, 0.0, 1.0);
                record(s);
                for (int i = b; i < dl->VtxBuffer.Size; ++i) {
                    const ImVec2 p = dl->VtxBuffer[i].pos;
                    REQUIRE(std::isfinite(p.x));
                    REQUIRE(std::isfinite(p.y));
                }
                plot::EndPlot();
            }
        });
    CHECK(std::isfinite(s.limits.x_min));
    CHECK(std::isfinite(s.limits.x_max));
    CHECK(std::isfinite(s.limits.y_min));
    CHECK(std::isfinite(s.limits.y_max));
    CHECK(s.limits.x_min <= 0.0);
    CHECK(s.limits.x_max >= 7.0);
    CHECK(s.limits.y_min <= -2.0);
    CHECK(s.limits.y_max >= 4.0);
    CHECK(st.vertices > ui.empty_vertices());
    plot::SetTextureProvider(nullptr);
}

TEST_CASE("log-Y axis with AutoFit shows a positive loss curve and skips non-positive values") {
    ImGuiHeadless ui;
    std::vector<double> loss(300);
    for (int i = 0; i < 300; ++i) loss[i] = 10.0 * std::exp(-i * 0.03) + 1e-3;
    loss[10] = 0.0;
    loss[11] = -1.0;
    Seen s;
    for (int frame = 0; frame < 3; ++frame)
        ui.frame_in_window([&] {
            if (plot::BeginPlot("loss", ImVec2(700, 300))) {
                plot::SetupAxes("iteration", "loss", plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit | plot::AxisFlags_LogScale);
                plot::PlotLine("loss", loss.data(), 300);
                record(s);
                plot::EndPlot();
            }
        });
    CHECK(s.limits.y_min > 0.0);
    CHECK(s.limits.y_min <= 1e-3 + 10.0 * std::exp(-299 * 0.03));
    CHECK(s.limits.y_max >= 10.0);
    CHECK(s.limits.x_min <= 0.0);
    CHECK(s.limits.x_max >= 299.0);
}

TEST_CASE("equal aspect flag gives both axes the same scale") {
    ImGuiHeadless ui;
    Seen s;
    const double x[] = {-1.0, 1.0}, y[] = {-10.0, 10.0};
    for (int frame = 0; frame < 3; ++frame)
        ui.frame_in_window([&] {
            if (plot::BeginPlot("equal", ImVec2(900, 400), plot::PlotFlags_EqualAspect)) {
                plot::PlotScatter("p", x, y, 2);
                record(s);
                plot::EndPlot();
            }
        });
    const double ux = (s.limits.x_max - s.limits.x_min) / s.size.x;
    const double uy = (s.limits.y_max - s.limits.y_min) / s.size.y;
    CHECK(ux == doctest::Approx(uy).epsilon(1e-6));
    CHECK(s.limits.y_min <= -10.0);
    CHECK(s.limits.y_max >= 10.0);
}

TEST_CASE("colormaps: categorical has 10 distinct opaque colours, viridis interpolates end to end") {
    std::vector<ImU32> seen;
    for (int i = 0; i < plot::GetColormapSize(plot::Colormap::Categorical); ++i) {
        const ImU32 c = plot::GetColormapColor(i);
        CHECK((c >> 24) == 255u);
        for (ImU32 o : seen) CHECK(o != c);
        seen.push_back(c);
    }
    CHECK(seen.size() >= 10);
    CHECK(plot::GetColormapColor(10) == plot::GetColormapColor(0));
    CHECK(plot::SampleColormap(0.0) == plot::GetColormapColor(0, plot::Colormap::Viridis));
    CHECK(plot::SampleColormap(1.0) == plot::GetColormapColor(63, plot::Colormap::Viridis));
    CHECK(plot::SampleColormap(-5.0) == plot::SampleColormap(0.0));
    CHECK((plot::SampleColormap(std::nan("")) >> 24) == 0u);
    // viridis brightens monotonically (green channel rises) from 0 to 1
    int prev_g = -1;
    for (int i = 0; i <= 20; ++i) {
        const int g = static_cast<int>((plot::SampleColormap(i / 20.0) >> 8) & 0xFF);
        CHECK(g >= prev_g);
        prev_g = g;
    }
}

TEST_CASE("destroying the context releases every texture it uploaded") {
    plot::NullTextureProvider tex;
    {
        ImGuiHeadless ui;
        plot::SetTextureProvider(&tex);
        std::vector<float> img(64 * 64, 0.25f);
        const double x[] = {0.0, 1.0}, y[] = {0.0, 1.0};
        for (int frame = 0; frame < 2; ++frame)
            ui.frame_in_window([&] {
                if (plot::BeginPlot("release", ImVec2(400, 400))) {
                    plot::PlotImageGray("img", img.data(), 64, 64, 0.0f, 1.0f, plot::Point{0, 0}, plot::Point{1, 1});
                    plot::PlotScatter("p", x, y, 2);  // uploads the marker sprite sheet
                    plot::EndPlot();
                }
            });
        CHECK(tex.live.size() == 2);
    }
    CHECK(tex.live.empty());
    CHECK(tex.release_count == 2);
}

TEST_CASE("right click opens the context menu, with NoMenus it is reported by IsPlotClicked(1)") {
    for (bool menus : {true, false}) {
        ImGuiHeadless ui;
        Seen s;
        bool right_clicked = false;
        bool popup_open = false;
        auto draw = [&] {
            if (plot::BeginPlot("menu", ImVec2(600, 400), menus ? 0 : plot::PlotFlags_NoMenus)) {
                record(s);
                right_clicked = right_clicked || plot::IsPlotClicked(1);
                plot::EndPlot();
            }
            popup_open = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
        };
        ui.frame_in_window(draw);
        const ImVec2 c = center_of(s);
        ui.mouse_move(c.x, c.y);
        ui.frame_in_window(draw);
        ui.mouse_button(1, true);
        ui.frame_in_window(draw);
        ui.mouse_button(1, false);
        ui.frame_in_window(draw);
        ui.frame_in_window(draw);
        CHECK(popup_open == menus);
        CHECK(right_clicked == !menus);
    }
}

TEST_CASE("label-free glyph overloads draw without adding legend entries") {
    ImGuiHeadless ui;
    const double px[] = {0.0, 1.0, 0.5}, py[] = {0.0, 0.0, 1.0};
    int added = 0;
    for (int frame = 0; frame < 2; ++frame)
        ui.frame_in_window([&] {
            if (plot::BeginPlot("glyphs", ImVec2(600, 400))) {
                plot::SetupAxesLimits(-2, 2, -2, 2);
                ImDrawList* dl = plot::GetPlotDrawList();
                const int b = dl->VtxBuffer.Size;
                plot::PlotArrow(0, 0, 1, 1);
                plot::PlotEllipse(0, 0, 1.0, 0.2, 0.5);
                plot::PlotPolygon(px, py, 3, IM_COL32(255, 0, 0, 80));
                plot::PlotTrail(px, py, 3);
                added = dl->VtxBuffer.Size - b;
                plot::EndPlot();
            }
        });
    CHECK(added > 0);
    // none of them registered a legend entry, so no legend box was laid out
    const plot::Context* ctx = ui.plot_context();
    REQUIRE(ctx->plots.size() == 1);
    const plot::PlotState& st = ctx->plots.begin()->second;
    CHECK(st.items.size() == 4);
    CHECK(st.legend_order.empty());
    CHECK(st.legend_rect.GetWidth() == 0.0f);
}

TEST_CASE("SetupLegend puts the legend in the requested corner, many entries wrap into columns") {
    ImGuiHeadless ui;
    Seen s;
    plot::Location where = plot::Location::SouthEast;
    int entries = 3;
    auto draw = [&] {
        if (plot::BeginPlot("corners", ImVec2(700, 300))) {
            plot::SetupAxesLimits(0.0, 1.0, 0.0, 1.0);
            plot::SetupLegend(where);
            for (int i = 0; i < entries; ++i) {
                const double xs[2] = {0.0, 1.0}, ys[2] = {0.1 * i, 0.1 * i};
                plot::PlotLine(("series " + std::to_string(i)).c_str(), xs, ys, 2);
            }
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    const plot::PlotState& st = ui.plot_context()->plots.begin()->second;
    const ImVec2 plot_max(s.pos.x + s.size.x, s.pos.y + s.size.y);
    CHECK(st.legend_rect.Max.x == doctest::Approx(plot_max.x - 8.0f));
    CHECK(st.legend_rect.Max.y == doctest::Approx(plot_max.y - 8.0f));
    where = plot::Location::NorthWest;
    ui.frame_in_window(draw);
    CHECK(st.legend_rect.Min.x == doctest::Approx(s.pos.x + 8.0f));
    CHECK(st.legend_rect.Min.y == doctest::Approx(s.pos.y + 8.0f));
    const float one_column_w = st.legend_rect.GetWidth();
    // 40 entries cannot stand in one column of a 300 px plot: the box stays inside the plot.
    entries = 40;
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(st.legend_rect.GetHeight() <= s.size.y);
    CHECK(st.legend_rect.GetWidth() > 1.5f * one_column_w);
}

TEST_CASE("a legend too big for its plot: a key row above a plot with room, else a small key tab that opens on hover") {
    ImGuiHeadless ui;
    Seen s;
    ImVec2 plot_size(700, 420);
    int entries = 2;
    auto draw = [&] {
        if (plot::BeginPlot("keys", plot_size)) {
            plot::SetupAxesLimits(0.0, 1.0, 0.0, 1.0);
            for (int i = 0; i < entries; ++i) {
                const double xs[2] = {0.0, 1.0}, ys[2] = {0.05 * i, 0.05 * i};
                plot::PlotLine(("a long series name " + std::to_string(i)).c_str(), xs, ys, 2);
            }
            record(s);
            plot::EndPlot();
        }
    };
    auto area = [&] { return s.size.x * s.size.y; };
    const plot::PlotState* st = nullptr;
    auto settle = [&] {
        for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
        st = &ui.plot_context()->plots.begin()->second;
    };
    // Two entries in a large plot: the usual box inside it, small.
    ui.mouse_move(5000, 5000);
    settle();
    CHECK(st->legend_row_h == 0.0f);
    CHECK(st->legend_rect.GetArea() < plot::kLegendCoverShare * area());
    // Forty: the box would hide more than a third of the plot; there is room for a key row above it.
    entries = 40;
    settle();
    CHECK(st->legend_row_h > 0.0f);
    CHECK(st->legend_rect.Max.y <= s.pos.y + 1.0f);  // above the plot area
    CHECK(visible_vertices_in(st->legend_rect) > 400);  // drawn there, not clipped away with the area
    // Twelve in a small plot (no room for a row): a "key" tab in the corner, the plot left free.
    entries = 12;
    plot_size = ImVec2(330, 150);
    settle();
    CHECK(st->legend_row_h == 0.0f);
    const ImRect tab = st->legend_rect;
    CHECK(tab.GetArea() > 0.0f);
    CHECK(tab.GetArea() < 0.1f * area());
    CHECK(tab.Min.x == doctest::Approx(s.pos.x + 8.0f));
    // The pointer on the tab opens the whole key over the plot; its entries still toggle.
    ui.mouse_move(tab.GetCenter().x, tab.GetCenter().y);
    settle();
    CHECK(st->legend_open);
    CHECK(st->legend_rect.GetArea() > 3.0f * tab.GetArea());
    const float fh = ImGui::GetFontSize();
    const ImVec2 entry(st->legend_rect.Min.x + fh * 1.5f, st->legend_rect.Min.y + fh * 0.45f + fh * 0.5f);
    ui.mouse_move(entry.x, entry.y);  // onto the open box: it stays open
    settle();
    CHECK(st->legend_open);
    REQUIRE(st->items.at(st->legend_order[0]).show);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    settle();
    CHECK_FALSE(st->items.at(st->legend_order[0]).show);  // the first entry's series hidden
    // Away from it: the tab again.
    ui.mouse_move(5000, 5000);
    settle();
    CHECK_FALSE(st->legend_open);
    CHECK(st->legend_rect.GetArea() == doctest::Approx(tab.GetArea()));
}

TEST_CASE("a legend too big for a short, wide plot: a column beside the plot area, drawn there, its entries toggle") {
    ImGuiHeadless ui;
    Seen s;
    auto draw = [&] {
        if (plot::BeginPlot("side keys", ImVec2(520, 150), plot::PlotFlags_NoTitle)) {
            plot::SetupAxesLimits(0.0, 1.0, 0.0, 1.0);
            for (int i = 0; i < 6; ++i) {
                const double xs[2] = {0.0, 1.0}, ys[2] = {0.1 * i, 0.1 * i};
                plot::PlotLine(("a long series name " + std::to_string(i)).c_str(), xs, ys, 2);
            }
            record(s);
            plot::EndPlot();
        }
    };
    ui.mouse_move(5000, 5000);
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    const plot::PlotState& st = ui.plot_context()->plots.begin()->second;
    // No room for a key row (two rows would leave the area under 90 px), a box would hide almost
    // half of it: a column at its right, the area narrower but at least half as wide.
    CHECK(st.legend_row_h == 0.0f);
    CHECK_FALSE(st.legend_tab);
    REQUIRE(st.legend_side_w > 0.0f);
    CHECK(st.legend_rect.Min.x >= s.pos.x + s.size.x);  // beside the plot area, not over it
    CHECK(s.size.x >= 0.5f * (s.size.x + st.legend_side_w));
    // Drawn where it stands: vertices inside the column, in a draw command whose clip rectangle
    // holds them (the plot area's clip rectangle would hide them).
    CHECK(visible_vertices_in(st.legend_rect) > 100);  // six swatches and labels
    // A click on the first entry hides its series (the column takes clicks as the box does).
    const float fh = ImGui::GetFontSize();
    ui.mouse_move(st.legend_rect.Min.x + fh * 1.5f, st.legend_rect.Min.y + fh * 0.45f + fh * 0.5f);
    ui.frame_in_window(draw);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    CHECK_FALSE(st.items.at(st.legend_order[0]).show);
    CHECK(st.items.at(st.legend_order[1]).show);
}

TEST_CASE("a legend too big for a short, narrow plot in a panel that scrolls: a key row on top of its height, not a tab") {
    ImGuiHeadless ui;
    Seen s;
    bool scrolls = false;
    float frame_h = 0.0f;
    auto draw = [&] {
        const float y0 = ImGui::GetCursorScreenPos().y;
        if (plot::BeginPlot("grown keys", ImVec2(330, 150))) {
            plot::SetupAxesLimits(0.0, 1.0, 0.0, 1.0);
            for (int i = 0; i < 12; ++i) {
                const double xs[2] = {0.0, 1.0}, ys[2] = {0.05 * i, 0.05 * i};
                plot::PlotLine(("a long series name " + std::to_string(i)).c_str(), xs, ys, 2);
            }
            record(s);
            plot::EndPlot();
        }
        frame_h = ImGui::GetCursorScreenPos().y - y0 - ImGui::GetStyle().ItemSpacing.y;
        if (scrolls) ImGui::Dummy(ImVec2(10, 4000));  // more below: the window scrolls
    };
    ui.mouse_move(5000, 5000);
    auto settle = [&] {
        for (int i = 0; i < 4; ++i) ui.frame_in_window(draw);
        return &ui.plot_context()->plots.begin()->second;
    };
    // A panel that cannot scroll: the "key" tab (nothing else fits in 150 px).
    const plot::PlotState* st = settle();
    REQUIRE(st->legend_tab);
    CHECK(frame_h == doctest::Approx(150.0f));
    const float area_h = s.size.y;
    // The same plot in a panel that scrolls: the names in a key row above the area, which keeps
    // its height; the frame is taller by the row.
    scrolls = true;
    st = settle();
    CHECK_FALSE(st->legend_tab);
    CHECK(st->legend_row_grow);
    REQUIRE(st->legend_row_h > 0.0f);
    CHECK(s.size.y == doctest::Approx(area_h).epsilon(0.02));
    CHECK(frame_h == doctest::Approx(150.0f + st->legend_row_h));
    CHECK(st->legend_rect.Max.y <= s.pos.y + 1.0f);  // above the plot area
    CHECK(visible_vertices_in(st->legend_rect) > 400);
    // Back in a panel that cannot scroll: the asked height again.
    scrolls = false;
    st = settle();
    CHECK(st->legend_tab);
    CHECK(frame_h == doctest::Approx(150.0f));
}

TEST_CASE("FitLabel: a name that does not fit is cut to whole UTF-8 characters and '...', within the room") {
    ImGuiHeadless ui;
    ui.frame([] {
        const std::string name = "predicted tan theta_0 |l2/l1|^t";
        const float full = ImGui::CalcTextSize(name.c_str()).x;
        CHECK(plot::FitLabel(name, full) == name);  // fits: whole
        CHECK(plot::FitLabel(name, full + 50) == name);
        for (const float room : {full - 1.0f, full * 0.5f, 40.0f}) {
            const std::string cut = plot::FitLabel(name, room);
            CHECK(cut.size() > 3);
            CHECK(cut.compare(cut.size() - 3, 3, "...") == 0);
            CHECK(name.compare(0, cut.size() - 3, cut, 0, cut.size() - 3) == 0);  // a prefix
            CHECK(ImGui::CalcTextSize(cut.c_str()).x <= room);
        }
        // Greek letters (two bytes each in UTF-8): never half a character.
        const std::string greek = "\xcf\x83\xcf\x83\xcf\x83\xcf\x83\xcf\x83\xcf\x83\xcf\x83\xcf\x83\xcf\x83\xcf\x83";
        for (float room = 0.0f; room < ImGui::CalcTextSize(greek.c_str()).x; room += 1.0f) {
            const std::string cut = plot::FitLabel(greek, room);
            CHECK((cut.size() - 3) % 2 == 0);
        }
        CHECK(plot::FitLabel(name, 1.0f) == "...");  // nothing fits
    });
}

TEST_CASE("a key row's name wider than the plot is cut with '...' at the frame's edge, whole in its tooltip") {
    ImGuiHeadless ui;
    auto draw = [&] {
        if (plot::BeginPlot("long names", ImVec2(200, 400))) {
            plot::SetupAxesLimits(0.0, 1.0, 0.0, 1.0);
            for (int i = 0; i < 3; ++i) {
                const double xs[2] = {0.0, 1.0}, ys[2] = {0.2 * i, 0.2 * i};
                plot::PlotLine(("a series whose name is far wider than the little plot it is drawn in " + std::to_string(i)).c_str(),
                               xs, ys, 2);
            }
            plot::EndPlot();
        }
    };
    ui.mouse_move(5000, 5000);
    for (int i = 0; i < 4; ++i) ui.frame_in_window(draw);
    const plot::PlotState& st = ui.plot_context()->plots.begin()->second;
    REQUIRE(st.legend_row_h > 0.0f);  // a key row of three lines
    CHECK(visible_vertices_in(st.legend_rect) > 300);
    auto tooltip_shown = [] {
        const ImGuiWindow* w = ImGui::FindWindowByName("##Tooltip_00");
        return w != nullptr && w->Active;
    };
    CHECK_FALSE(tooltip_shown());
    // The pointer on the first (cut) name: the whole name in a tooltip.
    const float fh = ImGui::GetFontSize();
    ui.mouse_move(st.legend_rect.Min.x + fh * 3.0f, st.legend_rect.Min.y + fh * 0.5f);
    for (int i = 0; i < 2; ++i) ui.frame_in_window(draw);
    CHECK(tooltip_shown());
}

TEST_CASE("SetupAxesFitKey: a new key re-applies Once limits (an image of a new shape), the same key keeps the view") {
    // Issue 9 B6: a 28x28 image shown in the old 512x512 axes until double-clicked.
    ImGuiHeadless ui;
    Seen s;
    int w = 512, h = 512;
    bool use_key = true;
    std::vector<float> px(512 * 512, 0.5f);
    auto draw = [&] {
        if (plot::BeginPlot("image", ImVec2(600, 600), plot::PlotFlags_CanvasOnly)) {
            plot::SetupAxesLimits(0, w, 0, h, plot::Cond::Once);
            if (use_key) plot::SetupAxesFitKey((static_cast<uint64_t>(h) << 32) | static_cast<uint64_t>(w));
            plot::PlotImageGray("##img", px.data(), h, w, 0.0f, 1.0f, plot::Point{0, 0}, plot::Point{double(w), double(h)});
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.limits.x_max == doctest::Approx(512.0));
    // The user zooms in: the same key keeps the user's view.
    ui.mouse_move(center_of(s).x, center_of(s).y);
    ui.mouse_wheel(2.0f);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.limits.x_max < 500.0);
    // New shape: the limits follow at once.
    w = h = 28;
    ui.frame_in_window(draw);
    CHECK(s.limits.x_min == doctest::Approx(0.0));
    CHECK(s.limits.x_max == doctest::Approx(28.0));
    CHECK(s.limits.y_max == doctest::Approx(28.0));
    ui.frame_in_window(draw);
    CHECK(s.limits.x_max == doctest::Approx(28.0));
    // Without a key (the old behaviour) a new shape keeps the stale axes.
    use_key = false;
    w = h = 100;
    ui.frame_in_window(draw);
    CHECK(s.limits.x_max == doctest::Approx(28.0));
}

TEST_CASE("SetupAxesFitKey without limits refits both axes to the items when the key changes") {
    ImGuiHeadless ui;
    Seen s;
    uint64_t key = 1;
    double scale = 1000.0;
    auto draw = [&] {
        if (plot::BeginPlot("curve", ImVec2(600, 300))) {
            plot::SetupAxesFitKey(key);
            const double xs[3] = {0, 1, 2}, ys[3] = {0, scale, 0.5 * scale};
            plot::PlotLine("run", xs, ys, 3);
            record(s);
            plot::EndPlot();
        }
    };
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(s.limits.y_max > 900.0);
    scale = 700.0;  // smaller values, same key, still most of the view: the view stays (no AutoFit)
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.limits.y_max > 900.0);
    key = 2;
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.limits.y_max < 800.0);
    CHECK(s.limits.y_max > 700.0);
}

TEST_CASE("SetupColorBar draws the colormap beside the plot area, with its label and scale ticks") {
    ImGuiHeadless ui;
    Seen with_bar, without_bar;
    bool bar = false;
    std::vector<double> heat(4 * 4);
    for (std::size_t i = 0; i < heat.size(); ++i) heat[i] = static_cast<double>(i);
    std::string text;
    auto draw = [&](Seen& s) {
        if (plot::BeginPlot("heat", ImVec2(600, 400), plot::PlotFlags_NoTitle)) {
            plot::SetupAxes("x", "y");
            if (bar) plot::SetupColorBar("probability##bar", 0.0, 15.0);
            plot::PlotHeatmap("##h", heat.data(), 4, 4, 0.0, 15.0);
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window([&] { draw(without_bar); });
    bar = true;
    text = frame_text(ui, [&] { draw(with_bar); });
    CAPTURE(text);
    // the plot area makes room for the bar, the frame keeps its size
    CHECK(with_bar.size.x < without_bar.size.x - 20.0f);
    CHECK(with_bar.size.y == doctest::Approx(without_bar.size.y));
    CHECK(text.find("probability") != std::string::npos);
    CHECK(text.find("##bar") == std::string::npos);
    CHECK(numeric_tokens(text) >= 2);  // the scale is labelled
    // the bar's colours: viridis' ends, drawn right of the plot area
    const ImDrawList* dl = ImGui::GetDrawData()->CmdLists[0];
    const ImU32 lo = plot::SampleColormap(0.0), hi = plot::SampleColormap(1.0);
    bool lo_right = false, hi_right = false;
    const float right = with_bar.pos.x + with_bar.size.x;
    for (const ImDrawVert& v : dl->VtxBuffer) {
        if (v.pos.x <= right + 1.0f) continue;
        lo_right = lo_right || v.col == lo;
        hi_right = hi_right || v.col == hi;
    }
    CHECK(lo_right);
    CHECK(hi_right);
}

TEST_CASE("PlotLegendEntry lists a group in the legend, in its marker shape, and reports hiding it") {
    ImGuiHeadless ui;
    Seen s;
    bool shown[2] = {false, false};
    auto draw = [&] {
        if (plot::BeginPlot("groups", ImVec2(800, 600))) {
            plot::SetupAxesLimits(0.0, 1.0, 0.0, 1.0);
            plot::Spec a;
            a.color = plot::GetColormapColor(0);
            shown[0] = plot::PlotLegendEntry("cluster 0", a);
            plot::Spec b;
            b.color = plot::GetColormapColor(1, plot::Colormap::Labels);
            b.marker = plot::Marker::Square;
            shown[1] = plot::PlotLegendEntry("T-shirt/top##label0", b);
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    const std::string text = frame_text(ui, draw);
    CHECK(text.find("cluster 0") != std::string::npos);
    CHECK(text.find("T-shirt/top") != std::string::npos);
    CHECK(shown[0]);
    CHECK(shown[1]);
    const plot::PlotState& st = ui.plot_context()->plots.begin()->second;
    REQUIRE(st.legend_order.size() == 2);
    CHECK(st.items.at(st.legend_order[1]).marker == plot::Marker::Square);
    // click the first entry: hidden, and the caller is told
    const float fh = ImGui::GetFontSize();
    ui.mouse_move(s.pos.x + 8.0f + fh * 1.5f, s.pos.y + 8.0f + fh * 0.45f + fh * 0.5f);
    ui.frame_in_window(draw);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK_FALSE(shown[0]);
    CHECK(shown[1]);
}

TEST_CASE("PlotContours draws each level in its colour under one legend entry (a filled swatch) and reports hiding it") {
    ImGuiHeadless ui;
    Seen s;
    // Circles x^2 + y^2 = 0.25 and = 0.64 on a node grid over [-1, 1]^2.
    const int n = 41;
    std::vector<double> v(static_cast<size_t>(n) * n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            const double x = -1 + 2.0 * c / (n - 1), y = -1 + 2.0 * r / (n - 1);
            v[static_cast<size_t>(r) * n + c] = x * x + y * y;
        }
    plot::ContourSegments segs;
    plot::contour_segments(v.data(), n, n, -1, 1, -1, 1, {0.25, 0.64}, segs);
    REQUIRE(segs.size() > 40);
    const ImU32 level_colors[2] = {IM_COL32(255, 0, 0, 200), IM_COL32(0, 255, 0, 120)};
    bool shown = false;
    int first_vtx = 0, last_vtx = 0;
    ImDrawList* plot_dl = nullptr;
    auto draw = [&] {
        if (plot::BeginPlot("contours", ImVec2(800, 600))) {
            plot::SetupAxesLimits(-1.0, 1.0, -1.0, 1.0);
            plot::Spec spec;
            spec.color = IM_COL32(230, 230, 240, 255);
            spec.line_weight = 1.0f;
            plot_dl = plot::GetPlotDrawList();
            first_vtx = plot_dl->VtxBuffer.Size;
            shown = plot::PlotContours("density##contours", segs, level_colors, spec);
            last_vtx = plot_dl->VtxBuffer.Size;
            record(s);
            plot::EndPlot();
        }
    };
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(shown);
    // Both level colours are drawn, and nothing else.
    const plot::PlotState& st = ui.plot_context()->plots.begin()->second;
    REQUIRE(st.legend_order.size() == 1);
    CHECK(st.items.at(st.legend_order[0]).swatch == plot::SwatchKind::Fill);
    CHECK(st.items.at(st.legend_order[0]).used_color == IM_COL32(230, 230, 240, 255));
    // The draw list still holds the last frame's vertices.
    int per_level[2] = {0, 0}, other = 0;
    REQUIRE(plot_dl != nullptr);
    REQUIRE(last_vtx > first_vtx);
    for (int i = first_vtx; i < last_vtx; ++i) {
        const ImU32 rgb = plot_dl->VtxBuffer[i].col & 0x00FFFFFFu;
        if (rgb == (level_colors[0] & 0x00FFFFFFu)) ++per_level[0];
        else if (rgb == (level_colors[1] & 0x00FFFFFFu)) ++per_level[1];
        else ++other;
    }
    CHECK(per_level[0] > 0);
    CHECK(per_level[1] > per_level[0]);  // the larger circle crosses more cells
    CHECK(other == 0);
    // Click its legend entry: hidden, nothing drawn, and the caller is told.
    const float fh = ImGui::GetFontSize();
    ui.mouse_move(s.pos.x + 8.0f + fh * 1.5f, s.pos.y + 8.0f + fh * 0.45f + fh * 0.5f);
    ui.frame_in_window(draw);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK_FALSE(shown);
    CHECK(last_vtx == first_vtx);
}

TEST_CASE("label palette: 10 opaque colours, none of them a cluster colour") {
    for (int i = 0; i < 10; ++i) {
        const ImU32 l = plot::GetColormapColor(i, plot::Colormap::Labels);
        CHECK((l >> IM_COL32_A_SHIFT) == 255u);
        for (int j = 0; j < 10; ++j) {
            const ImU32 c = plot::GetColormapColor(j);
            const int dr = int((l >> IM_COL32_R_SHIFT) & 255) - int((c >> IM_COL32_R_SHIFT) & 255);
            const int dg = int((l >> IM_COL32_G_SHIFT) & 255) - int((c >> IM_COL32_G_SHIFT) & 255);
            const int db = int((l >> IM_COL32_B_SHIFT) & 255) - int((c >> IM_COL32_B_SHIFT) & 255);
            CHECK(dr * dr + dg * dg + db * db > 30 * 30);
        }
    }
    CHECK(plot::GetColormapSize(plot::Colormap::Labels) == 10);
}

TEST_CASE("callers' caches live in the plot context and are dropped once unused") {
    // Issue 9 D17: the metrics view's decimation cache was a function-static map, never trimmed.
    struct Counter : plot::CacheEntry {
        int value = 0;
    };
    ImGuiHeadless ui;
    auto frame = [&](int used) {
        ui.frame_in_window([&] {
            for (int i = 0; i < used; ++i) ++plot::GetOrCreateCache<Counter>(static_cast<ImGuiID>(1000 + i)).value;
            if (plot::BeginPlot("any", ImVec2(200, 200))) plot::EndPlot();
        });
    };
    frame(5);
    frame(5);
    CHECK(plot::GetCacheCount() == 5);
    ui.frame_in_window([&] { CHECK(plot::GetOrCreateCache<Counter>(1000).value == 2); });
    for (int i = 0; i < plot::kCacheKeepFrames + 5; ++i) frame(1);
    CHECK(plot::GetCacheCount() == 1);
    ui.frame_in_window([&] { CHECK(plot::GetOrCreateCache<Counter>(1000).value > 100); });
}

TEST_CASE("log axes label at least two values on short plots and over less than a decade") {
    // Issue 9 B7: GMM's min-eigenvalue plot showed one tick label, or none.
    ImGuiHeadless ui;
    double lo = 0.2, hi = 0.9;
    auto text_of = [&] {
        return frame_text(ui, [&] {
            if (plot::BeginPlot("##log", ImVec2(300, 110), plot::PlotFlags_NoTitle)) {
                plot::SetupAxes(nullptr, nullptr, plot::AxisFlags_NoTickLabels, plot::AxisFlags_LogScale);
                plot::SetupAxesLimits(0, 1, lo, hi, plot::Cond::Always);
                plot::EndPlot();
            }
        });
    };
    std::string t = text_of();
    t = text_of();
    CAPTURE(t);
    CHECK(t.find("0.2") != std::string::npos);
    CHECK(t.find("0.5") != std::string::npos);
    lo = 1e-9;
    hi = 3.0;
    t = text_of();
    CAPTURE(t);
    CHECK(numeric_tokens(t) >= 2);
    lo = 0.9062350;  // less than one [j, j + 1] x 10^k interval
    hi = 0.9062360;
    t = text_of();
    CAPTURE(t);
    CHECK(numeric_tokens(t) >= 2);
}

TEST_CASE("a long title and axis labels stay inside the plot's frame (shortened), clear of the next widget") {
    // Issue 9 C13: the BIC plot's title ran into the next plot's axis label.
    ImGuiHeadless ui;
    ImRect frame;
    int begin = 0, end = 0;
    std::string text;
    auto draw = [&] {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        begin = dl->VtxBuffer.Size;
        const ImVec2 at = ImGui::GetCursorScreenPos();
        if (plot::BeginPlot("BIC and AIC (lower is better; click a K to load it)##t", ImVec2(220, 200))) {
            plot::SetupAxes("K (components) of the Gaussian mixture model", "a criterion with a long name indeed");
            const double xs[2] = {1, 2}, ys[2] = {3, 4};
            plot::PlotLine("##l", xs, ys, 2);
            plot::EndPlot();
        }
        end = dl->VtxBuffer.Size;
        frame = ImRect(at, ImVec2(at.x + 220, at.y + 200));
        ImGui::SameLine();
        ImGui::Button("next", ImVec2(100, 200));
    };
    ui.frame_in_window(draw);
    text = frame_text(ui, draw);
    CAPTURE(text);
    CHECK(text.find("...") != std::string::npos);
    const ImDrawList* dl = ImGui::GetDrawData()->CmdLists[0];
    int outside = 0;
    for (int i = begin; i < end; ++i) {
        const ImVec2 p = dl->VtxBuffer[i].pos;
        if (p.x < frame.Min.x - 1 || p.x > frame.Max.x + 1 || p.y < frame.Min.y - 1 || p.y > frame.Max.y + 1) ++outside;
    }
    CHECK(outside == 0);
}

TEST_CASE("the rotated y-axis label is clipped to its panel: it never bleeds out of a scrolled child") {
    // Issue 9 (seen at 1280x720): the SVD errors plot's y label, laid out unclipped so that no
    // glyph is dropped before the rotation, was drawn over the metrics strip below its panel.
    ImGuiHeadless ui;
    ImDrawList* child_dl = nullptr;
    ImVec2 clip_min, clip_max;
    auto draw = [&] {
        ImGui::BeginChild("panel", ImVec2(300, 150), true);
        child_dl = ImGui::GetWindowDrawList();
        clip_min = child_dl->GetClipRectMin();
        clip_max = child_dl->GetClipRectMax();
        // Taller than the panel: the label's centre (and most of it) lies below the panel.
        if (plot::BeginPlot("##tall", ImVec2(260, 600))) {
            plot::SetupAxes("x", "a y label that is long enough to matter");
            const double xs[2] = {1, 2}, ys[2] = {3, 4};
            plot::PlotLine("##l", xs, ys, 2);
            plot::EndPlot();
        }
        ImGui::EndChild();
    };
    for (int i = 0; i < 2; ++i) ui.frame_in_window(draw);
    REQUIRE(child_dl != nullptr);
    int commands = 0;
    for (const ImDrawCmd& c : child_dl->CmdBuffer) {
        if (c.ElemCount == 0) continue;
        ++commands;
        INFO("command clip (" << c.ClipRect.x << ", " << c.ClipRect.y << ")-(" << c.ClipRect.z << ", " << c.ClipRect.w
                              << ") panel (" << clip_min.x << ", " << clip_min.y << ")-(" << clip_max.x << ", "
                              << clip_max.y << ")");
        CHECK(c.ClipRect.x >= clip_min.x - 0.5f);
        CHECK(c.ClipRect.y >= clip_min.y - 0.5f);
        CHECK(c.ClipRect.z <= clip_max.x + 0.5f);
        CHECK(c.ClipRect.w <= clip_max.y + 0.5f);
    }
    CHECK(commands > 0);
}

}  // TEST_SUITE

// ---- the refit policy (plot.h): plots follow their data unless the user zoomed -----------------

namespace {

// The PlotRect of the plot titled `title` in the last frame (nullptr if none).
const plot::PlotRect* rect_of(const char* title) {
    const plot::PlotRect* rects = nullptr;
    const int n = plot::LastFramePlotRects(&rects);
    for (int i = 0; i < n; ++i)
        if (std::string(rects[i].title_id) == title) return &rects[i];
    return nullptr;
}

bool contains(const plot::Limits& l, double x0, double x1, double y0, double y1) {
    return l.x_min <= x0 && l.x_max >= x1 && l.y_min <= y0 && l.y_max >= y1;
}

}  // namespace

TEST_CASE("a plot follows its data when it leaves the view and when it shrinks to a small part of it") {
    ImGuiHeadless ui;
    Seen s;
    double shift = 0.0, scale = 1.0;
    auto draw = [&] {
        if (plot::BeginPlot("codes", ImVec2(600, 400))) {
            const double xs[3] = {shift, shift + scale, shift + 0.5 * scale}, ys[3] = {0.0, scale, -scale};
            plot::PlotScatter("z", xs, ys, 3);
            record(s);
            plot::EndPlot();
        }
    };
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(contains(s.limits, 0.0, 1.0, -1.0, 1.0));
    const plot::Limits first = s.limits;
    shift = 0.04;  // a small drift inside the view: the view stays
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(s.limits.x_min == first.x_min);
    CHECK(s.limits.x_max == first.x_max);
    shift = 20.0;  // the codes drift out of the view: it follows
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(contains(s.limits, 20.0, 21.0, -1.0, 1.0));
    CHECK(s.limits.x_max - s.limits.x_min < 2.0);
    scale = 50.0;  // they spread out of it
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(contains(s.limits, 20.0, 70.0, -50.0, 50.0));
    scale = 1.0;  // and collapse to a small part of it: it follows them back
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(contains(s.limits, 20.0, 21.0, -1.0, 1.0));
    CHECK(s.limits.y_max - s.limits.y_min < 3.0);
    const plot::PlotRect* r = rect_of("codes");
    REQUIRE(r != nullptr);
    CHECK_FALSE(r->user_view);
    CHECK(r->limits.x_min == s.limits.x_min);
}

TEST_CASE("a plot with Once limits follows data that leaves them, not data smaller than them") {
    ImGuiHeadless ui;
    Seen s;
    double top = 0.5;
    auto draw = [&] {
        if (plot::BeginPlot("unit", ImVec2(600, 400))) {
            plot::SetupAxesLimits(-1.5, 1.5, -1.5, 1.5);
            const double xs[2] = {-0.1, 0.1}, ys[2] = {0.0, top};
            plot::PlotLine("v", xs, ys, 2);
            record(s);
            plot::EndPlot();
        }
    };
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(s.limits.y_max == doctest::Approx(1.5));  // the view's own frame, though the data is small
    CHECK(s.limits.x_max == doctest::Approx(1.5));
    top = 8.0;
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(s.limits.y_max >= 8.0);
}

TEST_CASE("a plot without inputs reports hover and the mouse's position, and never pans or zooms") {
    // Image mosaics (the cnn filters, the misclassified images) are NoInputs canvases whose
    // tooltips and clicks need the hover.
    ImGuiHeadless ui;
    Seen s;
    auto draw = [&] {
        if (plot::BeginPlot("##canvas", ImVec2(400, 300), plot::PlotFlags_CanvasOnly | plot::PlotFlags_NoInputs)) {
            plot::SetupAxesLimits(0, 10, 0, 5, plot::Cond::Always);
            record(s);
            plot::EndPlot();
        }
    };
    ui.mouse_move(1.0f, 1.0f);
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK_FALSE(s.hovered);
    const ImVec2 c = center_of(s);
    ui.mouse_move(c.x, c.y);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.hovered);
    CHECK(s.mouse.x == doctest::Approx(5.0).epsilon(0.05));
    CHECK(s.mouse.y == doctest::Approx(2.5).epsilon(0.05));
    ui.mouse_wheel(3.0f);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(s.limits.x_min == 0.0);
    CHECK(s.limits.x_max == 10.0);
}

TEST_CASE("a zoomed plot stays put with a fit hint, whose click fits and follows the data again") {
    ImGuiHeadless ui;
    Seen s;
    double shift = 0.0;
    auto draw = [&] {
        if (plot::BeginPlot("zoomed", ImVec2(600, 400))) {
            const double xs[3] = {shift, shift + 1.0, shift + 2.0}, ys[3] = {0.0, 1.0, 2.0};
            plot::PlotScatter("##p", xs, ys, 3);
            record(s);
            plot::EndPlot();
        }
    };
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(frame_text(ui, draw).find("fit") == std::string::npos);  // following: no hint
    const ImVec2 c = center_of(s);
    ui.mouse_move(c.x, c.y);
    ui.frame_in_window(draw);
    ui.mouse_wheel(3.0f);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    const plot::Limits zoomed = s.limits;
    REQUIRE(rect_of("zoomed") != nullptr);
    CHECK(rect_of("zoomed")->user_view);
    shift = 30.0;  // the data leaves the zoomed view: the user's view stays
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(s.limits.x_min == zoomed.x_min);
    CHECK(s.limits.x_max == zoomed.x_max);
    CHECK(frame_text(ui, draw).find("fit") != std::string::npos);
    // The hint sits in the top right corner of the plot area: click it.
    ui.mouse_move(s.pos.x + s.size.x - 12.0f, s.pos.y + 10.0f);
    ui.frame_in_window(draw);
    ui.mouse_button(0, true);
    ui.frame_in_window(draw);
    ui.mouse_button(0, false);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    CHECK(contains(s.limits, 30.0, 32.0, 0.0, 2.0));
    CHECK_FALSE(rect_of("zoomed")->user_view);
    ui.mouse_move(5.0f, 5.0f);
    shift = -40.0;  // following again
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(contains(s.limits, -40.0, -38.0, 0.0, 2.0));
}

TEST_CASE("SetDataKey refits every plot as new: the user's zoom goes, a plot with no data shows [0, 1]") {
    ImGuiHeadless ui;
    Seen s, e;
    bool has_data = true;
    auto draw = [&] {
        if (plot::BeginPlot("scores", ImVec2(500, 300))) {
            const double xs[3] = {100.0, 101.0, 102.0}, ys[3] = {5.0, 6.0, 7.0};
            plot::PlotScatter("##p", xs, ys, 3);
            record(s);
            plot::EndPlot();
        }
        if (plot::BeginPlot("metric", ImVec2(500, 200))) {
            plot::SetupAxes("iteration", nullptr, plot::AxisFlags_AutoFit, plot::AxisFlags_AutoFit);
            const double v[3] = {300.0, 200.0, 250.0};
            if (has_data) plot::PlotLine("m", v, 3, 0.0, 1.0);
            record(e);
            plot::EndPlot();
        }
    };
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(e.limits.y_min > 100.0);
    // the user zooms the scatter
    ui.mouse_move(s.pos.x + s.size.x * 0.5f, s.pos.y + s.size.y * 0.5f);
    ui.frame_in_window(draw);
    ui.mouse_wheel(4.0f);
    ui.frame_in_window(draw);
    ui.frame_in_window(draw);
    const plot::Limits zoomed = s.limits;
    CHECK(zoomed.x_max - zoomed.x_min < 2.0);
    ui.mouse_move(2.0f, 2.0f);
    ui.frame_in_window(draw);
    CHECK(s.limits.x_max == zoomed.x_max);
    // another module: the scatter refits to its data, the metric without data shows [0, 1]
    plot::SetDataKey(7);
    has_data = false;
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(contains(s.limits, 100.0, 102.0, 5.0, 7.0));
    CHECK(s.limits.x_max - s.limits.x_min > 2.0);
    CHECK(e.limits.y_min == doctest::Approx(0.0));
    CHECK(e.limits.y_max == doctest::Approx(1.0));
    CHECK_FALSE(rect_of("scores")->user_view);
}

TEST_CASE("scatter points outside a fixed view are marked by triangles at the edge they lie beyond") {
    ImGuiHeadless ui;
    const ImU32 col = IM_COL32(200, 30, 60, 255);
    Seen s;
    int near_edge = 0;
    auto draw = [&] {
        if (plot::BeginPlot("box", ImVec2(600, 600))) {
            plot::SetupAxesLimits(-3.0, 3.0, -3.0, 3.0, plot::Cond::Always);
            // inside, beyond the right edge, below the bottom, beyond the top right corner
            const double xs[4] = {0.0, 5.0, 0.5, 9.0}, ys[4] = {0.0, 1.0, -7.0, 9.0};
            plot::Spec sp;
            sp.color = col;
            sp.flags = plot::ItemFlags_NoFit;  // as the GAN's generated samples in its fixed box
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const int v0 = dl->VtxBuffer.Size;
            plot::PlotScatter("samples", xs, ys, 4, sp);
            record(s);
            near_edge = 0;
            for (int i = v0; i < dl->VtxBuffer.Size; ++i) {
                const ImDrawVert& v = dl->VtxBuffer[i];
                if (v.col != col) continue;
                const float dx = std::min(std::fabs(v.pos.x - s.pos.x), std::fabs(v.pos.x - s.pos.x - s.size.x));
                const float dy = std::min(std::fabs(v.pos.y - s.pos.y), std::fabs(v.pos.y - s.pos.y - s.size.y));
                if (std::min(dx, dy) < 8.0f) ++near_edge;
            }
            plot::EndPlot();
        }
    };
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(s.limits.x_max == doctest::Approx(3.0));  // the fixed frame does not move
    CHECK(near_edge >= 9);                          // three triangles on the edges
    REQUIRE(rect_of("box") != nullptr);
    CHECK(rect_of("box")->edge_marks == 3);
}

TEST_CASE("SaveViews and RestoreViews put every plot's view back as it was") {
    ImGuiHeadless ui;
    Seen s;
    double top = 1.0;
    auto draw = [&] {
        if (plot::BeginPlot("accuracy", ImVec2(500, 300))) {
            const double xs[2] = {0.0, 1.0}, ys[2] = {0.0, top};
            plot::PlotLine("a", xs, ys, 2);
            record(s);
            plot::EndPlot();
        }
    };
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    const plot::Limits before = s.limits;
    const plot::SavedViews saved = plot::SaveViews();
    top = 40.0;  // an export steps through other iterations: the view follows
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(s.limits.y_max > 40.0);
    top = 1.0;
    plot::RestoreViews(saved);
    for (int i = 0; i < 3; ++i) ui.frame_in_window(draw);
    CHECK(s.limits.y_min == before.y_min);
    CHECK(s.limits.y_max == before.y_max);
    CHECK(s.limits.x_max == before.x_max);
}

TEST_CASE("SetupAxisTicks replaces the automatic ticks by the view's values and labels") {
    ImGuiHeadless ui;
    const double rows[3] = {2.5, 1.5, 0.5};
    const char* names[3] = {"cat", "dog", "a name longer than thirty-one bytes in all"};
    std::string text;
    for (int i = 0; i < 2; ++i)
        text = frame_text(ui, [&] {
            if (plot::BeginPlot("cm", ImVec2(500, 400))) {
                plot::SetupAxesLimits(0, 3, 0, 3, plot::Cond::Always);
                plot::SetupAxisTicks(plot::AxisId::Y, rows, 3, names);
                plot::SetupAxisTicks(plot::AxisId::X, rows, 3, nullptr);
                const double v[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
                plot::PlotHeatmap("##h", v, 3, 3, 0, 1, plot::Point{0, 0}, plot::Point{3, 3});
                plot::EndPlot();
            }
        });
    CHECK(text.find("cat") != std::string::npos);
    CHECK(text.find("dog") != std::string::npos);
    CHECK(numeric_tokens(text) == 0);  // no automatic number on either axis
    const plot::PlotRect* r = rect_of("cm");
    REQUIRE(r != nullptr);
    const plot::PlotState& st = ui.plot_context()->plots.at(r->id);
    REQUIRE(st.y_ticks_drawn.size() == 3);
    CHECK(st.y_ticks_drawn[2].value == 2.5);  // in ascending order
    CHECK(std::string(st.y_ticks_drawn[2].label) == "cat");
    CHECK(std::string(st.y_ticks_drawn[0].label).size() == 31);  // cut to the tick's room
    REQUIRE(st.x_ticks_drawn.size() == 3);
    CHECK(st.x_ticks_drawn[1].label[0] == '\0');
}
