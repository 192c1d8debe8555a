# CILab: the README's two commands are `make run` and `make test`.
#   make run        install missing Debian packages, build (Release), start the lab
#   make test       the same set-up, then build and run the whole suite through ctest
#   make test-asan  the suite again in an ASan + UBSan build (CI runs it too)
#   make bench      benchmarks beside scikit-learn / numpy / PyTorch, same invocation
#   make soak       the hour-long soak run of bench/run_soak.sh (peak RSS at 1, 10, 60 min)
#   make install    build the app and install it under PREFIX (/usr/local; DESTDIR honoured)
#   make deb        a Debian package of the app for other lab PCs: build/cilab_VERSION_ARCH.deb
#   make clean

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
ARGS       ?=

# Debian packages the build, the tests and the benchmarks need.
PACKAGES := build-essential cmake ninja-build pkg-config ccache \
            libimgui-dev libglfw3-dev libgl-dev libeigen3-dev doctest-dev libstb-dev zlib1g-dev libmuparser-dev nlohmann-json3-dev \
            fonts-dejavu-core dataset-fashion-mnist fortunes dict-gcide wordnet-base \
            xvfb xauth xdotool libgl1-mesa-dri python3
# The benchmarks' references: scikit-learn / numpy / PyTorch, on OpenBLAS (Debian's
# default libblas is the slow reference BLAS, which would flatter CILab's ratios).
BENCH_PACKAGES := python3-numpy python3-sklearn python3-torch libopenblas0-pthread python3-gensim

# ccache is one of PACKAGES, installed by `deps` before any configure: always use it,
# so every call configures identically (a launcher added on a later call would
# rebuild everything). Warnings in the project's own code fail the build.
LAUNCHER    := -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
# Paths under the checkout are hashed relative to it: clones share the cache.
export CCACHE_BASEDIR := $(CURDIR)
# With -g (the RelWithDebInfo ASan build) ccache also hashes the working directory,
# which would miss in every fresh clone; leave it out. The only cost: an object
# taken from another checkout's build names that checkout's directory in its debug
# info (source paths in gdb and sanitizer reports); code and line numbers are the same.
export CCACHE_NOHASHDIR := 1
CMAKE_FLAGS := -G Ninja -DCMAKE_BUILD_TYPE=Release -DCILAB_WERROR=ON $(LAUNCHER)

.PHONY: run test test-asan bench soak deps deps-bench build build-app build-asan clean screenshot \
        install deb

