// Animated export (File > Export > Animation): an iteration range as a GIF or a
// PNG sequence, for slides. See app.h, "animated export".
#include "app/app.h"
#include "app/png_export.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace cilab {
namespace {

// Most frames one export takes (a GIF of 2000 frames is already a film).
constexpr int kMaxAnimationFrames = 2000;
// Frames drawn with the iteration shown before it is saved (plots settle, autofit).
constexpr int kSettleFrames = 3;
// Views that compute pictures off the UI thread refresh them at 5 Hz: a frame waits a
// little longer than one period after its snapshot appeared, and until no job runs.
constexpr double kPictureSettleSeconds = 0.3;
// ... but never longer than this for one frame (a long background job, e.g. a sweep).
constexpr double kMaxWaitSeconds = 5.0;

std::string frame_file(const std::string& folder, size_t index, int iteration) {
  char name[64];
  std::snprintf(name, sizeof name, "frame-%04zu-it%d.png", index, iteration);
  return (std::filesystem::path(folder) / name).string();
}

}  // namespace

void App::open_animation_popup() {
  const int last = std::max(0, runner_->last_iteration());
  anim_from_ = 0;
  anim_to_ = last;
  anim_every_ = std::max(1, (last + 99) / 100);  // about 100 frames
  const std::string dir = export_folder();
  anim_path_ = (std::filesystem::path(dir) / (module_name_ + (anim_gif_ ? ".gif" : "-frames"))).string();
  anim_request_ = true;
}

void App::draw_animation_popup() {
  if (anim_request_) {
    ImGui::OpenPopup("Export animation");
    anim_request_ = false;
  }
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Export animation", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const int last = std::max(0, runner_->last_iteration());
  ImGui::TextWrapped("Iterations %d to %d of the history are there (step further first for more). Each frame is "
                     "the picture of one iteration, as the window shows it.", 0, last);
  const float field = ImGui::GetFontSize() * 8;
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("from iteration", &anim_from_);
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("to iteration", &anim_to_);
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("every", &anim_every_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Iterations between two frames (1: every iteration)");
  anim_from_ = std::clamp(anim_from_, 0, last);
  anim_to_ = std::clamp(anim_to_, anim_from_, last);
  anim_every_ = std::max(1, anim_every_);
  const int frames = (anim_to_ - anim_from_) / anim_every_ + 1 + ((anim_to_ - anim_from_) % anim_every_ ? 1 : 0);
  ImGui::SameLine();
  ImGui::TextDisabled("%d frames", frames);
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt("frame time (ms)", &anim_frame_ms_, 10, 100);
  anim_frame_ms_ = std::clamp(anim_frame_ms_, 20, 10000);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("How long the GIF shows each frame (rounded to 10 ms)");
  const bool was_gif = anim_gif_;
  if (ImGui::RadioButton("GIF", anim_gif_)) anim_gif_ = true;
  ImGui::SameLine();
  if (ImGui::RadioButton("PNG sequence (a folder)", !anim_gif_)) anim_gif_ = false;
  if (was_gif != anim_gif_) {  // the default name follows the format
    std::filesystem::path p(anim_path_);
    if (anim_gif_ && p.extension() != ".gif") anim_path_ = p.string() + ".gif";
    if (!anim_gif_ && p.extension() == ".gif") anim_path_ = p.replace_extension("").string();
  }
  if (ImGui::RadioButton("the view and metrics", !anim_window_)) anim_window_ = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("the whole window", anim_window_)) anim_window_ = true;
  if (ImGui::RadioButton("1x", anim_scale_ == 1)) anim_scale_ = 1;
  ImGui::SameLine();
  if (ImGui::RadioButton("2x", anim_scale_ == 2)) anim_scale_ = 2;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Twice the resolution, for large screens (shapes and lines stay crisp)");
  char buf[1024];
  std::snprintf(buf, sizeof buf, "%s", anim_path_.c_str());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputText("##anim_path", buf, sizeof buf)) anim_path_ = buf;
  ImGui::TextDisabled(anim_gif_ ? "the GIF file" : "a folder: frame-0000-it0.png, frame-0001-it5.png, ...");
  if (ImGui::Button("Export")) {
    ImGui::CloseCurrentPopup();
    start_animation_export(anim_from_, anim_to_, anim_every_, anim_gif_, anim_window_, anim_scale_, anim_frame_ms_,
                           anim_path_);
  }
  mark_target("animation:export");
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void App::start_animation_export(int from, int to, int every, bool gif, bool window, int scale, int frame_ms,
                                 const std::string& path) {
  const int last = runner_->last_iteration();
  std::string why;
  if (anim_) why = "an export is already under way";
  else if (!shown_) why = "there is no run yet";
  else if (from < 0 || to < from || to > last)
    why = "the range " + std::to_string(from) + ".." + std::to_string(to) + " is not in the history (0.." +
          std::to_string(last) + "); step further or choose a smaller range";
  else if (every < 1) why = "'every' must be at least 1";
  else if (path.empty()) why = "no file name given";
  if (why.empty()) {
    auto a = std::make_unique<AnimationExport>();
    for (int it = from; it <= to; it += every) a->iterations.push_back(it);
    if (a->iterations.back() != to) a->iterations.push_back(to);  // the range's end is always shown
    if (static_cast<int>(a->iterations.size()) > kMaxAnimationFrames)
      why = std::to_string(a->iterations.size()) + " frames is more than " + std::to_string(kMaxAnimationFrames) +
            "; choose a larger 'every'";
    if (why.empty() && !gif) {
      std::error_code ec;
      std::filesystem::create_directories(path, ec);
      if (ec || !std::filesystem::is_directory(path))
        why = "cannot create the folder " + path + (ec ? ": " + ec.message() : "") + "; check the path";
    }
    if (why.empty()) {
      a->path = path;
      a->gif = gif;
      a->window = window || presenting_;  // in presentation mode the view is the window
      a->scale = std::clamp(scale, 1, 2);
      a->delay_cs = std::max(2, (frame_ms + 5) / 10);
      a->return_to = runner_->current_iteration();
      each_run([](Runner& r) { r.pause(); });
      anim_views_ = plot::SaveViews();
      anim_views_at_ = -1;
      anim_views_key_ = plot_data_key_;
      info_.clear();  // the banner above the view would shift it: gone for the export
      anim_ = std::move(a);
      return;
    }
  }
  show_error("cannot export the animation: " + why);
}

