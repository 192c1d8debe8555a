// screen_text.h - the text one headless frame puts on screen, for tests that check what a user
// reads: ImGui's own text (Text, labels, buttons, combo previews) and the plot library's text
// (titles, tick and axis labels, legend entries, colour bars), both through ImGui's log.
//
//     const std::string text = frame_text(ui, [&] { view.draw(...); });
//     CHECK(text.find("cumulative 96.23%") != std::string::npos);
//
// Logging stops at the End() of a top-level window, so text inside tooltips and popups, and
// anything drawn after one opened during fn(), is not captured.
#pragma once

#include <string>

#include <imgui.h>
#include <imgui_internal.h>

#include "tests/support/imgui_headless.h"

// Runs one frame_in_window(fn) and returns the text it drew.
template <class Fn>
std::string frame_text(ImGuiHeadless& ui, Fn&& fn) {
    std::string text;
    ui.frame_in_window([&] {
        ImGui::LogToBuffer();
        fn();
        if (GImGui->LogEnabled) text = GImGui->LogBuffer.c_str();
        ImGui::LogFinish();
    });
    return text;
}
