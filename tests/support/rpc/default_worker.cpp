// The worker an isolated test program starts when SSSP_WORKER is not set:
// its lab's student worker, built beside it (compiled into each isolated
// test program with that path).
#include "rpc/api.hpp"

const char* sssp::rpc::default_worker() { return SSSP_RPC_DEFAULT_WORKER; }
