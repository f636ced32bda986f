# app_bench: cold start, opening big canvases, keystroke latency and peak RSS of the desktop app.
add_executable(app_bench "${CMAKE_CURRENT_LIST_DIR}/app_bench.cpp")
target_link_libraries(app_bench PRIVATE buzz_desktop Qt6::Test buzz_compile_options)
