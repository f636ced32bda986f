# Each libFuzzer target runs as a ctest test (~25 s each) when clang and its fuzzer runtime are
# installed. A fixture test configures and builds the separate clang tree (only the fuzz targets and
# the libraries they link) into <build>/fuzz-tree first. Not inside the fuzz tree itself.
set(BUZZ_CI_FUZZ_SECONDS 25 CACHE STRING "Seconds each fuzz target runs under ctest")
if(NOT BUZZ_BUILD_FUZZ)
    find_program(BUZZ_CLANGXX clang++)
    set(_fuzz_runtime "")
    if(BUZZ_CLANGXX)
        execute_process(COMMAND "${BUZZ_CLANGXX}" --print-file-name=libclang_rt.fuzzer-x86_64.a
            OUTPUT_VARIABLE _fuzz_runtime OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        if(NOT IS_ABSOLUTE "${_fuzz_runtime}" OR NOT EXISTS "${_fuzz_runtime}")
            execute_process(COMMAND "${BUZZ_CLANGXX}" --print-runtime-dir
                OUTPUT_VARIABLE _fuzz_runtime_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
            set(_fuzz_runtime "${_fuzz_runtime_dir}/libclang_rt.fuzzer-x86_64.a")
        endif()
    endif()
    if(BUZZ_CLANGXX AND EXISTS "${_fuzz_runtime}")
        set(_fuzz_tree "${CMAKE_BINARY_DIR}/fuzz-tree")
        add_test(NAME fuzz_build
            COMMAND "${CMAKE_SOURCE_DIR}/tests/fuzz/build-tree.sh" "${CMAKE_SOURCE_DIR}" "${_fuzz_tree}")
        set_tests_properties(fuzz_build PROPERTIES FIXTURES_SETUP fuzz_tree TIMEOUT 2400 LABELS fuzz)
        foreach(_target fuzz_event fuzz_filter fuzz_ws_message fuzz_nip98 fuzz_merge3 fuzz_http_body
            fuzz_http_head)
            add_test(NAME ${_target}
                COMMAND "${CMAKE_SOURCE_DIR}/tests/fuzz/run-all.sh" "${_fuzz_tree}" ${BUZZ_CI_FUZZ_SECONDS} ${_target})
            set_tests_properties(${_target} PROPERTIES FIXTURES_REQUIRED fuzz_tree
                TIMEOUT 180 LABELS fuzz)
        endforeach()
    else()
        message(STATUS "fuzz tests skipped: clang++ with libclang_rt.fuzzer not found (apt: clang libclang-rt-14-dev)")
    endif()
endif()
