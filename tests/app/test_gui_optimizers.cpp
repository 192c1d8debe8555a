// The optimizer race in the real app under a (virtual) display: a scripted
// lecture (momentum vs GD on an ill-conditioned quadratic, Adam vs SGD on
// Rosenbrock, SGD on least squares, a diverging step rewound and halved, a
// user-typed f(x, y)), each scene saved as a screenshot that must not be blank.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "tests/support/gui_harness.h"

using namespace cilab::test_support;

TEST_CASE("gui optimizers: a scripted lecture - quadratic, Rosenbrock, least squares, divergence and rewind, custom f") {
  std::ofstream script("gui_opt_session.txt");
  script << R"(# the optimizer race, as a lecturer would show it
module optimizers
expect module optimizers
wait 2
set function=quadratic
set kappa=20
set optimizer=gd
set lr=0.09
set race_momentum=true
set race_adam=false
set race_sgd=false
expect no-error
step 60
expect iteration 60
settle
screenshot gui_opt_quadratic.png
wait 1
substep
wait 2
screenshot gui_opt_substep.png
wait 1
# too large a step: GD diverges (2/L = 0.1)
set lr=0.12
step 400
settle
expect status diverged
screenshot gui_opt_diverged.png
wait 1
# rewind and halve, as the view's button does
seek 10
set lr=0.06
expect param lr=0.06
step 50
expect no-error
# Adam against SGD on Rosenbrock
set function=rosenbrock
set optimizer=adam
set lr=0.05
set race_sgd=true
set race_momentum=false
set noise=0.5
step 300
settle
expect no-error
screenshot gui_opt_rosenbrock.png
wait 1
# SGD's noise on a real regression problem
set function=least_squares
set optimizer=sgd
set lr=0.05
set batch=8
set race_gd=true
set race_adam=false
step 200
settle
expect no-error
screenshot gui_opt_lsq.png
wait 1
# a user-typed function: gradients by central differences
set function=custom
set expr=x^2 + 10*y^2 + sin(3*x)
expect no-error
step 40
settle
screenshot gui_opt_custom.png
wait 1
set expr=x^^2
expect error
quit
)";
  script.close();
  const Proc p = run_gui("--frames 100000 --script gui_opt_session.txt", "gui_opt_end.png");
  INFO("stdout: " << p.out);
  INFO("stderr: " << p.err);
  CHECK(p.code == 0);
  CHECK(p.err.find("script line") == std::string::npos);
  for (const char* png : {"gui_opt_quadratic.png", "gui_opt_substep.png", "gui_opt_diverged.png",
                          "gui_opt_rosenbrock.png", "gui_opt_lsq.png", "gui_opt_custom.png"}) {
    INFO(png);
    CHECK(distinct_colours(png) > 200);  // contours, heatmap, paths, table: a rich picture
  }
}

TEST_CASE("gui optimizers: eight 10 000-point races render and report frame times") {
  const Proc p = run_gui("--module optimizers --set function=rosenbrock --set tol=0 --set race_gd=true "
                         "--set race_sgd=true --set race_momentum=true --set race_nesterov=true --set race_adagrad=true "
                         "--set race_rmsprop=true --set race_adam=true --set race_adamw=true --steps 10000 --frames 20",
                         "gui_opt_long.png");
  INFO("stderr: " << p.err);
  REQUIRE(p.code == 0);
  CHECK(p.out.find("frames 20 median_ms") != std::string::npos);
  CHECK(distinct_colours("gui_opt_long.png") > 200);
}
