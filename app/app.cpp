#include "app/app.h"

#include "algorithms/core/registry.h"
#include "algorithms/data/datasets.h"
#include "app/gl_textures.h"
#include "app/png_export.h"
#include "views/plot/plot.h"
#include "views/common/fonts.h"
#include "views/common/theme.h"

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
constexpr int kDefaultWindowW = 1600;  // window size on a monitor seen for the first time
constexpr int kDefaultWindowH = 960;   // (capped at the monitor's work area)
constexpr double kDefaultStepsPerSecond = 4.0;  // slow enough to follow in a lecture
// While the run computes and nobody touches the window, redraws take at most
// this share of one core (wait = frame time * (1 / share - 1)), at most 30 fps.
constexpr double kUiDutyCycle = 0.1;
constexpr double kMinFrameSeconds = 1.0 / 30.0;

void glfw_error(int code, const char* text) { std::fprintf(stderr, "cilab: GLFW error %d: %s\n", code, text); }

void drop_callback(GLFWwindow* w, int count, const char** paths) {
  App* app = static_cast<App*>(glfwGetWindowUserPointer(w));
  if (app && count > 0) app->on_drop(paths[0]);
}

// The user resized the window: remember the size for this monitor (Settings).
void window_size_callback(GLFWwindow* w, int width, int height) {
  App* app = static_cast<App*>(glfwGetWindowUserPointer(w));
  if (app && width > 0 && height > 0) app->on_resize(width, height);
}

// ImGui's backend first (text fields, its key state), then the app's queue: a
// press and release between two frames still counts as one press.
//
// A text field takes the keyboard only when clicked: with none active, Tab is
// not ImGui's (its tab-focusing would put the keys into the view's first text
// field, e.g. word2vec's Map words); Enter and Escape in a field end the edit.
void key_callback(GLFWwindow* w, int key, int scancode, int action, int mods) {
  App* app = static_cast<App*>(glfwGetWindowUserPointer(w));
  const bool tab_unfocused = key == GLFW_KEY_TAB && !ImGui::GetIO().WantTextInput;
  if (!tab_unfocused && (!app || !app->defer_key_release(key, scancode, action, mods)))
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
  if (app) app->on_key(key, action, mods);
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

}  // namespace

App::App(GuiOptions opts) : opts_(std::move(opts)) {}

App::~App() { shutdown(); }

void App::on_drop(const std::string& path) { open_path(path); }

void App::open_path(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".json" || ext == ".cilab") {  // a preset or a session
    try {
      open_preset(read_lab_file(path));
    } catch (const std::exception& e) {
      show_error(std::string("cannot open the preset or session: ") + e.what());  // the message names the file
    }
    return;
  }
  load_file(path);
}

void App::export_pngs_after_render(int fb_w, int fb_h) {
  plot::ExportRequest asked;
  if (plot::TakeExportRequest(&asked)) request_plot_png(asked);  // the dialog first: where to save it
  const bool due = png_export_delay_ > 0 && --png_export_delay_ == 0;
  const bool plot_png = due && plot_png_.has_value();
  const bool window_png = due && !plot_png;
  if (!due) return;
  const plot::ExportRequest req = plot_png ? *plot_png_ : plot::ExportRequest{};
  plot_png_.reset();
  try {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float fx = display.x > 0 ? static_cast<float>(fb_w) / display.x : 1.0f;
    const float fy = display.y > 0 ? static_cast<float>(fb_h) / display.y : 1.0f;
    if (window_png) {
      const FramePixels px = frame_pixels(png_scale_, fb_w, fb_h);
      write_png_region(png_export_path_, px, 0, 0, px.w, px.h);
      info_ = "Saved the window (" + std::to_string(px.w) + " x " + std::to_string(px.h) + ") to " + png_export_path_;
      info_time_ = ImGui::GetTime();
    }
    if (plot_png) {
      const FramePixels px = frame_pixels(req.scale, fb_w, fb_h);
      const float s = static_cast<float>(req.scale);
      const std::string& path = png_export_path_;
      write_png_region(path, px, static_cast<int>(req.min.x * fx * s), static_cast<int>(req.min.y * fy * s),
                       static_cast<int>(req.max.x * fx * s + 0.999f), static_cast<int>(req.max.y * fy * s + 0.999f));
      info_ = "Saved the plot to " + path;
      info_time_ = ImGui::GetTime();
    }
  } catch (const std::exception& e) {
    show_error(std::string("cannot save the PNG: ") + e.what());
  }
}

