# Issue 31 item 7: the Markdown editor's writing keys (lists, bold, italic, links, list indent) and
# its word and line counts, on the editor alone (no relay).
buzz_add_qtest(NAME test_ui_markdown_keys SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_markdown_keys.cpp"
    LIBS buzz_ui TIMEOUT 120 LABELS ui)
set_target_properties(test_ui_markdown_keys PROPERTIES AUTOMOC ON)

# Issue 31 item 7: Go to Heading (the canvas's outline) and the Ctrl+P channel switcher with the
# recent channels kept in the profile.
buzz_add_qtest(NAME test_ui_outline_switcher
    SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_outline_switcher.cpp"
    LIBS buzz_ui_test_harness TIMEOUT 180 LABELS ui)
set_target_properties(test_ui_outline_switcher PROPERTIES AUTOMOC ON)

# Issue 31 item 8: export as Markdown, HTML and PDF (nothing fetched, no image or unsafe link in
# the HTML), print, and a Markdown file imported as an undoable edit.
buzz_add_qtest(NAME test_ui_export_import SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_export_import.cpp"
    LIBS buzz_ui_test_harness TIMEOUT 180 LABELS ui)
set_target_properties(test_ui_export_import PROPERTIES AUTOMOC ON)

# Issue 31 item 9: Hunspell spell checking in the editor (off the GUI thread, prose only),
# suggestions and "Add to dictionary" in the context menu, with a dictionary of the suite's own.
buzz_add_qtest(NAME test_ui_spelling SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_spelling.cpp"
    LIBS buzz_ui TIMEOUT 120 LABELS ui)
set_target_properties(test_ui_spelling PROPERTIES AUTOMOC ON)
