// A view's tab bar whose tabs the number keys also choose (the lecturer's
// remote has no mouse): tab i is key '1' + i.
#pragma once

#include "views/common/view.h"

#include <vector>

namespace cilab {

struct TabItem {
  const char* label;  // the tab's text (may carry an "##id" suffix)
  const char* help;   // its tooltip; " (key N)" is appended
};

// Draws the tab bar `id` with `count` tabs (at most 9 have keys) and returns
// the tab to draw this frame: the one a number key chose (selected in the bar
// too), else the one the bar shows (a click), else `current` (out of range:
// 0). *by_key (when not null) tells whether a key chose it this frame. Sets
// *ctx.shown_tab (when not null) to the drawn tab's key number.
int tab_bar_with_keys(const char* id, const ViewContext& ctx, const TabItem* items, int count,
                      int current, bool* by_key = nullptr);

// The two halves of tab_bar_with_keys, for a view that needs the chosen tab
// before it draws the bar (to start that tab's pictures): the tab whose number
// key was pressed this frame (-1: none; the last one wins) ...
int tab_key_pressed(const ViewContext& ctx, int count);
// ... and the bar itself, `wanted` being tab_key_pressed's answer.
int tab_bar(const char* id, const TabItem* items, int count, int current, int wanted);

// A tab bar over the tabs a view offers this frame, a subset of all its tabs (the gan's
// and vae's depend on the data): `offered` lists them (indices into the view's Tab order,
// in bar order) and number key i + 1 chooses offered[i]. Constructed before the view
// starts the tab's pictures (tab() is the one to draw: a key's choice this frame, else
// `current`, else the first offered), drawn after:
//   TabSubset tabs(ctx, {int(Tab::Latent), int(Tab::Manifold)}, int(tab_));
//   tab_ = Tab(tabs.tab());  ... start its pictures ...
//   tab_ = Tab(tabs.draw("##vae_tabs", kTabItems));  // kTabItems: every tab, Tab's order
class TabSubset {
 public:
  TabSubset(const ViewContext& ctx, std::vector<int> offered, int current);
  int tab() const { return offered_[static_cast<size_t>(pos_)]; }
  // Draws the bar (`all`: label and tooltip of every tab, in Tab's order) and returns
  // the tab to draw (a click may have changed it).
  int draw(const char* id, const TabItem* all);

 private:
  std::vector<int> offered_;
  int pos_ = 0;
  int wanted_ = -1;
  int* shown_tab_ = nullptr;  // ViewContext::shown_tab
};

}  // namespace cilab
