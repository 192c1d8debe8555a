// process.h - header-only helper shared by the end-to-end tests (tests/support/cli_harness.h,
// tests/support/gui_harness.h): runs a shell command with stdout and stderr redirected to
// files and returns the exit code and both texts.
//
//     const Proc p = run_captured("cilab run kmeans", "x_out.txt", "x_err.txt");
//
// ctest runs the cases in parallel in one directory: give every case its own file names.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace cilab::test_support {

// Exit code (-1 when the process did not exit normally) and captured output of one process.
struct Proc {
  int code;
  std::string out, err;
};

// The whole content of a file ("" when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs `cmd` through std::system with stdout to out_file and stderr to err_file.
inline Proc run_captured(const std::string& cmd, const std::string& out_file, const std::string& err_file) {
  const int rc = std::system((cmd + " >" + out_file + " 2>" + err_file).c_str());
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(out_file), slurp(err_file)};
}

}  // namespace cilab::test_support