run: build-app
	./$(BUILD)/cilab $(ARGS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# -g1: line tables only (a sanitizer's stack trace needs no more), a faster build than -g.
# The install checks test packaging, not memory: they run in `make test` only.
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCILAB_SANITIZE=ON \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCILAB_WERROR=ON $(LAUNCHER)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -E 'bench|^install/'

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

# The app alone, for make run (its ~120 objects; the tests build with make test).
build-app: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target cilab

# Installs only what is missing (dpkg -s), so a prepared machine skips apt entirely.
deps-bench:
	@$(MAKE) --no-print-directory deps PACKAGES="$(BENCH_PACKAGES)"

deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Every bench/run_*.sh, in name order, each given the build directory as $1; the
# CMake target `benches` builds every bench/*.cpp executable and the app they run.
BENCH_SCRIPTS := $(sort $(wildcard bench/run_*.sh))

bench: build deps-bench
	cmake --build $(BUILD) -j $(JOBS) --target benches
	set -e; for s in $(BENCH_SCRIPTS); do echo "== $$s"; ./$$s $(BUILD); done

# The soak benchmark for an hour (make bench runs its 5-minute default): the vae
# in the window under xvfb, scripted, with its peak RSS against the history budget.
soak: build-app
	./bench/run_soak.sh $(BUILD) 60

# Regenerates the README screenshots with the app itself.
screenshot: build-app
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot.png --dataset blobs:n=1500,centers=5,noise=1.6,seed=4 \
	  --set k=5 --set init=random --seed 2 --steps 2 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-gmm.png --module gmm --dataset faithful \
	  --set compare_kmeans=true --steps 3 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-optimizers.png --module optimizers \
	  --set race_nesterov=true --steps 400 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-mlp.png --module mlp \
	  --dataset spirals:n=400,noise=0.05 --set layers=32,32 --set activation=tanh --steps 1500 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-vae.png --module vae \
	  --dataset fashion-mnist:n=10000 --steps 1500 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-autoencoder.png --module autoencoder \
	  --dataset fashion-mnist:n=10000 --set linear=true --set m=10 --set lr=0.003 --steps 1500 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-completion.png --module completion \
	  --dataset photo-holes:missing=0.7 --set method=svt --steps 40 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-plsa.png --module plsa --dataset fortunes \
	  --set k=3 --steps 25 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-word2vec.png --module word2vec \
	  --dataset gcide:tokens=2000000 --set probe=king,water,music --steps 150 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-convolution.png --preset convolution-edges \
	  --steps 1500 --frames 12
	./tests/gui_smoke.sh ./$(BUILD)/cilab assets/screenshot-gan.png --module gan \
	  --set target=ring8 --set loss=minimax --steps 3000 --frames 12
	printf 'wait 3\nstep 300\ndrain\nkey 2\nwait 10\nscreenshot-now assets/screenshot-cnn.png\nquit\n' > $(BUILD)/screenshot-cnn.txt
	./tests/gui_smoke.sh ./$(BUILD)/cilab $(BUILD)/screenshot-cnn-exit.png --module cnn --frames 100000 \
	  --script $(BUILD)/screenshot-cnn.txt

# Installing on a lab PC (README): the app, its assets (share/cilab/assets), a desktop
# entry, an icon and the man page generated from cilab --help (CMake's install rules,
# GNUInstallDirs). Installs with sudo when PREFIX (or DESTDIR) is not writable; the
# build itself stays the invoking user's. Built for this machine's CPU, like make run.
PREFIX  ?= /usr/local
DESTDIR ?=

install: deps
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target cilab cilab_man
	@d="$(DESTDIR)$(PREFIX)"; while [ ! -e "$$d" ]; do d=$$(dirname "$$d"); done; \
	  s=; [ -w "$$d" ] || s="$(SUDO)"; \
	  echo "$$s env DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)"; \
	  $$s env DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

# The Debian package (CPack's DEB generator, Depends computed by dpkg-shlibdeps): built in
# its own directory without -march=native (CILAB_NATIVE=OFF), so it runs on any x86-64
# lab PC, with no tests; the .deb is copied into build/. Install it with
# `sudo apt install ./build/cilab_*.deb` (or dpkg -i, then apt-get -f install).
DEB_BUILD ?= build-deb

deb: deps
	cmake -S . -B $(DEB_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCILAB_NATIVE=OFF -DBUILD_TESTING=OFF \
	  -DCILAB_WERROR=ON $(LAUNCHER)
	cmake --build $(DEB_BUILD) -j $(JOBS)
	cd $(DEB_BUILD) && cpack -G DEB
	mkdir -p $(BUILD) && cp $(DEB_BUILD)/cilab_*.deb $(BUILD)/
	@ls -l $(BUILD)/cilab_*.deb

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD) $(DEB_BUILD)

# ---------------------------------------------------------------------------
# Hardened input (issue 14): libFuzzer targets and ThreadSanitizer.
#   make test-fuzz  each parser's fuzz target for FUZZ_TEST_SECONDS (45 s) from its seed
#                   corpus (tests/fuzz/corpus/<target>/ + tests/data/files/bad/); fails on a finding
#   make fuzz       the same for FUZZ_SECONDS (600 s) each, keeping the working corpus in
#                   build-fuzz/corpus/ between runs; findings land in build-fuzz/findings/
#   make test-tsan  the runner and app tests in a ThreadSanitizer build (build-tsan)
FUZZ_BUILD        ?= build-fuzz
FUZZ_SECONDS      ?= 600
FUZZ_TEST_SECONDS ?= 45
FUZZ_TARGETS      := fuzz_csv fuzz_idx fuzz_image fuzz_lab_file fuzz_ratings fuzz_text
# clang++ and its libFuzzer / sanitizer runtimes (libclang_rt.fuzzer).
FUZZ_PACKAGES     := clang libclang-rt-dev

.PHONY: fuzz test-fuzz fuzz-build deps-fuzz

deps-fuzz:
	@$(MAKE) --no-print-directory deps PACKAGES="$(PACKAGES) $(FUZZ_PACKAGES)"

fuzz-build: deps-fuzz
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCILAB_FUZZ=ON -DCILAB_WERROR=ON $(LAUNCHER)
	cmake --build $(FUZZ_BUILD) -j $(JOBS)

test-fuzz: fuzz-build
	./tests/fuzz/run_fuzz.sh $(FUZZ_BUILD) $(FUZZ_TEST_SECONDS) test $(FUZZ_TARGETS)

fuzz: fuzz-build
	./tests/fuzz/run_fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) long $(FUZZ_TARGETS)

# ThreadSanitizer: the runner, app and views tests (jobs) in build-tsan (gcc, RelWithDebInfo,
# no -march=native). tests/tsan.supp is for reports inside uninstrumented system libraries
# only (Mesa's llvmpipe, libgomp), never our own code; it is empty so far. A whole build of
# the app under TSan takes long: on a shared 2-core machine over an hour.
TSAN_BUILD   ?= build-tsan
TSAN_TARGETS := cilab cilab_tests_app cilab_tests_views
TSAN_TESTS   ?= ^(app|views)/

.PHONY: test-tsan

test-tsan: deps
	cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCILAB_NATIVE=OFF \
	  -DCILAB_WERROR=ON -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" \
	  $(LAUNCHER)
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target $(TSAN_TARGETS)
	cd $(TSAN_BUILD) && \
	  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	  ctest --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)'
