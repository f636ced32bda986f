# Shared warning flags for every first-party target.
add_library(buzz_compile_options INTERFACE)
target_compile_options(buzz_compile_options INTERFACE
    -Wall -Wextra -Wpedantic -Wno-missing-field-initializers)
if(BUZZ_WARNINGS_AS_ERRORS)
    target_compile_options(buzz_compile_options INTERFACE -Werror)
endif()
target_compile_definitions(buzz_compile_options INTERFACE
    QT_NO_URL_CAST_FROM_STRING QT_USE_QSTRINGBUILDER)
target_include_directories(buzz_compile_options INTERFACE "${CMAKE_BINARY_DIR}/generated")
