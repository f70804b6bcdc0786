# Helpers that give every lab the same shape.
#
#   sssp_add_lab(<lab> <CPU|GPU> SOURCES <files>... [PROGRAMS <files>...])
#     Builds <lab>_student from labs/<lab>/<files> (SSSP_LABS_DIR) and, unless
#     this is a student release, <lab>_solution from solutions/<lab>/<files>.
#     Each library sees its own directory first, so `#include "lab01.hpp"`
#     finds the flavour's own header. Each PROGRAMS
#     file (e.g. reduce_bench.cpp) becomes an executable in bin/, linked with
#     the lab: reduce-bench from labs/, reduce-bench-ref from solutions/.
#
#     A lab with a binding (tests/<lab>/binding.cpp, see
#     tests/grader/runtime/rpc/api.hpp) also gets <lab>_worker_<flavour>: the
#     process that runs that flavour's code for the isolated tests. A GPU lab
#     with an ordering probe (tests/<lab>/ordering_probe.cu) also compiles it
#     against each worker's code, to PTX beside the worker
#     (workers/<worker>.ordering.ptx), which its Ordering tests read
#     (tests/support/ptx_order.hpp).
#
#   sssp_add_lab_tests(<lab> <cpu|gpu> SOURCES <files>... [GIVEN <files>...])
#     Builds the lab's GoogleTest executable once per flavour. The solution's
#     tests are registered with CTest, one process per test, with a timeout and
#     the labels <lab>, <kind>, solution; datasets/tiny stands in for the hidden
#     graphs, so no HiddenGraphs test skips there. Both flavours are listed in
#     graded_tests.json in the build directory, which the grader reads, and so
#     are the workers of the lab's mutants (solutions/<lab>/mutants.json),
#     flavour mutant:<name>. With a binding, also test_<lab>_<kind>_isolated: the same tests linked
#     with the binding's test side instead of any lab code, so every call to
#     the lab goes to a worker process (grade.py's grading path). It holds no
#     student code, only the lab's header and its GIVEN files (given code
#     the tests use directly, from labs/<lab>/).
#
#   sssp_add_given_code_test(<lab> <name> SOURCES <files>... [LABELS <labels>...])
#     Tests code a lab gives the student (option checks, data structures):
#     not a task, so not graded, and built against the solution only, as
#     test_<lab>_<name>; its tests are <lab>.<name>.* with the labels project,
#     <lab> and LABELS.

# A student release (common/tools/make_release.py) has no solutions/: it
# builds and grades only the student flavour, without the reference, mutants
# and task reverts.
if(EXISTS "${PROJECT_SOURCE_DIR}/solutions")
  set(SSSP_HAVE_SOLUTIONS ON)
  set(SSSP_FLAVOURS student solution)
else()
  set(SSSP_HAVE_SOLUTIONS OFF)
  set(SSSP_FLAVOURS student)
endif()

# The student's code: labs/, or the copy with a submission's files that
# tests/grade.py --submission grades (grade.py always sets it).
set(SSSP_LABS_DIR "${PROJECT_SOURCE_DIR}/labs" CACHE PATH "Directory of the student's labs")
set(SSSP_TEST_TIMEOUT 60 CACHE STRING "Per-test timeout in seconds (an endless loop must not hang grading)")
# A CTest test that runs GPU processes claims one slot of the resource "gpus"
# per process it runs at a time. A plain ctest ignores the claims; .ci/gpu
# hands ctest a resource spec file (--gpu-slots), so that a parallel run keeps
# that many GPU processes at most: processes that time-slice one GPU slow
# down far more than in proportion (a task-map test took 22 s beside its
# lab's tests and 260 s in the whole suite at 16 jobs, H100, 2026-11-25).
set(SSSP_GPU_SLOT "gpus:1")

