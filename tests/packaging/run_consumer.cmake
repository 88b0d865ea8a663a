# Installs the build tree to WORK_DIR/prefix and builds + runs the consumer project.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
# The papers' examples and experiment drivers (experiments/, docs/api.md "Layers") stay out of
# the installed library.
set(inc ${WORK_DIR}/prefix/include)
file(GLOB_RECURSE experiment_headers ${inc}/*/scenarios.h ${inc}/*/sweep.h ${inc}/*/stress.h
  ${inc}/*/stress_scenes.h ${inc}/*/plus_examples.h ${inc}/*/compliant_examples.h)
if(experiment_headers OR EXISTS ${inc}/experiments)
  message(FATAL_ERROR "experiment headers were installed: ${experiment_headers}")
endif()
# Only the public headers (exactsim.h and what it includes): no stepper workspace, no solver
# scratch, no narrow phase. The consumer below includes exactsim.h, so the set is closed.
file(GLOB_RECURSE installed RELATIVE ${inc} ${inc}/exactsim/*.h)
foreach(h ${installed})
  file(READ ${inc}/${h} text)
  if(text MATCHES "struct (Workspace|IslandWorkspace|LcpScratch|RevisedLemkeScratch|MlcpScratch|PegScratch2d|PegScratch3d|SparseLemkeScratch) {")
    message(FATAL_ERROR "${h} defines the internal type ${CMAKE_MATCH_1}")
  endif()
endforeach()
list(LENGTH installed count)
message(STATUS "installed headers: ${count}")
foreach(internal stepping/step.h solvers/mlcp.h collision/vertex_edge.h contact/peg.h)
  if(EXISTS ${inc}/exactsim/${internal})
    message(FATAL_ERROR "the internal header ${internal} was installed")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build
  -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer against the install tree failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed: ${rc}")
endif()
execute_process(COMMAND ${WORK_DIR}/build/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "consumer says: ${out}")
if(rc)
  message(FATAL_ERROR "the consumer failed: ${rc}")
endif()
# cmake --install puts the Python module where /usr/bin/python3 finds it under the prefix
# (python/CMakeLists.txt): importable from another folder with that folder on its path.
file(GLOB module ${WORK_DIR}/prefix/lib/python3*/*-packages/exactsim*.so)
if(module AND EXISTS /usr/bin/python3)
  get_filename_component(site ${module} DIRECTORY)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${site} /usr/bin/python3 -c
    "import exactsim; print(exactsim.__file__)" WORKING_DIRECTORY ${WORK_DIR}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "installed module: ${out}")
  if(rc OR NOT out MATCHES "^${site}/")
    message(FATAL_ERROR "the installed Python module does not import: ${rc} ${out} ${err}")
  endif()
endif()
