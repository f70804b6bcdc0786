// Never answers: spins until it is killed.
namespace {
const bool spun = [] {
  for (volatile unsigned long i = 0;; i = i + 1) {
  }
  return true;
}();
}  // namespace
