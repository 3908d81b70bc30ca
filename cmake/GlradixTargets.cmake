# Helpers for glradix's own targets.

# The warnings every glradix target builds with.
function(glradix_warnings target scope)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} ${scope} -Wall -Wextra -Wpedantic)
  endif()
endfunction()

# An in-tree program (bench, demo, examples): C11, the warnings, and the
# vendored glad for its own GL calls, as any application would have.
function(glradix_program target)
  set_target_properties(${target} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                             C_EXTENSIONS OFF)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/third_party/glad/include)
  glradix_warnings(${target} PRIVATE)
endfunction()
