# Configure and build tests/subdirectory (a game that add_subdirectory()s tread) in a scratch directory, with
# pkg-config disabled so that only libc and libm can be used; then run the game. Fails loudly on any step.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/subdirectory -B ${WORK_DIR} -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${CC} -DCMAKE_BUILD_TYPE=Release -DTREAD_SOURCE_DIR=${SOURCE_DIR}
    -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON)
foreach(word cmocka cJSON libcjson assimp pkg-config Doxygen)
  string(FIND "${out}" "${word}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "configuring a game with add_subdirectory(tread) mentions ${word}:\n${out}")
  endif()
endforeach()
run(${CMAKE_COMMAND} --build ${WORK_DIR} --parallel 2)
run(${WORK_DIR}/subdirectory_consumer)
message(STATUS "add_subdirectory(tread): ${out}")
