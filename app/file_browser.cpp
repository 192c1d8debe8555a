#include "app/file_browser.h"
#include "views/common/theme.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace cilab {
namespace fs = std::filesystem;

namespace {

bool looks_like_data(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* ext : {".csv", ".tsv", ".txt", ".data", ".idx", ".gz", ".dat", ".json", ".cilab"}) {
    const std::string e = ext;
    if (lower.size() >= e.size() && lower.compare(lower.size() - e.size(), e.size(), e) == 0) return true;
  }
  return lower.find("ubyte") != std::string::npos;
}

std::string human_size(unsigned long long b) {
  char buf[32];
  if (b < 1024) std::snprintf(buf, sizeof buf, "%llu B", b);
  else if (b < (1ull << 20)) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  else if (b < (1ull << 30)) std::snprintf(buf, sizeof buf, "%.1f MiB", b / 1048576.0);
  else std::snprintf(buf, sizeof buf, "%.1f GiB", b / 1073741824.0);
  return buf;
}

}  // namespace

void FileBrowser::open(const std::string& dir) {
  std::error_code ec;
  dir_ = dir;
  if (dir_.empty() && !last_folder_.empty() && fs::is_directory(last_folder_, ec)) dir_ = last_folder_;
  if (dir_.empty()) dir_ = fs::current_path(ec).string();
  request_open_ = true;
  selected_ = -1;
  list_dir();
}

void FileBrowser::list_dir() {
  entries_.clear();
  list_error_.clear();
  std::snprintf(path_buf_, sizeof path_buf_, "%s", dir_.c_str());
  std::error_code ec;
  fs::directory_iterator it(dir_, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    list_error_ = "cannot list " + dir_ + ": " + ec.message();
    return;
  }
  for (const fs::directory_entry& e : it) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code ec2;
    const bool is_dir = e.is_directory(ec2);
    if (!is_dir && !show_all_ && !looks_like_data(name)) continue;
    const unsigned long long size = is_dir ? 0 : static_cast<unsigned long long>(e.file_size(ec2));
    entries_.push_back({name, is_dir, ec2 ? 0ull : size});
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    if (a.is_dir != b.is_dir) return a.is_dir;
    return a.name < b.name;
  });
}

bool FileBrowser::draw() {
  bool picked = false;
  if (request_open_) {
    ImGui::OpenPopup("Open data file");
    request_open_ = false;
  }
  const ImVec2 center = ImGui::GetMainViewport()->GetCenter();
  ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 40, ImGui::GetFontSize() * 28), ImGuiCond_Appearing);
  shown_ = ImGui::BeginPopupModal("Open data file", nullptr);
  if (shown_) {
    bool closed = false;
    auto close = [&closed] {
      closed = true;
      ImGui::CloseCurrentPopup();
    };
    if (ImGui::Button("Up")) {
      dir_ = fs::path(dir_).parent_path().string();
      if (dir_.empty()) dir_ = "/";
      list_dir();
    }
    ImGui::SameLine();
    if (ImGui::Button("Home")) {
      if (const char* h = std::getenv("HOME")) dir_ = h;
      list_dir();
    }
    ImGui::SameLine();
    if (ImGui::Button("Fashion-MNIST folder")) {
      dir_ = "/usr/share/datasets/fashion-mnist";
      list_dir();
    }
    ImGui::SameLine();
    if (ImGui::Checkbox("All files", &show_all_)) list_dir();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputText("##path", path_buf_, sizeof path_buf_, ImGuiInputTextFlags_EnterReturnsTrue)) {
      std::error_code ec;
      if (fs::is_directory(path_buf_, ec)) {
        dir_ = path_buf_;
        list_dir();
      } else {
        chosen_ = path_buf_;
        picked = true;
        close();
      }
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Type a folder or a file path and press Enter.\nCSV/TSV (header optional, a 'label' "
                        "column or a text last column gives classes), IDX (.gz or raw);\nfor the text modules a "
                        "text file (documents separated by blank lines) or a folder of .txt files.");
    if (!list_error_.empty())
      ImGui::TextColored(colour_vec(colors().error), "%s", list_error_.c_str());
    const float footer = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
    if (ImGui::BeginChild("entries", ImVec2(0, -footer), true)) {
      for (int i = 0; i < static_cast<int>(entries_.size()); ++i) {
        const Entry& e = entries_[i];
        const std::string label = (e.is_dir ? "[dir]  " : "       ") + e.name;
        if (ImGui::Selectable(label.c_str(), selected_ == i, ImGuiSelectableFlags_AllowDoubleClick)) {
          selected_ = i;
          if (ImGui::IsMouseDoubleClicked(0)) {
            if (e.is_dir) {
              dir_ = (fs::path(dir_) / e.name).string();
              list_dir();
              selected_ = -1;
              break;
            }
            chosen_ = (fs::path(dir_) / e.name).string();
            picked = true;
            close();
          }
        }
        if (!e.is_dir) {
          ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::GetFontSize() * 6);
          ImGui::TextDisabled("%s", human_size(e.size).c_str());
        }
      }
    }
    ImGui::EndChild();
    const bool can_open = selected_ >= 0 && selected_ < static_cast<int>(entries_.size());
    if (!can_open) ImGui::BeginDisabled();
    if (ImGui::Button("Open") && can_open) {
      const Entry& e = entries_[selected_];
      if (e.is_dir) {
        dir_ = (fs::path(dir_) / e.name).string();
        list_dir();
        selected_ = -1;
      } else {
        chosen_ = (fs::path(dir_) / e.name).string();
        picked = true;
        close();
      }
    }
    if (!can_open) ImGui::EndDisabled();
    ImGui::SameLine();
    // A folder is data too: the text modules read its .txt files, one document each.
    if (ImGui::Button("Open this folder")) {
      chosen_ = dir_;
      picked = true;
      close();
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Open the folder shown as data: for plsa, word2vec and glove, its .txt files are\n"
                        "the documents (one each, by name; subfolders ignored).");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) close();
    ImGui::EndPopup();
    if (closed) {
      std::error_code dec;
      const std::string chosen_dir = !picked ? std::string()
                                     : fs::is_directory(chosen_, dec) ? chosen_
                                                                      : fs::path(chosen_).parent_path().string();
      last_folder_ = chosen_dir.empty() ? dir_ : chosen_dir;
    }
  }
  return picked;
}

}  // namespace cilab
