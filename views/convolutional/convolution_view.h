// The convolution module's view (course chapter 12.1, 12.2, 12.4, 12.5). Above every tab: the
// layer's geometry with the output-size formula filled in beside the measured size, and the
// module's oracles (green while they hold). Tabs (keys 1-5):
//   Window      the padded input with the sliding window, the kernel with its values, the output
//               map filling position by position, and the window's products and their sum; hover an
//               output cell to see its receptive field on the input, click to pin it.
//   Matrix      y = W x: the band (Toeplitz) matrix of the signal (the image's middle row), and for
//               a small image the doubly block Toeplitz matrix of the whole layer.
//   FFT         circular convolution direct against the FFT product, and their timings over n.
//   Pooling     the output map with each window's argmax, the pooled map, and where the gradient
//               goes (max: the argmax only; average: spread evenly).
//   Receptive   the calculator: receptive field and jump per layer, parameter counts of the conv,
//               fully-connected and locally-connected layers, the one-hot backward check.
#pragma once

#include "algorithms/convolutional/convolution.h"
#include "views/common/view.h"

#include <imgui.h>

#include <string>
#include <vector>

namespace cilab {

class ConvolutionView : public ModuleView {
 public:
  enum class Tab { Window = 0, Matrix, Fft, Pooling, Receptive };

  void draw(const Snapshot& snap, const ViewContext& ctx, std::vector<ViewIntent>& out) override;
  void draw_controls(const Snapshot& snap, const ViewContext& ctx) override;
  void on_reset() override;
  // The maps need the height: the note and the metrics strip (constant oracles, shown above the
  // tabs anyway) yield first.
  float min_height_em() const override { return 34.0f; }

  int channel = 0;  // the input channel drawn (and the kernel's channel beside it)
  int filter = -1;  // the filter drawn; -1: the one being stepped
  // The output cell whose receptive field is pinned on the input (-1: none; hover shows one).
  int pinned_row = -1, pinned_col = -1;

  Tab tab() const { return tab_; }
  // The oracle line drawn last (tests): "size ok; ...".
  const std::string& oracle_text() const { return oracle_text_; }

 private:
  void draw_header(const ConvolutionSnapshot& s, const ViewContext& ctx);
  void draw_window(const ConvolutionSnapshot& s, ImVec2 size, std::vector<ViewIntent>& out);
  // Under the kernel: a preset list, and the popup editing the clicked cell (tap p, q of the kernel
  // as drawn); both change the `kernel` parameter of the shown filter and keep the position.
  void draw_kernel_editor(const ConvolutionSnapshot& s, int f, int p, int q, bool clicked, float width,
                          std::vector<ViewIntent>& out);
  void draw_products(const ConvolutionSnapshot& s);
  void draw_matrix(const ConvolutionSnapshot& s, ImVec2 size);
  void draw_fft(const ConvolutionSnapshot& s, ImVec2 size);
  void draw_pooling(const ConvolutionSnapshot& s, ImVec2 size);
  void draw_receptive(const ConvolutionSnapshot& s, ImVec2 size);
  void draw_signal_window(const ConvolutionSnapshot& s, int f, const std::vector<double>& out, double out_scale,
                          float big_w, float kernel_w, float panel_h, int pinned, std::vector<ViewIntent>& intents);
  int shown_filter(const ConvolutionSnapshot& s) const;

  Tab tab_ = Tab::Window;
  std::string oracle_text_;
  int hover_row_ = -1, hover_col_ = -1;  // the output cell hovered last frame
  int edit_f_ = 0, edit_p_ = 0, edit_q_ = 0;  // the kernel cell being edited (as drawn)
  double edit_value_ = 0;
  // Timings of the FFT tab, measured once per kernel length (wall-clock, on the UI thread: ~0.1 s).
  int timed_m_ = -1;
  std::vector<double> t_n_, t_direct_, t_fft_, t_direct_full_, t_fft_full_;
};

}  // namespace cilab