void App::toggle_presentation() {
  presenting_ = !presenting_;
  if (!window_) return;
  if (presenting_) {
    glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (monitor && mode) glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (glfwGetWindowMonitor(window_)) {
    glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], std::max(windowed_[2], 320),
                         std::max(windowed_[3], 240), 0);
  }
}

void App::on_resize(int width, int height) {
  if (!monitor_key_.empty()) settings_.window_sizes[monitor_key_] = {width, height};
}

bool App::defer_key_release(int key, int scancode, int action, int mods) {
  if (action == GLFW_PRESS) {
    pressed_since_frame_.push_back(key);
    return false;
  }
  if (action != GLFW_RELEASE ||
      std::find(pressed_since_frame_.begin(), pressed_since_frame_.end(), key) == pressed_since_frame_.end())
    return false;
  deferred_releases_.push_back({key, scancode, mods});
  return true;
}

void App::release_deferred_keys() {
  std::vector<KeyRelease> now;
  now.swap(deferred_releases_);
  for (const KeyRelease& r : now) ImGui_ImplGlfw_KeyCallback(window_, r.key, r.scancode, GLFW_RELEASE, r.mods);
}

void App::on_key(int key, int action, int mods) {
  if (action == GLFW_PRESS || action == GLFW_REPEAT) key_queue_.push_back(KeyPress{key, mods, action == GLFW_REPEAT});
}

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
  // At most the primary monitor's work area (a 1280x720 projector must show the
  // status bar), or the size last used on this monitor at this resolution.
  int area_x = 0, area_y = 0, area_w = kDefaultWindowW, area_h = kDefaultWindowH;
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
    glfwGetMonitorWorkarea(monitor, &area_x, &area_y, &area_w, &area_h);
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    if ((area_w <= 0 || area_h <= 0) && mode) {
      area_w = mode->width;
      area_h = mode->height;
    }
    const char* name = glfwGetMonitorName(monitor);
    monitor_key_ = std::string(name ? name : "monitor") + " " +
                   (mode ? std::to_string(mode->width) + "x" + std::to_string(mode->height) : std::string("?"));
  }
  int win_w = kDefaultWindowW, win_h = kDefaultWindowH;
  if (auto it = settings_.window_sizes.find(monitor_key_); it != settings_.window_sizes.end()) {
    win_w = it->second.first;
    win_h = it->second.second;
  }
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);  // shown once it fits
  window_ = glfwCreateWindow(std::max(200, std::min(win_w, area_w)), std::max(150, std::min(win_h, area_h)), "CILab",
                             nullptr, nullptr);
  if (!window_) {
    std::cerr << "cilab: error: cannot create an OpenGL 3.2 window; check the display and Mesa "
                 "drivers (libgl1-mesa-dri)\n";
    glfwTerminate();
    return false;
  }
  {
    // The window manager's frame (title bar) also has to fit in the work area.
    int left = 0, top = 0, right = 0, bottom = 0, w = 0, h = 0;
    glfwGetWindowFrameSize(window_, &left, &top, &right, &bottom);
    glfwGetWindowSize(window_, &w, &h);
    const int fit_w = std::max(200, std::min(w, area_w - left - right));
    const int fit_h = std::max(150, std::min(h, area_h - top - bottom));
    if (fit_w != w || fit_h != h) glfwSetWindowSize(window_, fit_w, fit_h);
    glfwSetWindowPos(window_, area_x + left, area_y + top);
    glfwShowWindow(window_);
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(opts_.frames > 0 ? 0 : 1);
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, drop_callback);
  glfwSetWindowSizeCallback(window_, window_size_callback);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  plot::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  // ImGui keeps the pointer: the string is the App's, and outlives the context.
  ini_path_ = (std::filesystem::path(settings_path()).parent_path() / "imgui.ini").string();
  io.IniFilename = opts_.frames > 0 ? nullptr : ini_path_.c_str();
  // No keyboard navigation: Space and the arrows are the transport shortcuts.
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  glfwSetKeyCallback(window_, key_callback);  // replaces ImGui's, which key_callback calls
  ImGui_ImplOpenGL3_Init("#version 150");
  if (opts_.frames > 0) {
    // Scripted runs (screenshots, frame timing): keep the pointer off the plots, so no
    // hover readout or tooltip lands in the picture.
    int w = 0, h = 0;
    glfwGetWindowSize(window_, &w, &h);
    glfwSetCursorPos(window_, w - 2, h - 2);
  }
  browser_.set_last_folder(settings_.last_folder);  // the file dialog reopens where it was
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
  // DejaVu Sans with the glyphs the lab's text uses (Greek, math operators, arrows, sub- and
  // superscripts: views/common/fonts.h); ImGui's default ranges drew "?" for >= alpha sigma.
  ImFont* font = add_lab_font(io.Fonts, kBaseFontPx * scale);
  if (!font) {
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    io.Fonts->AddFontDefault(&cfg);
  }
  // The presentation read-outs: the same face at 1.6 times the size.
  big_font_ = add_lab_font(io.Fonts, kBaseFontPx * scale * 1.6f);
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  // The theme and palette (an unknown saved name falls back to the defaults: Light, Okabe-Ito).
  Theme theme = Theme::Light;
  Palette palette = Palette::OkabeIto;
  if (!parse_theme(settings_.theme, &theme)) settings_.theme = theme_name(theme);
  if (!parse_palette(settings_.palette, &palette)) settings_.palette = palette_name(palette);
  set_theme(theme, palette);
  // Rebuilt from the theme's style at scale 1 on every change: scaling the current style again
  // would compound (1 -> 2 -> 1.25 must equal starting at 1.25).
  ImGuiStyle style = theme_style(theme);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  applied_scale_ = scale;
}