void App::step_animation_export() {
  if (!anim_ || anim_->sought || anim_->next >= anim_->iterations.size()) return;
  const int it = anim_->iterations[anim_->next];
  each_run([it](Runner& r) { r.seek(it); });
  anim_->sought = true;
  anim_->frames_shown = 0;
}

void App::capture_animation_after_render(int fb_w, int fb_h) {
  if (!anim_ || !anim_->sought) return;
  AnimationExport& a = *anim_;
  const int it = a.iterations[a.next];
  const auto now = std::chrono::steady_clock::now();
  const bool at = shown_ && shown_->iteration == it && !runner_->busy() &&
                  (!compare_ || (!compare_->runner->busy() && compare_->shown));
  if (!at) return;
  if (a.frames_shown++ == 0) a.shown_since = now;
  const int jobs = jobs_ ? jobs_->running() : 0;
  a.jobs_seen |= jobs > 0;
  const double waited = std::chrono::duration<double>(now - a.shown_since).count();
  const bool settled = a.frames_shown > kSettleFrames && jobs == 0 &&
                       (!(a.jobs_seen || a.next == 0) || waited >= kPictureSettleSeconds);
  if (!settled && waited < kMaxWaitSeconds) return;
  try {
    const FramePixels px = frame_pixels(a.scale, fb_w, fb_h);
    FramePixels frame;
    if (a.window) {
      frame = px;
    } else {
      const ImVec2 display = ImGui::GetIO().DisplaySize;
      const float fx = display.x > 0 ? static_cast<float>(fb_w) / display.x * a.scale : 1.0f;
      const float fy = display.y > 0 ? static_cast<float>(fb_h) / display.y * a.scale : 1.0f;
      frame = crop_pixels(px, static_cast<int>(centre_min_.x * fx), static_cast<int>(centre_min_.y * fy),
                          static_cast<int>(centre_max_.x * fx + 0.999f), static_cast<int>(centre_max_.y * fy + 0.999f));
    }
    if (a.next == 0) {
      a.width = frame.w;
      a.height = frame.h;
    } else if (frame.w != a.width || frame.h != a.height) {
      // The window was resized during the export: every frame keeps the first one's size.
      FramePixels fit;
      fit.w = a.width;
      fit.h = a.height;
      fit.rgba.assign(static_cast<size_t>(a.width) * a.height * 4, 255);
      for (int y = 0; y < std::min(a.height, frame.h); ++y)
        std::copy_n(frame.rgba.begin() + static_cast<long>(static_cast<size_t>(y) * frame.w * 4),
                    std::min(a.width, frame.w) * 4, fit.rgba.begin() + static_cast<long>(static_cast<size_t>(y) * a.width * 4));
      frame = std::move(fit);
    }
    std::string error;
    if (a.gif) {
      if (a.next == 0 && !a.writer.open(a.path, a.width, a.height, &error)) throw std::runtime_error(error);
      if (!a.writer.add_frame(frame.rgba.data(), a.delay_cs, &error)) throw std::runtime_error(error);
    } else {
      write_png_region(frame_file(a.path, a.next, it), frame, 0, 0, frame.w, frame.h);
    }
  } catch (const std::exception& e) {
    end_animation_export(e.what());
    return;
  }
  ++a.next;
  a.sought = false;
  if (a.next == a.iterations.size()) end_animation_export("");
}

void App::restore_views_after_animation() {
  if (anim_views_at_ >= 0 && anim_views_key_ != plot_data_key_) anim_views_at_ = -1;  // another run since
  if (anim_ || anim_views_at_ < 0 || !shown_ || shown_->iteration != anim_views_at_ || runner_->busy()) return;
  if (compare_ && (compare_->runner->busy() || !compare_->shown)) return;
  plot::RestoreViews(anim_views_);
  anim_views_ = plot::SavedViews();
  anim_views_at_ = -1;
}

void App::end_animation_export(const std::string& error) {
  if (!anim_) return;
  AnimationExport& a = *anim_;
  std::string message;
  if (a.gif && a.writer.is_open()) {
    std::string close_error;
    if (!a.writer.close(&close_error) && error.empty()) message = close_error;
  }
  const int back = a.return_to;
  each_run([back](Runner& r) { r.seek(back); });
  anim_views_at_ = back;  // the views go back with the run (restore_views_after_animation)
  if (error.empty() && message.empty()) {
    char size[96];
    std::snprintf(size, sizeof size, " (%d x %d", a.width, a.height);
    info_ = "Saved " + std::to_string(a.next) + " frames" + size +
            (a.gif ? ", " + std::to_string(a.writer.bytes() / 1024) + " KiB)" : ")") + " to " + a.path;
    info_time_ = ImGui::GetTime();
  } else {
    if (a.gif) {  // no half-written GIF left behind
      std::error_code ec;
      std::filesystem::remove(a.path, ec);
    }
    show_error(error == "cancelled" ? "animation export cancelled after " + std::to_string(a.next) + " frames"
                                    : "cannot export the animation: " + (error.empty() ? message : error));
  }
  anim_.reset();
}

}  // namespace cilab
