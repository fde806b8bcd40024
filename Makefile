# xcbench — top-level build. Each room (firmware/, host/, web/) has its own
# Makefile; this one only delegates, installs what a fresh Debian 12 lacks, and
# runs the whole test suite with one summary line.
#
#   make          build everything (installs missing packages first)
#   make test     build, then run every test (tests/run-all)
#   make run      the whole appliance on this machine (see README.md)
#   make bench    the appliance's own benchmarks (bench/)
#   make deps     install missing apt/npm packages only

.PHONY: all deps firmware host web test unit run bench clean

all: deps
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

test: all
	$(MAKE) unit
	tests/run-all

run: all
	tools/run-appliance.sh

bench: all
	bench/run-all

clean:
	$(MAKE) -C firmware clean
	$(MAKE) -C host clean
	$(MAKE) -C web clean
	rm -rf tests/out
