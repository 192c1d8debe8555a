// cilab: the lab's single binary - the GUI, and the headless CLI (list, run).
#include "app/app.h"
#include "app/headless/cli.h"

#include <iostream>

int main(int argc, char** argv) {
  const cilab::CliResult r = cilab::run_cli(argc, argv, std::cout, std::cerr);
  if (!r.open_gui) return r.exit_code;
  return cilab::run_gui(r.gui);
}
