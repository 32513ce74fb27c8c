# hwcsum — the two commands for a fresh machine are `make demo` and `make test`.
#
#   make demo     setup, build, then the demo (no NIC needed)
#   make test     setup, build, every suite; last line "N passed, N failed"
#   make check    the fast suites only (no QEMU)
#   make asan     build and run the fast suites with ASan + UBSan
#   make bench    the benchmarks (tables, JSON and plots in build/bench/)

BUILD      ?= build
ASAN_BUILD ?= build-asan
MESON_TEST  = meson test -C $(BUILD) --print-errorlogs --num-processes 2
# UBSan only prints by default; a report must fail the test.
ASAN_TEST   = UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C $(ASAN_BUILD) --print-errorlogs --num-processes 2

.PHONY: all setup build demo test check asan asan-build bench clean

all: build

setup:
	devtools/setup.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD)

build: setup $(BUILD)/build.ninja
	ninja -C $(BUILD)

demo: build
	devtools/demo.sh $(BUILD)

# Every suite on the normal build, then the non-QEMU suites again under
# ASan + UBSan: leaks and undefined behaviour fail `make test` too.
test: build asan-build
	@rm -f $(BUILD)/meson-logs/testlog.json $(ASAN_BUILD)/meson-logs/testlog.json
	-$(MESON_TEST)
	-$(ASAN_TEST)
	@devtools/test-summary.py $(BUILD)/meson-logs/testlog.json asan:$(ASAN_BUILD)/meson-logs/testlog.json

check: build
	@rm -f $(BUILD)/meson-logs/testlog.json
	-$(MESON_TEST) --no-suite kernel
	@devtools/test-summary.py $(BUILD)/meson-logs/testlog.json

$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false -Dkernel_tests=false

asan-build: setup $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

asan: asan-build
	@rm -f $(ASAN_BUILD)/meson-logs/testlog.json
	-$(ASAN_TEST)
	@devtools/test-summary.py $(ASAN_BUILD)/meson-logs/testlog.json

bench: build
	devtools/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
