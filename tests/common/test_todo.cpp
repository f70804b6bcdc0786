// The skeleton's TODO markers: what a student reads when a task is unfinished.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "sssp/errors.hpp"
#include "sssp/todo.hpp"

namespace {

TEST(Todo, HostTaskNamesItsFileAndLine) {
  try {
    SSSP_TODO(1, 2, "Dijkstra with lazy deletion");
    FAIL() << "SSSP_TODO must throw";
  } catch (const sssp::NotImplemented& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("Lab 01, task 2 is not implemented yet: Dijkstra with lazy deletion (test_todo.cpp:", 0),
              0u)
        << message;
  }
}

// A device task's stub may sit in a header that the file holding the lab's
// device-TODO word includes (lab 09's adds.cu, lab 08's *_tasks.cuh): the
// message must send the student to the stub's file, not the word's.
TEST(Todo, DeviceTaskNamesTheFileOfItsStub) {
  constexpr std::array<sssp::detail::TaskFile, 2> elsewhere{{{4, "adds.cu"}, {7, "adds.cu"}}};
  EXPECT_STREQ(sssp::detail::file_of_task(7, elsewhere, "queue.cuh"), "adds.cu");
  EXPECT_STREQ(sssp::detail::file_of_task(4, elsewhere, "queue.cuh"), "adds.cu");
  EXPECT_STREQ(sssp::detail::file_of_task(2, elsewhere, "queue.cuh"), "queue.cuh");
  EXPECT_STREQ(sssp::detail::file_of_task(3, {}, "frontier_sssp.cu"), "frontier_sssp.cu");
  try {
    sssp::detail::throw_todo(9, 7, "a kernel of this task is still the skeleton's stub",
                             sssp::detail::file_of_task(7, elsewhere, "/src/labs/some_lab/queue.cuh"), 0);
    FAIL() << "throw_todo must throw";
  } catch (const sssp::NotImplemented& e) {
    EXPECT_STREQ(e.what(),
                 "Lab 09, task 7 is not implemented yet: a kernel of this task is still the skeleton's stub (adds.cu)");
  }
}

}  // namespace
