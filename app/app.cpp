#include "app/app.h"

#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "app/gl_textures.h"
#include "views/plot/plot.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace cilab {
namespace {

constexpr float kBaseFontPx = 15.0f;
constexpr double kDefaultStepsPerSecond = 4.0;  // slow enough to follow in a lecture
const char* const kFontPaths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
};

void glfw_error(int code, const char* text) { std::fprintf(stderr, "cilab: GLFW error %d: %s\n", code, text); }

void drop_callback(GLFWwindow* w, int count, const char** paths) {
  App* app = static_cast<App*>(glfwGetWindowUserPointer(w));
  if (app && count > 0) app->on_drop(paths[0]);
}

// Reads the back buffer and writes it as PNG (top row first).
bool save_png(const std::string& path, int w, int h, std::string* error) {
  std::vector<unsigned char> pixels(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);
  for (size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;
  if (!stbi_write_png(path.c_str(), w, h, 4, pixels.data(), w * 4)) {
    *error = "cannot write screenshot " + path + "; check that the folder exists and is writable";
    return false;
  }
  return true;
}

void set_style() {
  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 0.0f;
  s.FrameRounding = 3.0f;
  s.GrabRounding = 3.0f;
  s.ChildRounding = 3.0f;
  s.PopupRounding = 3.0f;
  s.FramePadding = ImVec2(6, 4);
  s.ItemSpacing = ImVec2(8, 6);
  s.WindowBorderSize = 0.0f;
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.105f, 0.11f, 0.125f, 1.0f);
  c[ImGuiCol_ChildBg] = ImVec4(0.12f, 0.125f, 0.14f, 1.0f);
  c[ImGuiCol_MenuBarBg] = ImVec4(0.14f, 0.15f, 0.17f, 1.0f);
  c[ImGuiCol_Header] = ImVec4(0.22f, 0.32f, 0.48f, 0.8f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.26f, 0.40f, 0.60f, 0.9f);
  c[ImGuiCol_Button] = ImVec4(0.20f, 0.27f, 0.38f, 1.0f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.27f, 0.38f, 0.55f, 1.0f);
  c[ImGuiCol_FrameBg] = ImVec4(0.17f, 0.18f, 0.21f, 1.0f);
}

}  // namespace

App::App(GuiOptions opts) : opts_(std::move(opts)) {}

App::~App() { shutdown(); }

void App::on_drop(const std::string& path) { load_file(path); }

bool App::init_window() {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::cerr << "cilab: error: cannot open a window (no display?); for headless use try: cilab run "
                 "MODULE, or run the GUI under xvfb-run -a\n";
    return false;
  }
  // GL 3.2 core: the OpenGL3 backend then sets RendererHasVtxOffset (large draw lists).
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 2);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  window_ = glfwCreateWindow(1600, 960, "CILab", nullptr, nullptr);
  if (!window_) {
    std::cerr << "cilab: error: cannot create an OpenGL 3.2 window; check the display and Mesa "
                 "drivers (libgl1-mesa-dri)\n";
    glfwTerminate();
    return false;
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(opts_.frames > 0 ? 0 : 1);
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, drop_callback);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  plot::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  static std::string ini_path;  // ImGui keeps the pointer
  ini_path = (std::filesystem::path(settings_path()).parent_path() / "imgui.ini").string();
  io.IniFilename = opts_.frames > 0 ? nullptr : ini_path.c_str();
  // No keyboard navigation: Space and the arrows are the transport shortcuts.
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 150");
  if (opts_.frames > 0) {
    // Scripted runs (screenshots, frame timing): keep the pointer off the plots, so no
    // hover readout or tooltip lands in the picture.
    int w = 0, h = 0;
    glfwGetWindowSize(window_, &w, &h);
    glfwSetCursorPos(window_, w - 2, h - 2);
  }
  textures_ = std::make_unique<GlTextureProvider>();
  plot::SetTextureProvider(textures_.get());
  return true;
}

void App::apply_ui_scale() {
  if (!scale_dirty_) return;
  scale_dirty_ = false;
  const float scale = std::clamp(settings_.ui_scale, 0.5f, 3.0f);
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFont* font = nullptr;
  for (const char* p : kFontPaths) {
    if (std::filesystem::exists(p)) {
      font = io.Fonts->AddFontFromFileTTF(p, kBaseFontPx * scale);
      if (font) break;
    }
  }
  if (!font) {
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    io.Fonts->AddFontDefault(&cfg);
  }
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  set_style();
  ImGui::GetStyle().ScaleAllSizes(scale);
  applied_scale_ = scale;
}

void App::shutdown() {
  runner_.reset();
  if (window_) {
    plot::SetTextureProvider(nullptr);
    textures_.reset();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    plot::DestroyContext();
    ImGui::DestroyContext();
    glfwDestroyWindow(window_);
    glfwTerminate();
    window_ = nullptr;
  }
}

