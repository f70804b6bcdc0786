// Installs a GoogleTest listener from a static initializer that drops every
// failure and skip before GoogleTest records it.
#include <gtest/gtest.h>

namespace {
class Forgiving : public ::testing::EmptyTestEventListener {};
const bool installed = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new Forgiving);
  return true;
}();
}  // namespace
