// @REPLACES@ bfs.cpp
// @HIDDEN-REPORT-LACKS@ GRAPH-OUT
// Prints each graph it is given as a line that looks like the test's own
// progress line, which a timeout message quotes, then never answers.
#include <cstdio>

#include "lab01.hpp"

namespace lab01 {

std::vector<level_t> bfs(const CsrGraph& graph, vertex_t, Counters*) {
  std::printf("[   STEP   ] GRAPH-OUT");
  for (const vertex_t head : graph.targets) std::printf(" %u", static_cast<unsigned>(head));
  std::printf("\n");
  std::fflush(stdout);
  for (volatile unsigned long i = 0;; i = i + 1) {
  }
}

}  // namespace lab01
