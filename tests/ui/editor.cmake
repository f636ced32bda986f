# Issue 31 item 7: the Markdown editor's writing keys (lists, bold, italic, links, list indent) and
# its word and line counts, on the editor alone (no relay).
buzz_add_qtest(NAME test_ui_markdown_keys SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_markdown_keys.cpp"
    LIBS buzz_ui TIMEOUT 120 LABELS ui)
set_target_properties(test_ui_markdown_keys PROPERTIES AUTOMOC ON)
