// cli_harness.h - header-only helpers for the CLI tests (tests/app/test_cli*.cpp): run the CLI
// in-process through run_cli, or the real binary through the shell, and split its CSV output.
//
//     const CliRun r = cli({"run", "kmeans", "--steps", "5"});   // in-process
//     const CliRun e = shell(bin + " run kmeans", "my_case");    // my_case_out.txt, my_case_err.txt
//     for (const std::string& row : lines(r.out)) split(row, ',');
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "app/headless/cli.h"
#include "tests/support/process.h"

#include <doctest/doctest.h>

namespace cilab::test_support {

// Exit code, stdout, stderr of one CLI call, and whether it asked to open the GUI.
struct CliRun {
  int code;
  std::string out, err;
  bool gui = false;
};

// Runs the CLI in-process with argv = {"cilab", args...}.
inline CliRun cli(std::vector<std::string> args) {
  args.insert(args.begin(), "cilab");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const CliResult r = run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
  return {r.exit_code, out.str(), err.str(), r.open_gui};
}

// The CLI's rule for bad input, checked on the in-process call `args`: exit status 2, nothing on
// stdout, no window, and exactly one line on stderr, "cilab: error: ...", that holds `expect`
// (what is wrong, where: the parameter or file; "" when any message will do).
inline void check_refused(const std::vector<std::string>& args, const std::string& expect = "");

// The lines of a text, without their '\n'.
inline std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// The fields of s between the delimiters d (n delimiters give n + 1 fields, empty ones kept).
inline std::vector<std::string> split(const std::string& s, char d) {
  std::vector<std::string> v;
  std::string cur;
  for (char c : s) {
    if (c == d) {
      v.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  v.push_back(cur);
  return v;
}

// Runs a shell command; returns exit status and captures stdout and stderr separately, in
// <stem>_out.txt and <stem>_err.txt (one stem per test file: ctest runs cases in parallel).
inline CliRun shell(const std::string& cmd, const std::string& stem) {
  const Proc p = run_captured(cmd, stem + "_out.txt", stem + "_err.txt");
  return {p.code, p.out, p.err, false};
}

inline void check_refused(const std::vector<std::string>& args, const std::string& expect) {
  const CliRun r = cli(args);
  std::string joined;
  for (const std::string& a : args) joined += a + " ";
  INFO("args: ", joined, " stderr: ", r.err);
  CHECK(r.code == 2);
  CHECK_FALSE(r.gui);
  CHECK(r.out.empty());
  CHECK(lines(r.err).size() == 1);
  CHECK(r.err.rfind("cilab: error: ", 0) == 0);
  CHECK(r.err.find(expect) != std::string::npos);
}

}  // namespace cilab::test_support
