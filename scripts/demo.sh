#!/usr/bin/env bash
# demo.sh: a fresh machine's whole path to a first result (make demo):
# install packages, start libvirt, build vbed, check the host, and run the
# quick scenario.
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
step "the quick scenario's plan (vbed run --dry-run scenarios/quickstart.ini)"
./vbed run --dry-run scenarios/quickstart.ini
