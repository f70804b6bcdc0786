#!/usr/bin/env bash
# run_sanitizer.sh TOOL PROGRAM [SKIP [ONLY]]: runs a GPU test program under compute-sanitizer
# (memcheck, racecheck, ...). Exits 77, which CTest reports as skipped, when no
# GPU is visible. DeliberateErrors.* tests provoke CUDA errors on purpose and
# are left out, and so are the tests on real graphs (RoadNetwork*, PowerLaw*):
# they run the same kernels as the small graphs, thousands of rounds longer,
# which under the sanitizer's instrumentation takes many minutes. SKIP adds
# a lab's own such tests (gtest patterns joined by ':'); ONLY, if given, runs
# only the tests it matches (one of those long tests, on its own).
set -u
tool="$1" program="$2" skip="${3:+:$3}" only="${4:-*}" sanitizer="${COMPUTE_SANITIZER:-compute-sanitizer}"
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "sanitizer test skipped: no GPU visible (nvidia-smi -L failed)"
  exit 77
fi
filter="$only-DeliberateErrors.*:*.RoadNetwork*:*.PowerLaw*:Perf.*$skip"
# A filter that selects nothing would pass having checked nothing.
if [ "$only" != "*" ] && ! "$program" --gtest_filter="$filter" --gtest_list_tests | grep -q '^  '; then
  echo "run_sanitizer.sh: '$only' selects no test of $program" >&2
  exit 1
fi
exec "$sanitizer" --tool "$tool" --error-exitcode 1 --print-limit 20 \
  "$program" --gtest_filter="$filter" --gtest_brief=1
