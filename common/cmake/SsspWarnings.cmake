# Warning flags for the course's own targets (not for third-party code).
# sssp_set_warnings(target [NO_WERROR]): NO_WERROR for students' code, whose
# unfinished state (unused parameters, empty kernels) must still build.
function(sssp_set_warnings target)
  set(_cxx -Wall -Wextra -Wpedantic -Wshadow)
  set(_cuda_host -Wall,-Wextra)
  if(SSSP_WARNINGS_AS_ERRORS AND NOT "NO_WERROR" IN_LIST ARGN)
    list(APPEND _cxx -Werror)
    set(_cuda_host "${_cuda_host},-Werror")
    set(_cuda_dev --Werror=all-warnings)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${_cxx}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${_cuda_host} ${_cuda_dev}>)
endfunction()
