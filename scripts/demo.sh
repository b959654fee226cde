#!/usr/bin/env bash
# demo.sh: a fresh machine's whole path to a first result (make demo):
# install packages, start libvirt, build vbed, check the host, build the
# guest image (once; cached), run the quick scenario and write its report.
# About 10 minutes on a 2-core machine without KVM, most of it the guests
# (8 min 45 s on 2026-12-04 with the packages already installed and an
# empty image cache).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "installing packages (scripts/install-deps.sh)"
bash scripts/install-deps.sh
step "starting virtlogd and libvirtd (scripts/start-daemons.sh)"
bash scripts/start-daemons.sh
step "building vbed"
make
step "what this host offers (vbed doctor)"
./vbed doctor || true
step "the guest image (vbed image build; cached after the first time)"
./vbed image build
step "the quick scenario (vbed run scenarios/quickstart.ini)"
./vbed run scenarios/quickstart.ini
results=$(ls -td results/*-quickstart/ | head -n 1)
results=${results%/}
step "the report (vbed report $results)"
./vbed report "$results"
echo
echo "open $results/report.html in a browser for the plots"
