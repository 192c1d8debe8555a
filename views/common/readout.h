// Read-outs of the training views (mlp, autoencoder, vae, gan): how a number
// is written and the colour of their warnings (Diverged, presets, hints).
#pragma once

#include "views/common/theme.h"

#include <imgui.h>

#include <string>

namespace cilab {

// v with printf format `format` ("inf", "-inf" as printf writes them); "n/a" when v is NaN.
std::string format_number(double v, const char* format = "%.4g");

// v with printf format `format`; "n/a" when v is NaN or infinite.
std::string readout_number(double v, const char* format = "%.4g");

// The warning colour of the training views' messages (the theme's).
inline ImVec4 readout_warn() { return colour_vec(colors().warning); }

}  // namespace cilab
