# cmake/CudaArchitectures.cmake — picks CMAKE_CUDA_ARCHITECTURES before project() enables CUDA.
#
#  - Given by the user (-DCMAKE_CUDA_ARCHITECTURES=...): kept, after the check below.
#  - Else, with a GPU visible (nvidia-smi answers): the compute capability of each visible GPU,
#    as CMake's `native` would choose, e.g. "90" on an H100 or H200.
#  - Else (a build machine without a GPU, CI): LADDER_DEFAULT_ARCHS below, the subset the nvcc
#    found offers, as cubins, plus PTX of the newest so that a later GPU can JIT-compile it.
#
# cuda-ladder needs compute capability 8.0 or later (the warp reductions use
# __reduce_add_sync, sm_80): an architecture below that stops the configure with one line.
# Hopper-only rungs (bulk copies, mbarrier waits) run only where the binary holds sm_90 or later
# code for the GPU; elsewhere they are skipped with a message (common/device.h).

set(LADDER_DEFAULT_ARCHS 80 86 89 90 100 120)
set(LADDER_MIN_ARCH 80)

function(ladder_find_nvcc out)
  if(CMAKE_CUDA_COMPILER)
    set(nvcc "${CMAKE_CUDA_COMPILER}")
  elseif(DEFINED ENV{CUDACXX})
    set(nvcc "$ENV{CUDACXX}")
  else()
    find_program(nvcc nvcc PATHS /usr/local/cuda/bin NO_CACHE)
  endif()
  set(${out} "${nvcc}" PARENT_SCOPE)
endfunction()

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(picked "")
  find_program(LADDER_NVIDIA_SMI nvidia-smi)
  if(LADDER_NVIDIA_SMI)
    execute_process(COMMAND ${LADDER_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE caps RESULT_VARIABLE rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 20)
    if(rc EQUAL 0 AND caps MATCHES "^[0-9]")
      string(REPLACE "\n" ";" caps "${caps}")
      foreach(cap IN LISTS caps)
        string(STRIP "${cap}" cap)
        string(REPLACE "." "" cap "${cap}")
        list(APPEND picked ${cap})
      endforeach()
      list(REMOVE_DUPLICATES picked)
      message(STATUS "CUDA architectures: ${picked} (the GPUs visible now; "
                     "-DCMAKE_CUDA_ARCHITECTURES=... to choose)")
    endif()
  endif()
  if(NOT picked)
    ladder_find_nvcc(nvcc)
    set(offered "")
    if(nvcc)
      execute_process(COMMAND ${nvcc} --list-gpu-code OUTPUT_VARIABLE codes ERROR_QUIET)
      string(REGEX MATCHALL "sm_[0-9]+" codes "${codes}")
      string(REPLACE "sm_" "" offered "${codes}")
    endif()
    set(last "")
    foreach(arch IN LISTS LADDER_DEFAULT_ARCHS)
      if(NOT offered OR arch IN_LIST offered)
        list(APPEND picked ${arch}-real)
        set(last ${arch})
      endif()
    endforeach()
    list(APPEND picked ${last}-virtual)
    message(STATUS "CUDA architectures: ${picked} (no GPU visible: Ampere, Ada, Hopper and "
                   "Blackwell cubins plus PTX for the newest; -DCMAKE_CUDA_ARCHITECTURES=native "
                   "or e.g. 90 to build for one GPU only)")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${picked}" CACHE STRING "CUDA architectures to build for")
endif()

# The minimum: every entry must be sm_80 or later. `native` is checked by CMake itself against
# the GPU; `all` and `all-major` include older architectures.
foreach(entry IN LISTS CMAKE_CUDA_ARCHITECTURES)
  if(entry MATCHES "^all")
    message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES=${entry} includes architectures below "
                        "sm_${LADDER_MIN_ARCH}, the minimum cuda-ladder needs; name them, e.g. "
                        "\"80;90\", or leave it unset")
  endif()
  if(entry MATCHES "^([0-9]+)")
    if(CMAKE_MATCH_1 LESS LADDER_MIN_ARCH)
      message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES names ${entry}: cuda-ladder needs "
                          "compute capability 8.0 or later (sm_${LADDER_MIN_ARCH})")
    endif()
  endif()
endforeach()
