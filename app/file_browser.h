// An in-app file browser (ImGui modal): folders first, then data files
// (.csv .tsv .txt .data .idx *ubyte* .gz), a path field, parent / home
// buttons. Used by the data panel's "Open file...".
#pragma once

#include <string>
#include <vector>

namespace cilab {

class FileBrowser {
 public:
  // Opens the popup on the next draw(), starting in `dir` (cwd if empty).
  void open(const std::string& dir = "");
  // Draws the modal if open; returns true on the frame a file is chosen (see chosen()).
  bool draw();
  const std::string& chosen() const { return chosen_; }

 private:
  void list_dir();
  bool request_open_ = false;
  std::string dir_;
  std::string chosen_;
  char path_buf_[1024] = {};
  struct Entry {
    std::string name;
    bool is_dir;
    unsigned long long size;
  };
  std::vector<Entry> entries_;
  std::string list_error_;
  bool show_all_ = false;
  int selected_ = -1;
};

}  // namespace cilab
