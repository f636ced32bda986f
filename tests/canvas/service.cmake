# CanvasService against the real in-process relay (buzz_relay_testkit) behind a recording proxy.
# tests/relay (processed after this folder) defines buzz_relay_testkit; targets resolve at generate time.
add_library(buzz_canvas_testsupport STATIC
    ${CMAKE_CURRENT_LIST_DIR}/RecordingProxy.h ${CMAKE_CURRENT_LIST_DIR}/RecordingProxy.cpp
    ${CMAKE_CURRENT_LIST_DIR}/WsFrameReader.h ${CMAKE_CURRENT_LIST_DIR}/WsFrameReader.cpp
    ${CMAKE_CURRENT_LIST_DIR}/CanvasTestSupport.h)
target_include_directories(buzz_canvas_testsupport PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(buzz_canvas_testsupport PUBLIC buzz_canvas buzz_relay_testkit Qt6::Network
    PRIVATE buzz_compile_options)
set_target_properties(buzz_canvas_testsupport PROPERTIES AUTOMOC ON)
buzz_add_qtest(NAME test_canvas_service SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_canvas_service.cpp
    LIBS buzz_canvas_testsupport TIMEOUT 120)
