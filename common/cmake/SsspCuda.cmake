# Decides whether the GPU half of the course is built, and for which GPUs.
#
# Sets SSSP_HAVE_CUDA (ON/OFF) and, when OFF, SSSP_CUDA_DISABLED_REASON.
# Architectures, unless the user passed CMAKE_CUDA_ARCHITECTURES:
#   * a GPU is visible (nvidia-smi): exactly its compute capabilities, so the
#     build is fast and uses every feature of the card;
#   * no GPU (CI, a laptop): sm_90 machine code, PTX for compute_90 (newer
#     GPUs JIT it) and PTX for compute_75 (every GPU that CUDA 13 supports
#     JITs it), so no supported GPU ever meets "no kernel image is available".
# "native" without a visible GPU falls back to that portable set, with a warning.
include(CheckLanguage)

set(SSSP_HAVE_CUDA OFF)
set(SSSP_CUDA_DISABLED_REASON "")
if(NOT SSSP_ENABLE_CUDA)
  set(SSSP_CUDA_DISABLED_REASON "SSSP_ENABLE_CUDA=OFF")
  return()
endif()

if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS "/usr/local/cuda/bin/nvcc")
  set(CMAKE_CUDA_COMPILER "/usr/local/cuda/bin/nvcc")
endif()
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  set(SSSP_CUDA_DISABLED_REASON "no CUDA compiler (nvcc) found; install the CUDA Toolkit or set CMAKE_CUDA_COMPILER")
  return()
endif()

# The compute capabilities of the visible GPUs, as NN-real ("" without one).
function(_sssp_visible_architectures out)
  set(archs "")
  find_program(SSSP_NVIDIA_SMI nvidia-smi)
  if(SSSP_NVIDIA_SMI)
    execute_process(COMMAND "${SSSP_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE caps RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND caps MATCHES "^[0-9]")
      string(REPLACE "\n" ";" caps "${caps}")
      foreach(cap IN LISTS caps)
        string(STRIP "${cap}" cap)
        string(REPLACE "." "" cap "${cap}")
        list(APPEND archs "${cap}-real")
      endforeach()
      list(REMOVE_DUPLICATES archs)
    endif()
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

set(_sssp_portable_archs "75-virtual;90-real;90-virtual")
if(CMAKE_CUDA_ARCHITECTURES STREQUAL "native")
  # CMake's "native" asks the GPU; without one every CUDA target fails to
  # generate. Say so once and build what runs anywhere instead.
  _sssp_visible_architectures(_sssp_archs)
  if(NOT _sssp_archs)
    message(WARNING "CMAKE_CUDA_ARCHITECTURES=native needs a visible GPU and nvidia-smi finds none: building "
                    "the portable set ${_sssp_portable_archs} instead (pass it, or a list such as 90-real, to "
                    "silence this)")
    set(CMAKE_CUDA_ARCHITECTURES "${_sssp_portable_archs}" CACHE STRING "CUDA architectures to build for" FORCE)
  endif()
elseif(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
  _sssp_visible_architectures(_sssp_archs)
  if(_sssp_archs)
    message(STATUS "CUDA architectures: built for the visible GPU(s): ${_sssp_archs}")
  else()
    set(_sssp_archs "${_sssp_portable_archs}")
    message(STATUS "CUDA architectures: no GPU visible, building the portable set ${_sssp_archs}")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${_sssp_archs}" CACHE STRING "CUDA architectures to build for")
endif()

enable_language(CUDA)
# CMake 3.25 does not know nvcc's C++20 flag (CMAKE_CUDA_STANDARD 20 fails to
# generate), so the dialect is passed directly; nvcc has accepted it since 12.0.
add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>)
find_package(CUDAToolkit REQUIRED)
set(SSSP_HAVE_CUDA ON)
