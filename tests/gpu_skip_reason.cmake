# Says after ctest's summary why the GPU tests were skipped. `ctest --output-on-failure` (the
# README's test command) prints a skipped test only as "***Skipped": the output of passed and
# skipped tests is not shown, so the line the GPU tests print ("no CUDA device: skipping all GPU
# tests (<why>)") would stay in ctest's log. CMakeLists.txt names this script in the build
# folder's CTestCustom.cmake (CTEST_CUSTOM_POST_TEST), so ctest runs it after every run:
#     cmake -DLADDER_TESTS=<build>/ladder-tests -P tests/gpu_skip_reason.cmake
# It runs one host test of ladder-tests, which sets up the GPU tests' environment
# (tests/test_versions.cpp, GpuEnvironment) and so prints the same line the GPU tests printed,
# and repeats that line; where there is a GPU, it prints nothing. It never fails, so it never
# changes ctest's exit status.
if(NOT EXISTS "${LADDER_TESTS}")
  return()
endif()
execute_process(COMMAND "${LADDER_TESTS}" --gtest_filter=HostDevice.GpuSlug --gtest_brief=1
                OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc TIMEOUT 120)
string(REPLACE ";" "," out "${out}")
string(REPLACE "\n" ";" lines "${out}")
foreach(line IN LISTS lines)
  if(line MATCHES "^no CUDA device: skipping all GPU tests")
    string(STRIP "${line}" line)
    message("GPU tests: ${line}")
  endif()
endforeach()
