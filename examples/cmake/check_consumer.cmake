# Configure, build and run one of the consumer projects in examples/cmake/ in a scratch directory: the
# ctests example_add_subdirectory and example_fetchcontent. Fails loudly on any step.
#   cmake -DPROJECT=add_subdirectory|fetchcontent -DSOURCE_DIR=... -DWORK_DIR=... -DCC=... -DGENERATOR=... -P check_consumer.cmake
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
set(args)
if(PROJECT STREQUAL "add_subdirectory")
  set(args -DTREAD_DIR=${SOURCE_DIR})
elseif(PROJECT STREQUAL "fetchcontent")
  # The source archive `make package` writes (scripts/package.sh source: git archive of the checkout's HEAD), what a
  # release publishes; CMakeLists.txt adds this test only in a git checkout.
  run(bash ${SOURCE_DIR}/scripts/package.sh source ${WORK_DIR}/archive)
  file(GLOB archive ${WORK_DIR}/archive/tread-*.tar.gz)
  set(args -DTREAD_ARCHIVE=${archive} -DFETCHCONTENT_BASE_DIR=${WORK_DIR}/deps)
else()
  message(FATAL_ERROR "PROJECT must be add_subdirectory or fetchcontent")
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/cmake/${PROJECT} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${CC} -DCMAKE_BUILD_TYPE=Release ${args})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 2)
run(${WORK_DIR}/build/my_game)