# The worker that serves <lab>'s API from library <library> (<flavour> of the
# lab), as <lab>_worker_<name>, listed in graded_tests.json.
function(_sssp_add_worker lab name flavour library)
  set(binding "${PROJECT_SOURCE_DIR}/tests/${lab}/binding.cpp")
  if(NOT EXISTS "${binding}")
    return()
  endif()
  set(exe ${lab}_worker_${name})
  add_executable(${exe} $<TARGET_OBJECTS:sssp_rpc_worker_main> "${binding}")
  get_property(kind GLOBAL PROPERTY SSSP_LAB_KIND_${lab})
  if(kind STREQUAL "GPU")
    target_sources(${exe} PRIVATE $<TARGET_OBJECTS:sssp_rpc_warm_gpu>)
  endif()
  target_compile_definitions(${exe} PRIVATE SSSP_RPC_WORKER=1)
  target_link_libraries(${exe} PRIVATE ${library} sssp_rpc)
  set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/workers")
  if(flavour STREQUAL "student")
    sssp_set_warnings(${exe} NO_WERROR)
  else()
    sssp_set_warnings(${exe})
  endif()
  set_property(GLOBAL APPEND PROPERTY SSSP_WORKERS
               "{\"lab\": \"${lab}\", \"flavour\": \"${flavour}\", \"path\": \"$<TARGET_FILE:${exe}>\"}")
  set(probe "${PROJECT_SOURCE_DIR}/tests/${lab}/ordering_probe.cu")
  if(kind STREQUAL "GPU" AND EXISTS "${probe}")
    _sssp_add_ordering_probe(${exe} "${probe}" ${library} ${flavour})
  endif()
endfunction()

