// An in-app file browser (ImGui modal): folders first, then data files
// (.csv .tsv .txt .data .idx *ubyte* .gz), presets (.json) and sessions
// (.cilab), a path field, parent / home
// buttons. Used by the data panel's "Open file...". Reopens in the folder
// last browsed.
#pragma once

#include <string>
#include <vector>

namespace cilab {

class FileBrowser {
 public:
  // Opens the popup on the next draw(), starting in `dir`; if empty, in the
  // folder last browsed (last_folder()), else the working folder.
  void open(const std::string& dir = "");
  // The folder the dialog was in when it last closed (a file chosen or not);
  // the app stores it in Settings so the next session opens there too.
  const std::string& last_folder() const { return last_folder_; }
  void set_last_folder(const std::string& dir) { last_folder_ = dir; }
  // Draws the modal if open; returns true on the frame a file is chosen (see chosen()).
  bool draw();
  const std::string& chosen() const { return chosen_; }
  // True while the dialog is shown; folder() is the folder it lists.
  bool is_open() const { return shown_; }
  const std::string& folder() const { return dir_; }

 private:
  void list_dir();
  bool request_open_ = false;
  bool shown_ = false;
  std::string dir_;
  std::string last_folder_;
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
