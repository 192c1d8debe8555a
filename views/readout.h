// Read-outs of the training views (mlp, autoencoder, vae, gan): how a number
// is written and the colour of their warnings (Diverged, presets, hints).
#pragma once

#include <imgui.h>

#include <string>

namespace cilab {

// v with printf format `format`; "n/a" when v is NaN or infinite.
std::string readout_number(double v, const char* format = "%.4g");

// The warning colour of the training views' messages.
inline const ImVec4 kReadoutWarn(1.0f, 0.85f, 0.4f, 1.0f);

}  // namespace cilab
