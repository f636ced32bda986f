<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>buzz::ui::CanvasEditor</name>
    <message numerus="yes">
        <source>%n words</source>
        <translation>
            <numerusform>%n word</numerusform>
            <numerusform>%n words</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lines</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>buzz::ui::DiagnosticsPanel</name>
    <message numerus="yes">
        <source> · %n events dropped (failed verification)</source>
        <translation>
            <numerusform> · %n event dropped (failed verification)</numerusform>
            <numerusform> · %n events dropped (failed verification)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>buzz::ui::FindBar</name>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n replaced</numerusform>
            <numerusform>%n replaced</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>buzz::ui::RequestLogModel</name>
    <message numerus="yes">
        <source>%1 · %n dropped</source>
        <comment>a request&apos;s status, events of its answer that failed verification</comment>
        <translation>
            <numerusform>%1 · %n dropped</numerusform>
            <numerusform>%1 · %n dropped</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>buzz::ui::SearchResultModel</name>
    <message numerus="yes">
        <source>%n matching revisions</source>
        <translation>
            <numerusform>%n matching revision</numerusform>
            <numerusform>%n matching revisions</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>buzz::ui::UiFormat</name>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>%n min ago</numerusform>
            <numerusform>%n min ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>%n h ago</numerusform>
            <numerusform>%n h ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lines · %1</source>
        <translation>
            <numerusform>%n line · %1</numerusform>
            <numerusform>%n lines · %1</numerusform>
        </translation>
    </message>
</context>
</TS>
