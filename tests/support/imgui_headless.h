// imgui_headless.h - header-only RAII harness that runs real Dear ImGui 1.86 frames with no
// window and no renderer (the example_null idea), plus a plot::Context. Used by tests/plot and
// tests/views.
//
//     ImGuiHeadless ui;                                  // contexts, fonts, 1280x800, 60 Hz
//     FrameStats s = ui.frame_in_window([&] { draw_my_view(...); });
//     ui.mouse_move(400, 300); ui.mouse_button(0, true); ui.frame_in_window(...);
//
// Input uses the 1.86 legacy IO fields (io.MousePos, io.MouseDown[], io.MouseWheel); ImGui
// clears MouseWheel after each frame. libimgui.a has IM_ASSERT compiled in and aborts on misuse,
// which is why every doctest case runs as its own ctest process.
#pragma once

#include <cstdint>

#include <imgui.h>

#include "views/plot/plot.h"

// Totals of one frame's ImDrawData.
struct FrameStats {
    int vertices = 0;
    int indices = 0;
    int commands = 0;
    int lists = 0;
};

// Owns an ImGui context and a plot context for the lifetime of a test.
class ImGuiHeadless {
public:
    explicit ImGuiHeadless(ImVec2 display = ImVec2(1280.0f, 800.0f), bool with_plot = true) {
        previous_imgui_ = ImGui::GetCurrentContext();
        imgui_ = ImGui::CreateContext();
        ImGui::SetCurrentContext(imgui_);
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.LogFilename = nullptr;
        io.DisplaySize = display;
        io.DeltaTime = 1.0f / 60.0f;
        io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
        if (with_plot) {
            previous_plot_ = plot::GetCurrentContext();
            plot_ = plot::CreateContext();
            plot::SetCurrentContext(plot_);
        }
    }

    ~ImGuiHeadless() {
        if (plot_ != nullptr) {
            plot::DestroyContext(plot_);
            plot::SetCurrentContext(previous_plot_);
        }
        ImGui::DestroyContext(imgui_);
        ImGui::SetCurrentContext(previous_imgui_);
    }

    ImGuiHeadless(const ImGuiHeadless&) = delete;
    ImGuiHeadless& operator=(const ImGuiHeadless&) = delete;

    // NewFrame -> fn() -> Render; returns the draw data totals.
    template <class Fn>
    FrameStats frame(Fn&& fn) {
        ImGui::NewFrame();
        fn();
        ImGui::Render();
        return stats();
    }

    // Like frame(), with fn() inside a borderless window covering the display at (0, 0).
    template <class Fn>
    FrameStats frame_in_window(Fn&& fn, const char* name = "headless##window") {
        return frame([&] {
            ImGui::SetNextWindowPos(ImVec2(0, 0));
            ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
            ImGui::Begin(name, nullptr,
                         ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove);
            fn();
            ImGui::End();
        });
    }

    // Vertices of a frame_in_window that draws nothing: the window's own
    // background. "Drew something" is `st.vertices > ui.empty_vertices()`, never
    // `st.vertices > 0`, which the background alone satisfies.
    int empty_vertices() {
        if (empty_vertices_ < 0) empty_vertices_ = frame_in_window([] {}, "headless##empty").vertices;
        return empty_vertices_;
    }

    // Totals of the last rendered frame.
    static FrameStats stats() {
        FrameStats s;
        const ImDrawData* dd = ImGui::GetDrawData();
        if (dd == nullptr || !dd->Valid) return s;
        s.vertices = dd->TotalVtxCount;
        s.indices = dd->TotalIdxCount;
        s.lists = dd->CmdListsCount;
        for (int i = 0; i < dd->CmdListsCount; ++i) s.commands += dd->CmdLists[i]->CmdBuffer.Size;
        return s;
    }

    // Mouse position in screen pixels.
    void mouse_move(float x, float y) { ImGui::GetIO().MousePos = ImVec2(x, y); }
    // Press (down = true) or release a mouse button (0 left, 1 right, 2 middle).
    void mouse_button(int button, bool down) { ImGui::GetIO().MouseDown[button] = down; }
    // Wheel notches for the next frame (positive = away from the user = zoom in).
    void mouse_wheel(float notches) { ImGui::GetIO().MouseWheel = notches; }
    // Modifier keys for the next frames.
    void key_mods(bool ctrl, bool shift) {
        ImGui::GetIO().KeyCtrl = ctrl;
        ImGui::GetIO().KeyShift = shift;
    }

    ImGuiIO& io() { return ImGui::GetIO(); }
    plot::Context* plot_context() { return plot_; }

private:
    ImGuiContext* imgui_ = nullptr;
    ImGuiContext* previous_imgui_ = nullptr;
    plot::Context* plot_ = nullptr;
    plot::Context* previous_plot_ = nullptr;
    int empty_vertices_ = -1;
};
