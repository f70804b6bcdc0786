# Helpers that give every lab the same shape.
#
#   sssp_add_lab(<lab> <CPU|GPU> SOURCES <files>...)
#     Builds <lab>_student from labs/<lab>/<files> and <lab>_solution from
#     solutions/<lab>/<files>. Each library sees its own directory first, so
#     `#include "lab01.hpp"` finds the flavour's own header.
#
#   sssp_add_lab_tests(<lab> <cpu|gpu> SOURCES <files>...)
#     Builds the lab's GoogleTest executable once per flavour. The solution's
#     tests are registered with CTest, one process per test, with a timeout and
#     the labels <lab>, <kind>, solution. Both flavours are listed in
#     graded_tests.json in the build directory, which the grader reads.

set(SSSP_TEST_TIMEOUT 60 CACHE STRING "Per-test timeout in seconds (an endless loop must not hang grading)")

function(sssp_add_lab lab kind)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY SSSP_LABS "${lab}")
  set_property(GLOBAL PROPERTY SSSP_LAB_KIND_${lab} "${kind}")
  if(kind STREQUAL "GPU" AND NOT SSSP_HAVE_CUDA)
    message(STATUS "${lab}: skipped (GPU lab, ${SSSP_CUDA_DISABLED_REASON})")
    return()
  endif()
  foreach(flavour student solution)
    if(flavour STREQUAL "student")
      set(dir "${PROJECT_SOURCE_DIR}/labs/${lab}")
    else()
      set(dir "${PROJECT_SOURCE_DIR}/solutions/${lab}")
    endif()
    list(TRANSFORM ARG_SOURCES PREPEND "${dir}/" OUTPUT_VARIABLE srcs)
    add_library(${lab}_${flavour} STATIC ${srcs})
    target_include_directories(${lab}_${flavour} PUBLIC "${dir}")
    target_link_libraries(${lab}_${flavour} PUBLIC sssp_common)
    if(kind STREQUAL "GPU")
      target_link_libraries(${lab}_${flavour} PUBLIC sssp_cuda)
    endif()
    sssp_set_warnings(${lab}_${flavour})
    if(flavour STREQUAL "student")
      # An unfinished skeleton has parameters and helpers it does not use yet.
      target_compile_options(${lab}_${flavour} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wno-unused-parameter -Wno-unused-function>
        $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-unused-parameter,-Wno-unused-function>)
    endif()
  endforeach()
endfunction()

function(sssp_add_lab_tests lab kind)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  if(NOT TARGET ${lab}_solution)
    return()  # a GPU lab without CUDA: nothing to build, the grader reports why
  endif()
  foreach(flavour student solution)
    set(exe test_${lab}_${kind}_${flavour})
    add_executable(${exe} ${ARG_SOURCES})
    target_link_libraries(${exe} PRIVATE ${lab}_${flavour} sssp_test_support GTest::gtest)
    sssp_set_warnings(${exe})
    set_property(GLOBAL APPEND PROPERTY SSSP_GRADED_EXES
                 "{\"lab\": \"${lab}\", \"kind\": \"${kind}\", \"flavour\": \"${flavour}\", \"path\": \"$<TARGET_FILE:${exe}>\"}")
  endforeach()
  if(kind STREQUAL "gpu")
    set_property(GLOBAL APPEND PROPERTY SSSP_GPU_TEST_PROGRAMS test_${lab}_${kind}_solution)
  endif()
  gtest_discover_tests(test_${lab}_${kind}_solution
    TEST_PREFIX "${lab}.${kind}.solution."
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${lab};${kind};solution"
               TIMEOUT ${SSSP_TEST_TIMEOUT}
               SKIP_REGULAR_EXPRESSION ".  SKIPPED . "
               ENVIRONMENT "SSSP_DATA_DIR=${SSSP_DATA_DIR}")
endfunction()
