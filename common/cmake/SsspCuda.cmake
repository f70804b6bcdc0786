# Decides whether the GPU half of the course is built, and for which GPUs.
#
# Sets SSSP_HAVE_CUDA (ON/OFF) and, when OFF, SSSP_CUDA_DISABLED_REASON.
# Architectures, unless the user passed CMAKE_CUDA_ARCHITECTURES:
#   * a GPU is visible (nvidia-smi): exactly its compute capabilities, so the
#     build is fast and uses every feature of the card;
#   * no GPU (CI, a laptop): sm_90 machine code, PTX for compute_90 (newer
#     GPUs JIT it) and PTX for compute_75 (every GPU that CUDA 13 supports
#     JITs it), so no supported GPU ever meets "no kernel image is available".
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

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
  set(_sssp_archs "")
  find_program(SSSP_NVIDIA_SMI nvidia-smi)
  if(SSSP_NVIDIA_SMI)
    execute_process(COMMAND "${SSSP_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _sssp_caps RESULT_VARIABLE _sssp_rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_sssp_rc EQUAL 0 AND _sssp_caps MATCHES "^[0-9]")
      string(REPLACE "\n" ";" _sssp_caps "${_sssp_caps}")
      foreach(_cap IN LISTS _sssp_caps)
        string(STRIP "${_cap}" _cap)
        string(REPLACE "." "" _cap "${_cap}")
        list(APPEND _sssp_archs "${_cap}-real")
      endforeach()
      list(REMOVE_DUPLICATES _sssp_archs)
      message(STATUS "CUDA architectures: built for the visible GPU(s): ${_sssp_archs}")
    endif()
  endif()
  if(NOT _sssp_archs)
    set(_sssp_archs "75-virtual;90-real;90-virtual")
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
