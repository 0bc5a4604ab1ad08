# Install tread (with the Bullet adapter) into a scratch prefix, check the adapter's files are there, then build
# tests/install (find_package(tread COMPONENTS bullet)) against it and run it. Also checks that asking for a
# component that does not exist fails. Fails loudly on any step.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
file(GLOB lib ${prefix}/lib*/libtread_bullet.a)
file(GLOB config ${prefix}/lib*/cmake/tread/treadBulletTargets.cmake)
foreach(f lib config)
  if(NOT ${f})
    message(FATAL_ERROR "the install has no ${f} of the Bullet adapter under ${prefix}")
  endif()
endforeach()
foreach(h tread_bullet.h tread_bullet.hpp)
  if(NOT EXISTS ${prefix}/include/${h})
    message(FATAL_ERROR "the install has no include/${h}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/adapters/bullet/tests/install -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${prefix}
    -DTREAD_EXPECTED_VERSION=${VERSION})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/bullet_consumer)
# An unknown component is refused (REQUIRED: the configure fails and names it).
file(WRITE ${WORK_DIR}/unknown/CMakeLists.txt
  "cmake_minimum_required(VERSION 3.16)\nproject(unknown C)\nfind_package(tread REQUIRED COMPONENTS no_such_part)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/unknown -B ${WORK_DIR}/unknown/build -DCMAKE_PREFIX_PATH=${prefix}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "no_such_part")
  message(FATAL_ERROR "find_package(tread REQUIRED COMPONENTS no_such_part) did not fail naming it:\n${out}\n${err}")
endif()
message(STATUS "find_package(tread COMPONENTS bullet) works from the install; unknown components are refused")