# The PTX of one architecture is what the ordering checks read: the newest
# the build targets, so that a submission that compiles for the build also
# compiles for its probe.
set(SSSP_PROBE_ARCH "")
foreach(_arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
  if(_arch MATCHES "^([0-9]+)" AND (SSSP_PROBE_ARCH STREQUAL "" OR CMAKE_MATCH_1 GREATER SSSP_PROBE_ARCH))
    set(SSSP_PROBE_ARCH "${CMAKE_MATCH_1}")
  endif()
endforeach()

# Worker <exe>'s ordering probe: `probe` compiled to PTX against `library`
# (the worker's lab code), copied to workers/<exe>.ordering.ptx, and built
# whenever the worker is.
function(_sssp_add_ordering_probe exe probe library flavour)
  add_library(${exe}_ordering OBJECT "${probe}")
  set_target_properties(${exe}_ordering PROPERTIES CUDA_PTX_COMPILATION ON
                                                   CUDA_ARCHITECTURES "${SSSP_PROBE_ARCH}-virtual")
  target_link_libraries(${exe}_ordering PRIVATE ${library})
  # As strict as the code it compiles: the solution's warnings are errors;
  # the student's code, a mutant or a task revert may hold a skeleton's
  # unused stubs (nvcc's "declared but never referenced", 177).
  if(flavour STREQUAL "solution")
    sssp_set_warnings(${exe}_ordering)
  else()
    sssp_set_warnings(${exe}_ordering NO_WERROR)
    target_compile_options(${exe}_ordering PRIVATE --diag-suppress=177)
  endif()
  set(ptx "${PROJECT_BINARY_DIR}/workers/${exe}.ordering.ptx")
  add_custom_command(OUTPUT "${ptx}" COMMAND "${CMAKE_COMMAND}" -E copy "$<TARGET_OBJECTS:${exe}_ordering>" "${ptx}"
                     DEPENDS ${exe}_ordering "$<TARGET_OBJECTS:${exe}_ordering>" VERBATIM)
  add_custom_target(${exe}_ordering_ptx DEPENDS "${ptx}")
  add_dependencies(${exe} ${exe}_ordering_ptx)
endfunction()

function(sssp_add_lab lab kind)
  cmake_parse_arguments(ARG "" "" "SOURCES;PROGRAMS" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY SSSP_LABS "${lab}")
  set_property(GLOBAL PROPERTY SSSP_LAB_KIND_${lab} "${kind}")
  if(kind STREQUAL "GPU" AND NOT SSSP_HAVE_CUDA)
    message(STATUS "${lab}: skipped (GPU lab, ${SSSP_CUDA_DISABLED_REASON})")
    return()
  endif()
  foreach(flavour IN LISTS SSSP_FLAVOURS)
    if(flavour STREQUAL "student")
      set(dir "${SSSP_LABS_DIR}/${lab}")
    else()
      set(dir "${PROJECT_SOURCE_DIR}/solutions/${lab}")
    endif()
    list(TRANSFORM ARG_SOURCES PREPEND "${dir}/" OUTPUT_VARIABLE srcs)
    add_library(${lab}_${flavour} STATIC ${srcs})
    target_include_directories(${lab}_${flavour} PUBLIC "${dir}")
    target_link_libraries(${lab}_${flavour} PUBLIC sssp_core)
    if(kind STREQUAL "GPU")
      target_link_libraries(${lab}_${flavour} PUBLIC sssp_cuda)
    endif()
    _sssp_add_worker(${lab} ${flavour} ${flavour} ${lab}_${flavour})
    if(flavour STREQUAL "student")
      sssp_set_warnings(${lab}_${flavour} NO_WERROR)
    else()
      sssp_set_warnings(${lab}_${flavour})
    endif()
    if(flavour STREQUAL "student")
      # An unfinished skeleton has parameters and helpers it does not use yet.
      target_compile_options(${lab}_${flavour} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wno-unused-parameter -Wno-unused-function>
        $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-unused-parameter,-Wno-unused-function --diag-suppress=177>)
    endif()
    if(SSSP_WORKERS_ONLY)
      continue()  # the bench programs link the reference, which a worker build does not have
    endif()
    foreach(program IN LISTS ARG_PROGRAMS)
      get_filename_component(stem "${program}" NAME_WE)
      string(REPLACE "_" "-" exe "${stem}")
      if(flavour STREQUAL "solution")
        string(APPEND exe "-ref")
      endif()
      add_executable(${exe} "${dir}/${program}")
      target_link_libraries(${exe} PRIVATE ${lab}_${flavour} sssp_common)
      sssp_set_warnings(${exe})
      set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin")
    endforeach()
  endforeach()
endfunction()

# Test program <exe> reads the ordering probe of <worker> unless told
# otherwise (SSSP_ORDERING_PTX_DEFAULT; "" for a lab without a probe).
function(_sssp_ordering_default exe worker)
  if(TARGET ${worker}_ordering_ptx)
    target_compile_definitions(${exe} PRIVATE SSSP_ORDERING_PTX_DEFAULT="${PROJECT_BINARY_DIR}/workers/${worker}.ordering.ptx")
    add_dependencies(${exe} ${worker}_ordering_ptx)
  else()
    target_compile_definitions(${exe} PRIVATE SSSP_ORDERING_PTX_DEFAULT="")
  endif()
endfunction()

function(sssp_add_lab_tests lab kind)
  cmake_parse_arguments(ARG "" "" "SOURCES;GIVEN" ${ARGN})
  if(NOT TARGET ${lab}_student)
    return()  # a GPU lab without CUDA: nothing to build, the grader reports why
  endif()
  if(TARGET ${lab}_worker_student)  # the lab has a binding
    set(exe test_${lab}_${kind}_isolated)
    list(TRANSFORM ARG_GIVEN PREPEND "${PROJECT_SOURCE_DIR}/labs/${lab}/" OUTPUT_VARIABLE given)
    add_executable(${exe} ${ARG_SOURCES} binding.cpp ${given} "${SSSP_RPC_DEFAULT_WORKER_SOURCE}")
    target_include_directories(${exe} PRIVATE "${PROJECT_SOURCE_DIR}/labs/${lab}")
    target_compile_definitions(${exe} PRIVATE SSSP_RPC_WORKER=0
                               SSSP_RPC_DEFAULT_WORKER="$<TARGET_FILE:${lab}_worker_student>"
                               SSSP_RPC_GPU_TESTS=$<STREQUAL:${kind},gpu>)
    _sssp_ordering_default(${exe} ${lab}_worker_student)
    target_link_libraries(${exe} PRIVATE sssp_rpc_client sssp_test_support GTest::gtest)
    sssp_set_warnings(${exe})
    if(kind STREQUAL "gpu" AND TARGET grading-perf-programs)
      add_dependencies(grading-perf-programs ${exe} ${lab}_worker_student)
      if(TARGET ${lab}_worker_solution)
        add_dependencies(grading-perf-programs ${lab}_worker_solution)
      endif()
    endif()
    set_property(GLOBAL APPEND PROPERTY SSSP_GRADED_EXES
                 "{\"lab\": \"${lab}\", \"kind\": \"${kind}\", \"flavour\": \"isolated\", \"path\": \"$<TARGET_FILE:${exe}>\"}")
  endif()
  set(exe test_${lab}_${kind}_student)
  add_executable(${exe} ${ARG_SOURCES})
  target_link_libraries(${exe} PRIVATE ${lab}_student sssp_test_support GTest::gtest)
  sssp_set_warnings(${exe})
  _sssp_ordering_default(${exe} ${lab}_worker_student)
  if(SSSP_HAVE_SOLUTIONS)
    set(exe test_${lab}_${kind}_solution)
    add_executable(${exe} ${ARG_SOURCES})
    target_link_libraries(${exe} PRIVATE ${lab}_solution sssp_test_support GTest::gtest)
    sssp_set_warnings(${exe})
    _sssp_ordering_default(${exe} ${lab}_worker_solution)
  endif()
  foreach(flavour IN LISTS SSSP_FLAVOURS)
    set_property(GLOBAL APPEND PROPERTY SSSP_GRADED_EXES
                 "{\"lab\": \"${lab}\", \"kind\": \"${kind}\", \"flavour\": \"${flavour}\", \"path\": \"$<TARGET_FILE:test_${lab}_${kind}_${flavour}>\"}")
  endforeach()
  if(NOT SSSP_HAVE_SOLUTIONS)
    return()  # the student's tests run only through tests/grade.py
  endif()
  sssp_add_mutants(${lab})

  if(kind STREQUAL "gpu")
    set_property(GLOBAL APPEND PROPERTY SSSP_GPU_TEST_PROGRAMS test_${lab}_${kind}_solution)
  endif()
  set(gpu_slot "")
  if(kind STREQUAL "gpu")
    set(gpu_slot RESOURCE_GROUPS ${SSSP_GPU_SLOT})
  endif()
  gtest_discover_tests(test_${lab}_${kind}_solution
    TEST_PREFIX "${lab}.${kind}.solution."
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${lab};${kind};solution"
               ${gpu_slot}
               TIMEOUT ${SSSP_TEST_TIMEOUT}
               SKIP_REGULAR_EXPRESSION ".  SKIPPED . "
               ENVIRONMENT "SSSP_HIDDEN_GRAPHS=${PROJECT_SOURCE_DIR}/datasets/tiny")
endfunction()

# Deliberately wrong versions of a lab's solution (solutions/<lab>/mutants.json),
# each built as a worker of flavour "mutant:<name>", so the project tests can
# show that the graded tests catch them (through the isolated test programs,
# as a submission is graded). For the labs named in
# SSSP_TASK_REVERTS (or ALL), also the solution with one task N left
# unfinished as in the skeleton, flavour "revert:<N>", for
# tests/project/check_tasks.py: many builds, so only where asked.
set(SSSP_TASK_REVERTS "" CACHE STRING "Labs (or ALL) to build once per task with that task reverted to its skeleton")

function(sssp_add_mutants lab)
  set(spec "${PROJECT_SOURCE_DIR}/solutions/${lab}/mutants.json")  # a list; a lab may have none
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${lab}")
  file(GLOB solution_files "${solution_dir}/*")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${solution_files})
  if(EXISTS "${spec}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")
    file(READ "${spec}" json)
    string(JSON count LENGTH "${json}")
    if(count GREATER 0)
      math(EXPR last "${count} - 1")
      foreach(i RANGE ${last})
        string(JSON name GET "${json}" ${i} name)
        _sssp_add_variant(${lab} mutant_${name} "mutant:${name}" "mutants/${lab}/${name}" ${lab} ${name})
        string(JSON caught_by ERROR_VARIABLE no_key GET "${json}" ${i} caught_by)
        if(caught_by STREQUAL "perf" AND TARGET grading-perf-programs)
          add_dependencies(grading-perf-programs ${lab}_worker_mutant_${name})
        endif()
      endforeach()
    endif()
  endif()
  if(lab IN_LIST SSSP_TASK_REVERTS OR SSSP_TASK_REVERTS STREQUAL "ALL")
    set(tasks "")
    foreach(file IN LISTS solution_files)
      file(STRINGS "${file}" regions REGEX "// BEGIN SOLUTION task [0-9]+:")
      foreach(region IN LISTS regions)
        string(REGEX MATCH "task ([0-9]+):" _ "${region}")
        list(APPEND tasks ${CMAKE_MATCH_1})
      endforeach()
    endforeach()
    list(REMOVE_DUPLICATES tasks)
    foreach(task IN LISTS tasks)
      _sssp_add_variant(${lab} revert_task${task} "revert:${task}" "reverts/${lab}/task${task}"
                        --revert-task ${lab} ${task})
    endforeach()
  endif()
