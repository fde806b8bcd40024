# xcbench — top-level build. Each room (firmware/, host/, web/) has its own
# Makefile; this one only delegates, installs what a fresh Debian 12 lacks, and
# runs the whole test suite with one summary line.
#
#   make          build everything (builds only: a missing tool fails the build)
#   make test     install what is missing, build, then run every test (tests/run-all)
#   make run      the whole appliance on this machine (see README.md)
#   make bench    the appliance's own benchmarks (bench/)
#   make deps     install missing apt/npm packages only
#
# tools/deps.sh returns at once when nothing is missing (one dpkg query), so
# the commands a new user types (test, run, bench) call it every time; a plain
# `make` never touches the package manager.

.PHONY: all deps firmware host web test unit run bench clean

all:
	$(MAKE) firmware host web

deps:
	@tools/deps.sh

firmware:
	$(MAKE) -C firmware

host:
	$(MAKE) -C host

web:
	$(MAKE) -C web

# Unit-test binaries land in */build/tests/; tests/run-all runs them and every
# tests/t-*.sh script, and prints "N passed, N failed, N skipped".
unit:
	$(MAKE) -C firmware tests
	$(MAKE) -C host tests

# make test builds with a job per CPU: one file at a time, the build took
# ~2.5 of CI's 32 minutes on its 2 cores (the daemon, its two sanitizer
# builds and each unit test are one compiler run each, side by side here).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: deps
	$(MAKE) -j$(JOBS) all
	$(MAKE) -j$(JOBS) unit
	tools/check-layering
	tests/run-all

run: deps
	$(MAKE) all
	tools/run-appliance.sh

bench: deps
	$(MAKE) all
	bench/run-all

clean:
	$(MAKE) -C firmware clean
	$(MAKE) -C host clean
	$(MAKE) -C web clean
	rm -rf tests/out
