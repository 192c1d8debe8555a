// Annotations over the window for a lecture: a laser pointer (L) that draws a
// bright dot with a short fading trail where the mouse is, and a pen (P) whose
// strokes stay on screen until E clears them. While the pen is on, an
// invisible window over everything takes the mouse, so drawing never pans a plot.
#include "app/app.h"
#include "views/common/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace cilab {
namespace {

constexpr double kTrailSeconds = 0.35;  // the laser's trail
const ImU32 kLaser = IM_COL32(255, 40, 40, 255);  // red reads on every theme

}  // namespace

void App::set_annotate(Annotate mode) {
  annotate_ = annotate_ == mode ? Annotate::Off : mode;
  laser_trail_.clear();
  stroke_active_ = false;
}

void App::draw_annotations() {
  ImGuiIO& io = ImGui::GetIO();
  const float scale = std::max(1.0f, ImGui::GetFontSize() / 15.0f);
  if (annotate_ == Annotate::Pen) {
    // A transparent window over everything: it takes the clicks and drags.
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("##pen", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    ImGui::SetCursorScreenPos(ImVec2(0, 0));
    ImGui::InvisibleButton("##pen_canvas", io.DisplaySize);
    if (ImGui::IsItemActive() && ImGui::IsMouseDown(0)) {
      if (!stroke_active_) {
        strokes_.emplace_back();
        stroke_active_ = true;
      }
      const ImVec2 m = io.MousePos;
      if (strokes_.back().empty() || std::hypot(strokes_.back().back().x - m.x, strokes_.back().back().y - m.y) > 1.5f)
        strokes_.back().push_back(m);
    } else {
      stroke_active_ = false;
    }
    ImGui::End();
  }
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  for (const std::vector<ImVec2>& s : strokes_) {
    if (s.size() == 1)
      dl->AddCircleFilled(s[0], 2.5f * scale, colors().annotation);
    else if (s.size() > 1)
      dl->AddPolyline(s.data(), static_cast<int>(s.size()), colors().annotation, 0, 3.5f * scale);
  }
  if (annotate_ == Annotate::Laser && ImGui::IsMousePosValid()) {
    const double now = ImGui::GetTime();
    laser_trail_.push_back({io.MousePos, now});
    while (!laser_trail_.empty() && now - laser_trail_.front().second > kTrailSeconds) laser_trail_.pop_front();
    for (size_t i = 1; i < laser_trail_.size(); ++i) {
      const float a = static_cast<float>(1.0 - (now - laser_trail_[i].second) / kTrailSeconds);
      dl->AddLine(laser_trail_[i - 1].first, laser_trail_[i].first,
                  IM_COL32(255, 40, 40, static_cast<int>(200 * std::clamp(a, 0.0f, 1.0f))), 4.0f * scale);
    }
    dl->AddCircleFilled(io.MousePos, 11.0f * scale, IM_COL32(255, 60, 60, 70));
    dl->AddCircleFilled(io.MousePos, 6.0f * scale, kLaser);
  }
  if (annotate_ != Annotate::Off) {  // say which tool is on, bottom right
    const char* msg = annotate_ == Annotate::Pen ? "pen: drag to draw (P off, E clears)" : "laser pointer (L off)";
    const ImVec2 size = ImGui::CalcTextSize(msg);
    const ImVec2 at(io.DisplaySize.x - size.x - 12.0f, io.DisplaySize.y - size.y - 8.0f);
    dl->AddRectFilled(ImVec2(at.x - 6, at.y - 3), ImVec2(at.x + size.x + 6, at.y + size.y + 3),
                      colors().overlay_bg, 4.0f);
    dl->AddText(at, annotate_ == Annotate::Pen ? colors().annotation : kLaser, msg);
  }
}

}  // namespace cilab
