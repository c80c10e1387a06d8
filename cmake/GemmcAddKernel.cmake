# gemmc_add_kernel(<name> SPEC <spec.yaml> [EMBED] [SYMBOL <c-name>]
#                  [GEMMC_ARGS <arg>...])
#
# Compiles a spec at build time with gemmc::gemmc. The command reruns when the
# spec or the gemmc binary changes (both are file dependencies), with Ninja
# and Makefiles alike.
#
#   without EMBED  <name> is a custom target (built by ALL) producing
#                  <binary dir>/<name>.cubin and <name>.cubin.json; its
#                  properties GEMMC_CUBIN and GEMMC_MANIFEST hold the paths.
#   EMBED          <name> is a static library holding the cubin and its
#                  manifest (gemmc --emit=c); it links gemmc::runtime and
#                  gives the header <name>.h declaring <SYMBOL>_cubin,
#                  <SYMBOL>_cubin_size and <SYMBOL>_manifest, the arguments
#                  of gemmc_kernel_load_data. SYMBOL defaults to <name>.
#   GEMMC_ARGS     more gemmc options (e.g. --cuda-root=DIR)
function(gemmc_add_kernel name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EMBED" "SPEC;SYMBOL" "GEMMC_ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gemmc_add_kernel(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SPEC)
    message(FATAL_ERROR "gemmc_add_kernel(${name}): SPEC <spec.yaml> is required")
  endif()
  if(NOT TARGET gemmc::gemmc)
    message(FATAL_ERROR "gemmc_add_kernel(${name}): this gemmc has no compiler "
      "(it was built with GEMMC_RUNTIME_ONLY); install a full build of gemmc")
  endif()
  get_filename_component(spec "${arg_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(gemmc "$<TARGET_FILE:gemmc::gemmc>")
  set(dir "${CMAKE_CURRENT_BINARY_DIR}")

  if(NOT arg_EMBED)
    set(cubin "${dir}/${name}.cubin")
    add_custom_command(OUTPUT "${cubin}" "${cubin}.json"
      COMMAND "${gemmc}" "${spec}" -o "${cubin}" ${arg_GEMMC_ARGS}
      DEPENDS "${spec}" "${gemmc}"
      COMMENT "gemmc: ${arg_SPEC} -> ${name}.cubin"
      VERBATIM)
    add_custom_target(${name} ALL DEPENDS "${cubin}" "${cubin}.json")
    set_target_properties(${name} PROPERTIES GEMMC_CUBIN "${cubin}" GEMMC_MANIFEST "${cubin}.json")
    return()
  endif()

  set(symbol "${name}")
  if(arg_SYMBOL)
    set(symbol "${arg_SYMBOL}")
  endif()
  set(include_dir "${dir}/${name}-gemmc")
  set(header "${include_dir}/${name}.h")
  set(source "${include_dir}/${name}.c")
  add_custom_command(OUTPUT "${header}"
    COMMAND "${gemmc}" "${spec}" --emit=c-header "--symbol=${symbol}" -o "${header}" ${arg_GEMMC_ARGS}
    DEPENDS "${spec}" "${gemmc}"
    COMMENT "gemmc: ${arg_SPEC} -> ${name}.h"
    VERBATIM)
  add_custom_command(OUTPUT "${source}"
    COMMAND "${gemmc}" "${spec}" --emit=c "--symbol=${symbol}" -o "${source}" ${arg_GEMMC_ARGS}
    DEPENDS "${spec}" "${gemmc}"
    COMMENT "gemmc: ${arg_SPEC} -> ${name}.c"
    VERBATIM)
  file(MAKE_DIRECTORY "${include_dir}")
  add_library(${name} STATIC "${source}" "${header}")
  # The generated file is valid C and C++: compile it as C++ where the
  # project enabled no C.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST languages)
    set_source_files_properties("${source}" PROPERTIES LANGUAGE CXX)
  endif()
  target_include_directories(${name} PUBLIC "${include_dir}")
  target_link_libraries(${name} PUBLIC gemmc::runtime)
endfunction()
