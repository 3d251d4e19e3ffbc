# The build conventions every folder shares, in one place (included by the top-level
# CMakeLists.txt before any add_subdirectory): the warning set, how a target learns the project
# version, and the libFuzzer twin of a library. A new target calls these instead of spelling
# the flags again.

# The warnings every target of ours compiles with. A flag list (the runtime's MT_RT_OPTIONS, the
# sample game's) takes ${MT_WARNINGS}; a target takes mt_warnings().
set(MT_WARNINGS -Wall -Wextra)

# mt_warnings(target [PEDANTIC] [PUBLIC]): MT_WARNINGS on target (PRIVATE unless PUBLIC, for an
# object library whose users compile its headers the same way); PEDANTIC adds -Wpedantic.
function(mt_warnings target)
  cmake_parse_arguments(arg "PEDANTIC;PUBLIC" "" "" ${ARGN})
  set(scope PRIVATE)
  if(arg_PUBLIC)
    set(scope PUBLIC)
  endif()
  set(flags ${MT_WARNINGS})
  if(arg_PEDANTIC)
    list(APPEND flags -Wpedantic)
  endif()
  target_compile_options(${target} ${scope} ${flags})
endfunction()

# mt_version(target): the one way code learns the project version (project() in the top-level
# CMakeLists.txt): the string macro MEMTRACER_VERSION. A macro rather than a generated header so
# that the runtime, which Xcode and Gradle builds compile without CMake, takes it the same way
# (-DMEMTRACER_VERSION=...; runtime/src/info.cpp has a fallback).
function(mt_version target)
  target_compile_definitions(${target} PRIVATE MEMTRACER_VERSION="${PROJECT_VERSION}")
endfunction()

# mt_library_with_fuzz_twin(make name): make(name) builds a library; with MEMTRACER_FUZZ on clang,
# make(name_fuzz) builds the same sources again with libFuzzer's coverage instrumentation and the
# sanitizers, for the fuzz targets under tests/ only, so nothing else is instrumented.
function(mt_library_with_fuzz_twin make name)
  cmake_language(CALL ${make} ${name})
  if(MEMTRACER_FUZZ AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    cmake_language(CALL ${make} ${name}_fuzz)
    target_compile_options(${name}_fuzz PRIVATE -fsanitize=fuzzer-no-link,address,undefined)
  endif()
endfunction()

# mt_fuzzer(name RUNS n CORPUS dir... [SOURCES src...] [LIBS lib...] [ARGS arg...]): a libFuzzer
# executable in <build>/tests and its bounded CTest run (label fuzz, scripts/test.sh stage fuzz):
# a count of inputs from the seeds, not a time, so it does the same work on any machine. New
# inputs go to a scratch folder in the build tree (the first corpus folder, where libFuzzer adds
# them), never to the committed seeds.
function(mt_fuzzer name)
  cmake_parse_arguments(arg "" "RUNS" "SOURCES;LIBS;ARGS;CORPUS" ${ARGN})
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE ${arg_LIBS})
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  set(scratch ${CMAKE_CURRENT_BINARY_DIR}/${name}-scratch)
  file(MAKE_DIRECTORY ${scratch})
  add_test(NAME ${name}_bounded COMMAND ${name} -runs=${arg_RUNS} -seed=1 ${arg_ARGS} ${scratch} ${arg_CORPUS})
  set_tests_properties(${name}_bounded PROPERTIES LABELS fuzz TIMEOUT 600)
endfunction()
