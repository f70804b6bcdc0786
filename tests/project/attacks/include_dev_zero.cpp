// @REPLACES@ bfs.cpp
// @REPORT-SAYS@ the compiler ran out of memory
// Makes the compiler read an endless file: without a memory cap on the
// compile it takes the host's memory.
#include "/dev/zero"
