#include "views/common/tab_bar.h"

#include "views/common/ui.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace cilab {

int tab_key_pressed(const ViewContext& ctx, int count) {
  int wanted = -1;
  for (int t = 0; t < count && t < 9; ++t)
    if (key_presses(ctx, '1' + t) > 0) wanted = t;
  return wanted;
}

int tab_bar(const char* id, const TabItem* items, int count, int current, int wanted) {
  int shown = current >= 0 && current < count ? current : 0;
  if (wanted >= 0 && wanted < count) shown = wanted;
  if (ImGui::BeginTabBar(id)) {
    for (int t = 0; t < count; ++t) {
      // A tab chosen by key is selected in the bar from the next frame on; this frame draws it
      // already.
      const bool open = ImGui::BeginTabItem(items[t].label, nullptr,
                                            t == wanted ? ImGuiTabItemFlags_SetSelected : 0);
      char tip[512];
      std::snprintf(tip, sizeof tip, "%s (key %d)", items[t].help, t + 1);
      tooltip_text(tip);
      if (open) {
        if (wanted < 0) shown = t;
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  return shown;
}

int tab_bar_with_keys(const char* id, const ViewContext& ctx, const TabItem* items, int count,
                      int current, bool* by_key) {
  const int wanted = tab_key_pressed(ctx, count);
  if (by_key) *by_key = wanted >= 0;
  const int shown = tab_bar(id, items, count, current, wanted);
  if (ctx.shown_tab) *ctx.shown_tab = shown + 1;
  return shown;
}

TabSubset::TabSubset(const ViewContext& ctx, std::vector<int> offered, int current)
    : offered_(std::move(offered)), shown_tab_(ctx.shown_tab) {
  if (offered_.empty()) offered_.push_back(0);
  const auto it = std::find(offered_.begin(), offered_.end(), current);
  pos_ = it == offered_.end() ? 0 : static_cast<int>(it - offered_.begin());
  wanted_ = tab_key_pressed(ctx, static_cast<int>(offered_.size()));
  if (wanted_ >= 0) pos_ = wanted_;
}

int TabSubset::draw(const char* id, const TabItem* all) {
  std::vector<TabItem> items;
  items.reserve(offered_.size());
  for (int t : offered_) items.push_back(all[t]);
  pos_ = tab_bar(id, items.data(), static_cast<int>(items.size()), pos_, wanted_);
  if (shown_tab_) *shown_tab_ = pos_ + 1;
  return tab();
}

}  // namespace cilab
