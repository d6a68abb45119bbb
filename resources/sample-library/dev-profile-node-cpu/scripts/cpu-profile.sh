#!/bin/sh
# Run a Node command with the V8 CPU profiler on; profiles land in ./profiles/.
# Usage: cpu-profile.sh node app.js [args...]
set -eu
[ "${1:-}" = node ] || { echo "usage: cpu-profile.sh node <script> [args...]" >&2; exit 2; }
shift
mkdir -p profiles
exec node --cpu-prof --cpu-prof-dir=profiles "$@"