void App::shutdown() {
  loads_.clear();  // waits for a load still running (std::async)
  pending_module_.reset();
  retired_runners_.clear();
  runner_.reset();
  jobs_.reset();  // cancels the views' background jobs and joins their threads
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
            ? load_dataset_arg(opts_.data_file, opts_.dataset_spec, probe->info().default_dataset,
                               data_load_options(probe->info(), opts_.layout, true))
            : nullptr;
    if (!opts_.data_file.empty()) settings_.add_recent(opts_.data_file);
    module_name_ = opts_.module;
    specs_ = probe->params();
    uint64_t seed = opts_.seed;
    bool seed_given = opts_.seed_given;
    values_ = params_from_sets(specs_, opts_.sets, module_name_, &seed, &seed_given);
    seed_ = seed;
    if (opts_.preset && opts_.preset->data_embedded && opts_.data_file.empty() && opts_.dataset_spec.empty())
      data = opts_.preset->data_embedded;  // a session's edited data
    data_ = std::move(data);
    data_is_default_ = opts_.data_file.empty() && opts_.dataset_spec.empty() && !(opts_.preset && opts_.preset->data_embedded);
    if (data_ == (opts_.preset ? opts_.preset->data_embedded : nullptr)) {
      data_origin_ = {};
    } else if (data_) {
      std::error_code ec;
      data_origin_ = !opts_.data_file.empty()
                         ? DataOrigin{"", std::filesystem::absolute(opts_.data_file, ec).string()}
                         : DataOrigin{opts_.dataset_spec.empty() ? probe->info().default_dataset : opts_.dataset_spec, ""};
    }
    ++data_version_;
    sync_data_panel();
    const std::string name = module_name_;
    runner_ = std::make_unique<Runner>([name] { return make_module(name); });
    runner_->set_speed(kDefaultStepsPerSecond);
    view_ = make_view(module_name_);
    ++plot_data_key_;
    // A reset, the steps, and a session's edits at their positions (re-simulated).
    RunRecipe recipe;
    recipe.values = values_;
    recipe.seed = seed_;
    recipe.iteration = std::max(0, opts_.steps);
    if (opts_.preset) {
      ParamValues unused;
      const RunRecipe r = recipe_of(*opts_.preset, specs_, &unused);
      if (recipe.iteration == opts_.preset->iteration) {  // (--steps beside a session moves its position)
        recipe.phase = r.phase;
        recipe.last_iteration = r.last_iteration;
      }
      for (const RunEdit& e : r.edits) {
        if (e.iteration > std::max(recipe.iteration, recipe.last_iteration)) break;
        recipe.edits.push_back(e);
        if (e.live && (e.iteration < recipe.iteration || (e.iteration == recipe.iteration && e.phase <= recipe.phase)))
          values_[e.name] = e.value;  // the panel shows the values at the position shown
      }
    }
    runner_->replay_recipe(data_, recipe);
    runner_->wait_idle();
    if (!runner_->last_error().empty()) {
      std::cerr << "cilab: error: " << runner_->last_error() << "\n";
      return false;
    }
    if (opts_.play) runner_->play();
    if (opts_.preset) commit_preset(*opts_.preset);
  } catch (const std::exception& e) {
    std::cerr << "cilab: error: " << e.what() << "\n";
    return false;
  }
  return true;
}

