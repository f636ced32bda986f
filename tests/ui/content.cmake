# Issue 26 item 10: what a canvas may make the app do. The rendered canvas and the editor's preview
# never read a local file (file:, qrc:, relative or absolute paths, <img> in inline HTML) and never
# fetch a remote image; a link opens only in the desktop's browser, only for http, https and
# mailto, and only after the user confirmed it.
buzz_add_qtest(NAME test_ui_canvas_content SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_canvas_content.cpp"
    LIBS buzz_ui TIMEOUT 120 LABELS ui)
set_target_properties(test_ui_canvas_content PROPERTIES AUTOMOC ON)
