// The --script engine's command table: `cilab --script-help` is generated from it (every
// command and expectation, with its arguments), and a script line the table does not know
// fails naming the known commands (exit status 1, the lab closes normally).
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "cilab_test_paths.h"
#include "tests/support/cli_harness.h"
#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("script table: --script-help lists the commands and expectations with their arguments, exit 0") {
  const CliRun r = shell(std::string(CILAB_BINARY) + " --script-help", "script_help");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  for (const char* line : {"  wait N ", "  settle ", "  step [N] ", "  set KEY=VALUE ", "  click TARGET [ctrl] ",
                           "  expect WHAT ... ", "  expect restarting ", "  expect plots-min-height N ",
                           "  expect text TEXT ", "  expect metric NAME V | NAME < V | NAME > V ", "  quit "})
    CHECK_MESSAGE(r.out.find(line) != std::string::npos, "missing: '" << line << "'");
  // One line per command: the help has a line for every name the error below lists.
  const CliRun help = shell(std::string(CILAB_BINARY) + " --help", "script_help_main");
  CHECK(help.out.find("--script-help") != std::string::npos);
}

TEST_CASE("script table: an unknown command or expectation fails naming the known ones, the rest runs") {
  std::ofstream("script_table_bad.txt") << "wait 2\nbogus-command 3\nexpect bogus\nstep 2\nexpect iteration 2\nquit\n";
  const Proc p = run_gui("--module kmeans --frames 100000 --script script_table_bad.txt", "script_table_bad.png");
  INFO("stderr: " << p.err);
  CHECK(p.code == 1);  // two expectations failed
  CHECK(p.err.find("script line 2: unknown command 'bogus-command'; known: wait, wait-file, wait-text, screenshot-now, idle, drain, settle") !=
        std::string::npos);
  CHECK(p.err.find("script line 3: unknown expectation 'bogus'; known: restarting, iteration, status") !=
        std::string::npos);
  CHECK(p.err.find("script line 5") == std::string::npos);  // the lines after them ran
  CHECK(p.err.find("2 expectation(s) failed") != std::string::npos);
}
