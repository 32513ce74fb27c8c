# hwcsum — the two commands for a fresh machine are `make demo` and `make test`.
#
#   make demo     setup, build, then the demo (no NIC needed)
#   make test     setup, build, every suite once (host suites under ASan +
#                 UBSan; long forms: the targets below); last line
#                 "N passed, N failed"
#   make check    the fast suites only (no QEMU), on the normal build
#   make asan     build and run the fast suites with ASan + UBSan
#   make bench    the benchmarks (tables, JSON and plots in build/bench/)
#   make kernel-6.12  the kernel checksum suite on the 6.12 tree as well, and
#                     the fou/udp_tunnel_nic reset race on a lockdep kernel
#   make qemu-full    the QEMU bypass suites with the bare driver's sessions,
#                     every GENEVE variant of the gateway against Linux,
#                     TSO on e1000/e1000e/virtio-net and the gateway
#                     segmenting a VM's TSO frames (about 5 min each)
#   make compare      the kernel-against-bypass matrix on every NIC model
#                     (docs/compare.md and docs/compare.png)
#   make tso-full     testpmd's UDP segmentation request over net_pcap,
#                     and its TSO onto net_tap
#   make ovs-full     Open vSwitch with mtu_request=9000 over net_pcap

BUILD      ?= build
ASAN_BUILD ?= build-asan
MESON_TEST  = meson test -C $(BUILD) --print-errorlogs --num-processes 2
# Suites kept out of `make test` for its 30-minute budget (own targets below),
# and testpmd's csum engine on its reduced matrix there (15 of the 64 flag
# sets; `make check` and `make asan` run all 64).
LONG_SUITES = --no-suite kernel-6.12-full --no-suite qemu-full --no-suite tso-full \
	--no-suite ovs-full
TEST_ENV    = CSUM_ENGINE_MATRIX=reduced
# UBSan only prints by default; a report must fail the test. The install
# suite checks where files go, not memory; the ovs suite runs Open vSwitch
# and the secondary suite DPDK's tools against testpmd, none instrumented:
# the normal build runs those three.
ASAN_TEST   = UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C $(ASAN_BUILD) --print-errorlogs --num-processes 2 \
	--no-suite install --no-suite ovs --no-suite secondary --no-suite tso-full \
	--no-suite ovs-full
# make test runs each test once. The host suites run on the ASan + UBSan
# build, whose run checks all that the normal build's would and more; the
# normal build runs what that one cannot: the QEMU guests (suite kernel:
# they boot its PMD and applications uninstrumented), ThreadSanitizer, the
# install check, Open vSwitch (suite ovs) and DPDK's multi-process tools
# (suite secondary). `make check` runs the host suites on the normal build.
NORMAL_ONLY = --suite kernel --suite tsan --suite install --suite ovs --suite secondary

.PHONY: all setup build demo test check asan asan-build bench kernel-6.12 qemu-full compare tso-full ovs-full clean

all: build

setup:
	devtools/setup.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD)

build: setup $(BUILD)/build.ninja
	ninja -C $(BUILD)

demo: build
	devtools/demo.sh $(BUILD)

# The guests, TSan and install on the normal build, then the host suites
# under ASan + UBSan: leaks and undefined behaviour fail `make test` too.
test: build asan-build
	@rm -f $(BUILD)/meson-logs/testlog.json $(ASAN_BUILD)/meson-logs/testlog.json
	-$(TEST_ENV) $(MESON_TEST) $(LONG_SUITES) $(NORMAL_ONLY)
	-$(TEST_ENV) $(ASAN_TEST)
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

# The checksum suite on linux-source-6.12 (tables in build/tests/kernel/csum-6.12/).
kernel-6.12: build
	@rm -f $(BUILD)/meson-logs/testlog.json
	-$(MESON_TEST) --suite kernel-6.12-full
	@devtools/test-summary.py $(BUILD)/meson-logs/testlog.json

# The QEMU bypass suites in full: the bare driver's sessions (the control)
# beside hwcsum's (tables in build/tests/qemu/full/), and the gateway
# against Linux's geneve in a guest over IPv4 too, with and without sums.
qemu-full: build
	@rm -f $(BUILD)/meson-logs/testlog.json
	-$(MESON_TEST) --suite qemu-full
	@devtools/test-summary.py $(BUILD)/meson-logs/testlog.json

# testpmd 22.11 asking UDP segmentation (`set port 1 gso on`) of a hwcsum
# port over net_pcap (tests/pmd/uso_testpmd.sh), and its TSO onto a hwcsum
# port over net_tap (tests/pmd/tso_tap.sh).
tso-full: build
	@rm -f $(BUILD)/meson-logs/testlog.json
	-$(MESON_TEST) --suite tso-full
	@devtools/test-summary.py $(BUILD)/meson-logs/testlog.json

# Jumbo frames through Open vSwitch: hwcsum over net_pcap on live veths
# with mtu_request=9000 (tests/ovs/jumbo.sh, about a minute).
ovs-full: build
	@rm -f $(BUILD)/meson-logs/testlog.json
	-$(MESON_TEST) --suite ovs-full
	@devtools/test-summary.py $(BUILD)/meson-logs/testlog.json

# Linux against hwcsum on virtio-net, e1000, e1000e and rtl8139, the full
# cell set (about 25 min; progress every 10 s): docs/compare.md and .png.
compare: build
	devtools/compare.sh $(BUILD) full

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