endfunction()

# One variant of a lab's solution, written by make_mutant.py (its arguments
# before the solution and output directories: ARGN) into <subdir> of the build
# directory, and built as its worker <lab>_worker_<name>, listed as <flavour>:
# a variant is tested as a submission is graded, by the lab's isolated test
# programs calling that worker.
function(_sssp_add_variant lab name flavour subdir)
  set(dir "${PROJECT_BINARY_DIR}/${subdir}")
  if(NOT TARGET ${lab}_${name})  # a lab with cpu and gpu tests asks for each variant twice
    set(write_variant "${Python3_EXECUTABLE}" -m tests.project.make_mutant
                      ${ARGN} "${PROJECT_SOURCE_DIR}/solutions/${lab}" "${dir}")
    execute_process(COMMAND ${write_variant} WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" RESULT_VARIABLE failed)
    if(failed)
      message(FATAL_ERROR "${flavour} of ${lab} could not be made (see above)")
    endif()
    get_target_property(lab_sources ${lab}_solution SOURCES)
    set(sources "")
    foreach(source IN LISTS lab_sources)
      get_filename_component(file "${source}" NAME)
      list(APPEND sources "${dir}/${file}")
    endforeach()
    # Written again at build time when what it is written from changes (the
    # solution, its mutants.json, the writer), so that a variant is never
    # older than its solution; make_mutant.py rewrites only files that change.
    file(GLOB written_from LIST_DIRECTORIES false "${PROJECT_SOURCE_DIR}/solutions/${lab}/*")
    set(stamp "${dir}/.written")
    add_custom_command(OUTPUT "${stamp}" BYPRODUCTS ${sources}
                       COMMAND ${write_variant}
                       COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
                       DEPENDS ${written_from} "${PROJECT_SOURCE_DIR}/tests/project/make_mutant.py"
                               "${PROJECT_SOURCE_DIR}/tests/grader/lab_data.py"
                               "${PROJECT_SOURCE_DIR}/common/tools/make_skeleton.py"
                       WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}" COMMENT "Writing ${flavour} of ${lab}" VERBATIM)
    add_library(${lab}_${name} STATIC ${sources} "${stamp}")
    target_include_directories(${lab}_${name} PUBLIC "${dir}")
    target_link_libraries(${lab}_${name} PUBLIC sssp_core)
    if(TARGET sssp_cuda)
      target_link_libraries(${lab}_${name} PUBLIC sssp_cuda)
    endif()
    _sssp_add_worker(${lab} ${name} "${flavour}" ${lab}_${name})
  endif()
endfunction()

function(sssp_add_given_code_test lab name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LABELS" ${ARGN})
  if(NOT TARGET ${lab}_solution)
    return()  # a GPU lab in a build without CUDA
  endif()
  set(exe test_${lab}_${name})
  add_executable(${exe} ${ARG_SOURCES})
  target_link_libraries(${exe} PRIVATE ${lab}_solution sssp_test_support GTest::gtest)
  sssp_set_warnings(${exe})
  set(labels project ${lab} ${ARG_LABELS})
  set(gpu_slot "")
  if("gpu" IN_LIST ARG_LABELS)
    set(gpu_slot RESOURCE_GROUPS ${SSSP_GPU_SLOT})
  endif()
  gtest_discover_tests(${exe} TEST_PREFIX "${lab}.${name}." DISCOVERY_MODE PRE_TEST
                       PROPERTIES LABELS "${labels}" ${gpu_slot} TIMEOUT ${SSSP_TEST_TIMEOUT}
                                  SKIP_REGULAR_EXPRESSION ".  SKIPPED . ")
endfunction()
