#!/usr/bin/env bash
# Gradescope's setup.sh for one lab's autograder (built into the zip by
# tests/grader/gradescope/package.py, which writes the lab's name below). It runs
# once, as root, when Gradescope builds the autograder image, with the zip
# unpacked in /autograder/source:
#
# 1. installs what the base image lacks (Debian/Ubuntu packages: a C++
#    compiler, CMake and Ninja, GoogleTest, zlib, bubblewrap for the sandbox);
# 2. makes sure CMake is 3.24 or newer (the course's minimum; Ubuntu 22.04
#    ships 3.22): an older one is replaced by PyPI's cmake package;
# 3. grades the untouched skeleton once, as a submission is graded, so that
#    the course's test programs and the worker's build are already there and
#    each submission compiles only its own files (a cold build of lab 01 is
#    about 195 s on 2 cores, a warm one 28 s).
#
# AUTOGRADER_ROOT (default /autograder) moves the layout, to try it elsewhere
# (tests/project/test_run_autograder.py); SETUP_NO_INSTALL=1 checks for the
# tools instead of installing them (a machine you do not administer).
set -euo pipefail
LAB="@LAB@"
root="${AUTOGRADER_ROOT:-/autograder}"
source="$root/source"

missing=()
command -v python3 >/dev/null || missing+=(python3 python3-pip)
command -v g++ >/dev/null || missing+=(g++)
command -v cmake >/dev/null || missing+=(cmake)
command -v ninja >/dev/null || missing+=(ninja-build)
command -v bwrap >/dev/null || missing+=(bubblewrap)
[ -f /usr/include/gtest/gtest.h ] || missing+=(libgtest-dev)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "${SETUP_NO_INSTALL:-0}" = 1 ]; then
    echo "setup.sh: missing packages: ${missing[*]}" >&2
    exit 1
  fi
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

cmake_ok() {  # cmake --version is at least 3.24
  python3 - "$(cmake --version | head -1)" <<'PY'
import re, sys
found = re.search(r"(\d+)\.(\d+)", sys.argv[1])
sys.exit(0 if found and (int(found[1]), int(found[2])) >= (3, 24) else 1)
PY
}
if ! cmake_ok; then
  if [ "${SETUP_NO_INSTALL:-0}" = 1 ]; then
    echo "setup.sh: $(cmake --version | head -1) is older than 3.24, which the course needs" >&2
    exit 1
  fi
  command -v pip3 >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip
  # /usr/local/bin comes before /usr/bin on PATH: the new cmake wins.
  pip3 install --no-cache-dir 'cmake>=3.24,<4.3' || pip3 install --no-cache-dir --break-system-packages 'cmake>=3.24,<4.3'
  hash -r
  cmake_ok || { echo "setup.sh: still $(cmake --version | head -1) after installing cmake from PyPI" >&2; exit 1; }
fi

# The warm build: the skeleton graded as a submission, in the build directory
# run_autograder uses. Its tests fail (it is the skeleton), which is no error;
# grading that stops (status 2) or a skeleton that does not compile stops the
# setup, so a broken package shows when it is uploaded, not on a submission.
warm="$(mktemp -d)"
trap 'rm -rf "$warm"' EXIT
mkdir -p "$warm/submission/labs/$LAB"
while IFS= read -r name; do
  [ -n "$name" ] && cp "$source/labs/$LAB/$name" "$warm/submission/labs/$LAB/"
done <"$source/labs/$LAB/.student-files"
status=0
python3 "$source/tests/grade.py" --submission "$warm/submission" --lab "$LAB" --build-dir "$source/build" \
  --junit "$warm/junit.xml" --show-failures 0 >"$warm/grade.log" 2>&1 || status=$?
if [ "$status" != 0 ] || grep -q "did not compile" "$warm/grade.log"; then
  cat "$warm/grade.log" >&2
  echo "setup.sh: the warm-up grading of $LAB's skeleton failed (status $status, log above)" >&2
  exit 1
fi
echo "setup.sh: $LAB's grader is built in $source/build"
