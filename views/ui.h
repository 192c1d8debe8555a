// Small ImGui helpers shared by the module views.
#pragma once

namespace cilab {

// A wrapped tooltip (about 32 characters wide per em) for the last item, when it is hovered.
void tooltip_text(const char* text);

}  // namespace cilab
