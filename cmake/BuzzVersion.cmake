# Version from CMake plus the git commit, baked into every executable (--version).
find_package(Git QUIET)
set(BUZZ_GIT_COMMIT "unknown")
if(GIT_FOUND AND EXISTS "${CMAKE_SOURCE_DIR}/.git")
    execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short=12 HEAD
        WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
        OUTPUT_VARIABLE _buzz_commit OUTPUT_STRIP_TRAILING_WHITESPACE
        ERROR_QUIET RESULT_VARIABLE _buzz_git_rc)
    if(_buzz_git_rc EQUAL 0 AND _buzz_commit)
        set(BUZZ_GIT_COMMIT "${_buzz_commit}")
    endif()
    # Re-configure when HEAD moves, so an incremental build never reports an older commit.
    foreach(_git_file "${CMAKE_SOURCE_DIR}/.git/HEAD" "${CMAKE_SOURCE_DIR}/.git/logs/HEAD")
        if(EXISTS "${_git_file}")
            set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_git_file}")
        endif()
    endforeach()
endif()
configure_file("${CMAKE_SOURCE_DIR}/cmake/BuzzVersion.h.in"
    "${CMAKE_BINARY_DIR}/generated/BuzzVersion.h" @ONLY)