bool App::start_state() {
  try {
    const std::unique_ptr<Module> probe = make_module(opts_.module);
    std::shared_ptr<const Dataset> data =
        probe->info().needs_dataset || !opts_.data_file.empty() || !opts_.dataset_spec.empty()
            ? load_dataset_arg(opts_.data_file, opts_.dataset_spec, probe->info().default_dataset)
            : nullptr;
    if (!opts_.data_file.empty()) settings_.add_recent(opts_.data_file);
    module_name_ = opts_.module;
    specs_ = probe->params();
    uint64_t seed = opts_.seed;
    bool seed_given = opts_.seed_given;
    values_ = params_from_sets(specs_, opts_.sets, module_name_, &seed, &seed_given);
    seed_ = seed;
    data_ = std::move(data);
    data_is_default_ = opts_.data_file.empty() && opts_.dataset_spec.empty();
    ++data_version_;
    sync_data_panel();
    const std::string name = module_name_;
    runner_ = std::make_unique<Runner>([name] { return make_module(name); });
    runner_->set_speed(kDefaultStepsPerSecond);
    view_ = make_view(module_name_);
    runner_->reset(data_, values_, seed_);
    runner_->wait_idle();
    if (!runner_->last_error().empty()) {
      std::cerr << "cilab: error: " << runner_->last_error() << "\n";
      return false;
    }
    if (opts_.steps > 0) {
      runner_->step_n(opts_.steps);
      runner_->wait_idle();
    }
    if (opts_.play) runner_->play();
  } catch (const std::exception& e) {
    std::cerr << "cilab: error: " << e.what() << "\n";
    return false;
  }
  return true;
}

int App::run() {
  settings_ = load_settings();
  if (opts_.scale > 0) settings_.ui_scale = opts_.scale;
  if (!start_state()) return 2;
  if (!init_window()) return 2;
  if (!opts_.script.empty()) script_ = read_script(opts_.script);
  int frames_done = 0;
  std::string screenshot_error;
  last_frame_start_ = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window_) && !quit_) {
    // Idle when nothing changes: wait for input unless the run is playing,
    // a command is pending, or a frame count is being measured.
    const bool busy = opts_.frames > 0 || script_pos_ < script_.size() || runner_->playing() || runner_->busy() ||
                      ImGui::GetIO().MouseDown[0] || ImGui::GetIO().MouseDown[1];
    if (busy) glfwPollEvents();
    else glfwWaitEventsTimeout(0.25);

    const auto t0 = std::chrono::steady_clock::now();
    apply_ui_scale();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (!script_.empty()) run_script_line();
    if (quit_) break;
    ImGui::NewFrame();
    frame();
    ImGui::Render();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.1f, 0.1f, 0.11f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++frames_done;
    const bool last = opts_.frames > 0 && frames_done >= opts_.frames;
    if (!script_screenshot_.empty()) {
      glFinish();
      std::string err;
      if (!save_png(script_screenshot_, fb_w, fb_h, &err)) std::cerr << "cilab: " << err << "\n";
      script_screenshot_.clear();
    }
    if (last && !opts_.screenshot.empty()) {
      glFinish();
      if (!save_png(opts_.screenshot, fb_w, fb_h, &screenshot_error)) quit_ = true;
    }
    glfwSwapBuffers(window_);
    if (opts_.frames > 0) glFinish();
    const auto t1 = std::chrono::steady_clock::now();
    last_frame_ms_ = std::chrono::duration<double, std::milli>(t1 - t0).count();
    if (opts_.frames > 0) frame_ms_.push_back(last_frame_ms_);
    if (last) break;
  }
  // A screenshot on a window closed by the user: save the last frame.
  if (opts_.frames <= 0 && !opts_.screenshot.empty() && window_) {
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_, &fb_w, &fb_h);
    save_png(opts_.screenshot, fb_w, fb_h, &screenshot_error);
  }
  save_settings(settings_);
  if (script_failures_ > 0) {
    std::cerr << "cilab: script: " << script_failures_ << " expectation(s) failed\n";
    return 1;
  }
  if (!screenshot_error.empty()) {
    std::cerr << "cilab: error: " << screenshot_error << "\n";
    return 2;
  }
  if (opts_.frames > 0 && !frame_ms_.empty()) {
    // The first frames build fonts and caches: report steady-state frames.
    std::vector<double> t(frame_ms_.begin() + std::min<size_t>(frame_ms_.size() / 5, 10), frame_ms_.end());
    if (t.empty()) t = frame_ms_;
    std::sort(t.begin(), t.end());
    const double median = t[t.size() / 2];
    const double p95 = t[std::min(t.size() - 1, static_cast<size_t>(t.size() * 0.95))];
    std::printf("frames %d median_ms %.3f p95_ms %.3f\n", frames_done, median, p95);
  }
  return 0;
}

int run_gui(const GuiOptions& opts) {
  App app(opts);
  return app.run();
}

}  // namespace cilab