int App::run() {
  settings_ = load_settings();
  if (opts_.scale > 0) settings_.ui_scale = opts_.scale;
  if (!opts_.theme.empty()) settings_.theme = opts_.theme;
  if (!opts_.palette.empty()) settings_.palette = opts_.palette;
  reload_presets();
  if (!start_state()) return 2;
  if (!init_window()) return 2;
  if (!opts_.script.empty()) script_.lines = read_script(opts_.script);
  int frames_done = 0;
  std::string screenshot_error;
  last_frame_start_ = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window_) && !quit_) {
    // Idle when nothing changes: wait for input unless the run is playing,
    // a command is pending, or a frame count is being measured.
    const bool running = runner_->playing() || runner_->busy();
    const bool interacting = edit_pending() || !key_queue_.empty() || ImGui::GetIO().MouseDown[0] ||
                             ImGui::GetIO().MouseDown[1];
    const bool busy = opts_.frames > 0 || script_.running() || running || interacting || anim_ ||
                      !deferred_releases_.empty();
    // Keys the last frame saw down that were already released: ImGui sees them up now.
    release_deferred_keys();
    if (running && !interacting && opts_.frames <= 0) {
      // The worker is computing and nobody is touching the window: redraws are
      // paced so the UI thread takes at most kUiDutyCycle of a core (the view
      // must never slow training); any input event wakes the loop at once.
      glfwWaitEventsTimeout(std::max(kMinFrameSeconds, last_frame_ms_ / 1000.0 * (1.0 / kUiDutyCycle - 1.0)));

    } else if (busy) {
      glfwPollEvents();
    } else {
      glfwWaitEventsTimeout(0.25);
    }
    poll_pending();
    step_animation_export();  // File > Export > Animation: the runs go to the next frame's iteration

    const auto t0 = std::chrono::steady_clock::now();
    apply_ui_scale();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (script_.active()) run_script_line();
    if (quit_) break;
    ImGui::NewFrame();
    pressed_since_frame_.clear();  // this frame saw them down
    frame();
    ImGui::Render();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    const ImVec4 clear = colour_vec(colors().window_bg);
    glClearColor(clear.x, clear.y, clear.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    export_pngs_after_render(fb_w, fb_h);
    capture_animation_after_render(fb_w, fb_h);
    ++frames_done;
    const bool last = opts_.frames > 0 && frames_done >= opts_.frames;
    if (!script_.screenshot.empty()) {
      glFinish();
      std::string err;
      if (!save_png(script_.screenshot, fb_w, fb_h, &err)) std::cerr << "cilab: " << err << "\n";
      script_.screenshot.clear();
    }
    if (last && !opts_.screenshot.empty()) {
      glFinish();
      if (!save_png(opts_.screenshot, fb_w, fb_h, &screenshot_error)) quit_ = true;
    }
    glfwSwapBuffers(window_);
    // Frame timing counts the driver's work too (a software rasteriser does it on
    // its own threads after the swap): the pacing above budgets real CPU time.
    if (opts_.frames > 0 || runner_->playing() || runner_->busy()) glFinish();
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
  save_settings(settings_to_save());
  if (script_.failures > 0) {
    std::cerr << "cilab: script: " << script_.failures << " expectation(s) failed\n";
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
  // --theme / --palette are checked here, where the names are known (views/common/theme.h).
  Theme theme;
  Palette palette;
  if (!opts.theme.empty() && !parse_theme(opts.theme, &theme)) {
    std::cerr << "cilab: error: --theme: unknown theme '" << opts.theme
              << "'; valid: " << theme_names() << "\n";
    return 2;
  }
  if (!opts.palette.empty() && !parse_palette(opts.palette, &palette)) {
    std::cerr << "cilab: error: --palette: unknown palette '" << opts.palette
              << "'; valid: " << palette_names() << "\n";
    return 2;
  }
  App app(opts);
  return app.run();
}

}  // namespace cilab
