# History that says who changed what (issue 31 items 4-6): each revision's own change and the
# toggle to the current canvas, the blame view, revision labels, the three-way dialog with base.
buzz_add_qtest(NAME test_ui_history_views SOURCES "${CMAKE_CURRENT_LIST_DIR}/test_history_views.cpp"
    LIBS buzz_ui_test_harness TIMEOUT 120 LABELS ui)
set_target_properties(test_ui_history_views PROPERTIES AUTOMOC ON)
