# Shared warning flags for every first-party target.
add_library(buzz_compile_options INTERFACE)
target_compile_options(buzz_compile_options INTERFACE
    -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
if(BUZZ_WARNINGS_AS_ERRORS)
    # GCC 12's -Wmaybe-uninitialized reports libstdc++'s own std::optional<std::string> temporaries
    # at -O2 depending on inlining (test_ingest_canvas_cas passing std::nullopt): it stays a warning.
    target_compile_options(buzz_compile_options INTERFACE -Werror
        $<$<CXX_COMPILER_ID:GNU>:-Wno-error=maybe-uninitialized>)
endif()
# GCC's -Wsubobject-linkage is about headers: a type defined outside the main file that holds one
# with internal linkage. A unity build makes every .cpp such a file, and Qt 6.4's qCWarning() puts
# its anonymous-namespace QLoggingCategoryMacroHolder into every coroutine frame that logs (net/client,
# canvas). The warning cannot be true of a source file, so unity builds (CI's sanitizer builds) drop it.
if(CMAKE_UNITY_BUILD)
    target_compile_options(buzz_compile_options INTERFACE
        $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
endif()
target_compile_definitions(buzz_compile_options INTERFACE
    QT_NO_URL_CAST_FROM_STRING QT_USE_QSTRINGBUILDER)
target_include_directories(buzz_compile_options INTERFACE "${CMAKE_BINARY_DIR}/generated")

# BUZZ_SANITIZE=address,undefined or BUZZ_SANITIZE=thread: the strict CI builds (.ci/run) run the
# non-GUI suites under ASan+UBSan and the relay's threaded suites under TSan. Every first-party
# target is instrumented through buzz_compile_options; Qt and the other libraries are not, which
# is why the TSan run carries a suppressions file (tests/support/tsan.supp) for their internals.
set(BUZZ_SANITIZE "" CACHE STRING "Sanitizers for first-party code (e.g. address,undefined or thread)")
if(BUZZ_SANITIZE)
    target_compile_options(buzz_compile_options INTERFACE -fsanitize=${BUZZ_SANITIZE}
        -fno-omit-frame-pointer)
    target_link_options(buzz_compile_options INTERFACE -fsanitize=${BUZZ_SANITIZE})
    if(BUZZ_SANITIZE MATCHES "undefined")
        # A UBSan finding fails the test instead of scrolling past in its log.
        target_compile_options(buzz_compile_options INTERFACE -fno-sanitize-recover=undefined)
    endif()
endif()
