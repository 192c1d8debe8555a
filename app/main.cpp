// cilab: the lab's single binary - the GUI, and the headless CLI (list, run).
#include "algorithms/core/parallel.h"
#include "app/app.h"
#include "app/headless/cli.h"
#include "app/script.h"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
  // The --script commands, from the engine's own table (the app, not the headless CLI, runs them).
  if (argc == 2 && std::string(argv[1]) == "--script-help") {
    std::cout << cilab::script_help();
    return 0;
  }
  const cilab::CliResult r = cilab::run_cli(argc, argv, std::cout, std::cerr);
  if (!r.open_gui) return r.exit_code;
  if (r.gui.threads > 0) cilab::set_max_threads(r.gui.threads);  // --threads: the training loops' bound
  return cilab::run_gui(r.gui);
}
