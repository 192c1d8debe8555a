// Class colours and the class key of the representation-learning views
// (autoencoder, vae): a row of swatches and names above a scatter, in place of
// a plot legend that would cover ten classes' points; a click hides a class.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace cilab {

// The lab's colour of true class c (the Labels colormap); grey for c < 0 (unlabelled).
ImU32 class_colour(int c);

// Below this many font sizes of height left, class_key keeps to one line.
constexpr float kClassKeyOneLineEm = 20.0f;

// Swatches and names of `names`, wrapping at `width` pixels; a click on a name toggles
// hidden[c] (resized to the classes); `notes` (grey) explain the plot's other marks. With less
// than kClassKeyOneLineEm of height left under it, one line: the names that fit, then swatches
// alone (the name in their tooltip; swatches that do not fit wrap, none runs off), the notes behind
// a "(?)" tooltip. `column`: the key is a column of its own that scrolls (pLSA's categories): always
// whole.
void class_key(const std::vector<std::string>& names, float width, std::vector<char>& hidden,
               const std::vector<const char*>& notes, bool column = false);

// One entry of a colour_key: a colour and what it means.
struct ColourMeaning {
  ImU32 colour;
  const char* meaning;
};

// The key of colours that carry a meaning without classes (the signs of weights, a prediction
// and the truth): a swatch and its meaning per entry, on one line (wrapping when the window is
// narrow), then `note` (grey) if given.
void colour_key(const std::vector<ColourMeaning>& entries, const char* note = nullptr);

// True when class `label` is drawn: unlabelled rows, classes beyond `hidden`, or not hidden.
inline bool class_shown(const std::vector<char>& hidden, int label) {
  return label < 0 || label >= static_cast<int>(hidden.size()) || !hidden[static_cast<size_t>(label)];
}

}  // namespace cilab
