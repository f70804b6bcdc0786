// check-hidden-graphs DIR: reads an instructor's hidden-graph directory the
// way the HiddenGraphs tests will (sssp::test::read_hidden_graphs), so that
// tests/grade.py --hidden-graphs stops on a stray file, a misspelled or an
// empty directory before any student is graded, instead of failing the tests.
#include <exception>
#include <iostream>

#include "sssp_test.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: check-hidden-graphs DIR\n";
    return 2;
  }
  try {
    for (const auto& g : sssp::test::read_hidden_graphs(argv[1])) {
      std::cout << g.name << ": " << g.graph.num_vertices() << " vertices, " << g.graph.num_edges() << " arcs\n";
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
